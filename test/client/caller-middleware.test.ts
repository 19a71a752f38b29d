// A caller's own middleware: it reads real Requests, bodies included, and may return a Request of its own. Whatever it
// does, the client still sends the call as fetch(url, init) when it built the request, replays it after a 401 and
// retries it with its body, and ends it when the caller aborts. A body that can be read once (a stream) is sent again
// too; a middleware may answer a call itself; and until a caller's middleware asks for one, the client builds no Request
// (which would hold a listener on the caller's signal for as long as it lives).
import { getEventListeners } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createCarriersClient, createFleetClient, type CarriersClient } from '../../src/index.ts';
import { sendJson, startLoopbackServer, VEHICLE, type LoopbackServer, type RecordedRequest } from './loopback-server.ts';
import { PROJECT_TIMEOUTS } from '../../config/test-waits.ts';

const CLIENT_SECRET = 'client-secret-DO-NOT-PRINT-1234';
const EVENT = { load_id: 'L-1', milestone_type: 'PICKED_UP', event_time: '2024-05-01T12:00:00Z' };
const MILESTONES = '/v1/load-milestone-events';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** POST /token issues token-1, token-2, ...; the milestone endpoint is answered by `milestone`. */
async function service(milestone: (request: RecordedRequest, response: ServerResponse) => void): Promise<LoopbackServer> {
  let issued = 0;
  return startLoopbackServer((request, response) => {
    if (request.url !== '/token') return milestone(request, response);
    issued += 1;
    sendJson(response, 200, { access_token: `token-${issued}`, token_type: 'Bearer', expired_in: 3600 });
  });
}

/** The first token is refused with a 401, the renewed one accepted. */
const refusingTheFirstToken = (request: RecordedRequest, response: ServerResponse) =>
  request.headers.authorization === 'Bearer token-1'
    ? sendJson(response, 401, { message: 'token expired' })
    : sendJson(response, 200, { message: 'recorded' });

const milestones = (s: LoopbackServer) => s.requests.filter((request) => request.url === MILESTONES);

/** A fetch that notes how each milestone call reached it: a URL and a string body, or a Request. */
function notingFetch() {
  const calls: string[] = [];
  const fetch = (input: Request | string, init?: RequestInit) => {
    if (String(typeof input === 'string' ? input : input.url).endsWith(MILESTONES))
      calls.push(typeof input === 'string' ? `url, body ${typeof init?.body}` : 'Request');
    return globalThis.fetch(input, init);
  };
  return { fetch, calls };
}

function carriers(origin: string, options: Partial<Parameters<typeof createCarriersClient>[0]> = {}): CarriersClient {
  return createCarriersClient({ baseUrl: origin, clientId: 'app', clientSecret: CLIENT_SECRET, ...options });
}

describe("a caller's middleware", () => {
  it('reads the body, and the client still hands fetch the URL and the body as a string, on the first send and on the 401 replay', async () => {
    server = await service(refusingTheFirstToken);
    const { fetch, calls } = notingFetch();
    const client = carriers(server.origin, { fetch });
    const read: string[] = [];
    client.use({
      async onRequest({ request }) {
        read.push(await request.clone().text());
        return undefined;
      },
    });
    await client.POST(MILESTONES, { body: EVENT });
    expect(read).toEqual([JSON.stringify(EVENT)]);
    expect(calls).toEqual(['url, body string', 'url, body string']);
    expect(milestones(server).map((request) => JSON.parse(request.body))).toEqual([EVENT, EVENT]);
  });

  it('returns a Request of its own: sent as it is, and after a 401 sent again with its body and headers and the renewed token', async () => {
    server = await service(refusingTheFirstToken);
    const { fetch, calls } = notingFetch();
    const client = carriers(server.origin, { fetch });
    client.use({
      onRequest({ request }) {
        const headers = new Headers(request.headers);
        headers.set('x-trace-id', 'trace-7');
        return new Request(request, { headers });
      },
    });
    const { data } = await client.POST(MILESTONES, { body: EVENT });
    expect(data).toEqual({ message: 'recorded' });
    expect(calls[0]).toBe('Request');
    const sent = milestones(server);
    expect(sent.map((request) => request.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
    expect(sent.map((request) => request.headers['x-trace-id'])).toEqual(['trace-7', 'trace-7']);
    expect(sent.map((request) => JSON.parse(request.body))).toEqual([EVENT, EVENT]);
  });

  it('returns a Request of its own for one call: retried with its body when the caller allows retries of the POST', async () => {
    let answered = 0;
    server = await service((_request, response) => {
      answered += 1;
      if (answered < 3) sendJson(response, 503, { message: 'busy' });
      else sendJson(response, 200, { message: 'recorded' });
    });
    const client = carriers(server.origin, { retry: { retryNonIdempotent: true, sleep: async () => undefined } });
    const middleware = { onRequest: ({ request }: { request: Request }) => new Request(request) };
    await client.POST(MILESTONES, { body: EVENT, middleware: [middleware] });
    expect(milestones(server).map((request) => JSON.parse(request.body))).toEqual([EVENT, EVENT, EVENT]);
  });

  it('is given a body the client did not serialize to a string, which a 401 replay sends again', async () => {
    server = await service(refusingTheFirstToken);
    const client = carriers(server.origin);
    const seen: string[] = [];
    client.use({
      async onRequest({ request }) {
        seen.push(await request.clone().text());
        return undefined;
      },
    });
    const bodySerializer = (body: unknown) => new TextEncoder().encode(JSON.stringify(body));
    await client.POST(MILESTONES, { body: EVENT, bodySerializer });
    expect(seen).toEqual([JSON.stringify(EVENT)]);
    expect(milestones(server).map((request) => JSON.parse(request.body))).toEqual([EVENT, EVENT]);
  });

  it("does not keep the caller's abort from ending the call", async () => {
    const controller = new AbortController();
    const reason = new Error('the user left');
    let closed: Promise<void> | undefined;
    server = await service((_request, response) => {
      // The caller gives up once the request has arrived; the server never answers.
      controller.abort(reason);
      closed = new Promise((resolve) => response.on('close', () => resolve()));
    });
    // A timeout past the test's own: only the caller's abort can end the request while the test runs.
    const client = carriers(server.origin, { timeoutMs: 2 * PROJECT_TIMEOUTS.testTimeout });
    client.use({ onRequest: () => undefined });
    expect(await client.POST(MILESTONES, { body: EVENT, signal: controller.signal }).catch((error: unknown) => error)).toBe(reason);
    // The client closed the connection: the request itself was aborted, not only the promise.
    await closed;
  });
});

/** A milestone event as a stream of two chunks: a body that can be read once, sent with `duplex: 'half'`. */
function streamed(event: object): ReadableStream<Uint8Array> {
  const text = JSON.stringify(event);
  const half = Math.floor(text.length / 2);
  return new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text.slice(0, half)));
      controller.enqueue(new TextEncoder().encode(text.slice(half)));
      controller.close();
    },
  });
}

describe('a body the client cannot send as a string', () => {
  // A stream can be read once: the client must keep a copy of it to send the call again.
  const streaming = { bodySerializer: (body: unknown) => streamed(body as object), duplex: 'half' } as const;

  it('is sent, and sent again after a 401, without a middleware of the caller', async () => {
    server = await service(refusingTheFirstToken);
    const { data } = await carriers(server.origin).POST(MILESTONES, { body: EVENT, ...streaming });
    expect(data).toEqual({ message: 'recorded' });
    expect(milestones(server).map((request) => JSON.parse(request.body))).toEqual([EVENT, EVENT]);
  });

  it("is sent, and sent again after a 401, past a caller's middleware that reads it", async () => {
    server = await service(refusingTheFirstToken);
    const client = carriers(server.origin);
    const read: string[] = [];
    client.use({
      async onRequest({ request }) {
        read.push(await request.clone().text());
        return undefined;
      },
    });
    await client.POST(MILESTONES, { body: EVENT, ...streaming });
    expect(read).toEqual([JSON.stringify(EVENT)]);
    expect(milestones(server).map((request) => JSON.parse(request.body))).toEqual([EVENT, EVENT]);
  });
});

describe("a caller's fetch", () => {
  it("gets the URL and an init for a call without a body too, with a caller's middleware, and for its retries", async () => {
    server = await startLoopbackServer((_request, response, index) =>
      index === 0 ? sendJson(response, 503, { message: 'busy' }) : sendJson(response, 200, [VEHICLE]),
    );
    const inputs: string[] = [];
    const fetch = (input: Request | string, init?: RequestInit) => {
      inputs.push(typeof input === 'string' ? 'url' : 'Request');
      return globalThis.fetch(input, init);
    };
    const client = createFleetClient({ baseUrl: server.origin, fleetApiKey: 'key', fetch, retry: { sleep: async () => undefined } });
    const methods: string[] = [];
    client.use({
      onRequest({ request }) {
        methods.push(request.method);
        return undefined;
      },
    });
    expect((await client.GET('/vehicles')).data).toEqual([VEHICLE]);
    expect(methods).toEqual(['GET']);
    expect(inputs).toEqual(['url', 'url']);
  });
});

describe("a caller's middleware that rebuilds a request without a body", () => {
  it('has it retried after a 503, as the client would its own', async () => {
    server = await startLoopbackServer((_request, response, index) =>
      index === 0 ? sendJson(response, 503, { message: 'busy' }) : sendJson(response, 200, [VEHICLE]),
    );
    const client = createFleetClient({ baseUrl: server.origin, fleetApiKey: 'key', retry: { sleep: async () => undefined } });
    client.use({ onRequest: ({ request }) => new Request(request.url, { headers: request.headers, signal: request.signal }) });
    expect((await client.GET('/vehicles')).data).toEqual([VEHICLE]);
    expect(server.requests.map((request) => request.headers['api-key'])).toEqual(['key', 'key']);
  });
});

describe("a caller's middleware that answers a call itself", () => {
  it('gives the caller its Response, and nothing is sent', async () => {
    server = await service(() => expect.fail('the call was sent'));
    const client = carriers(server.origin);
    client.use({ onRequest: () => Response.json({ message: 'from the cache' }, { status: 200 }) });
    const { data } = await client.POST(MILESTONES, { body: EVENT });
    expect(data).toEqual({ message: 'from the cache' });
    expect(server.requests.filter((request) => request.url === MILESTONES)).toEqual([]);
  });
});

describe("the caller's signal", () => {
  /** A fleet client whose fetch notes how many listeners the signal of each call holds while its request goes out. */
  async function listening() {
    server = await startLoopbackServer((_request, response) => sendJson(response, 200, [VEHICLE]));
    const whileSent: number[] = [];
    const fetch = (input: Request | string, init?: RequestInit) => {
      whileSent.push(getEventListeners(signals.at(-1)!, 'abort').length);
      return globalThis.fetch(input, init);
    };
    const signals: AbortSignal[] = [];
    const signal = () => {
      signals.push(new AbortController().signal);
      return signals.at(-1)!;
    };
    return { client: createFleetClient({ baseUrl: server.origin, fleetApiKey: 'key', fetch }), whileSent, signal };
  }

  it('holds no listener of a call, in flight or done, until the caller adds a middleware (the client builds no Request)', async () => {
    const { client, whileSent, signal } = await listening();
    const shared = signal();
    for (let call = 0; call < 3; call += 1) await client.GET('/vehicles', { signal: shared });
    expect(whileSent).toEqual([0, 0, 0]);
    expect(getEventListeners(shared, 'abort')).toHaveLength(0);
  });

  it('holds no listener of a call that sends a body either', async () => {
    server = await service((_request, response) => sendJson(response, 200, { message: 'recorded' }));
    const { signal } = new AbortController();
    const whileSent: number[] = [];
    const fetch = (input: Request | string, init?: RequestInit) => {
      whileSent.push(getEventListeners(signal, 'abort').length);
      return globalThis.fetch(input, init);
    };
    await carriers(server.origin, { fetch }).POST(MILESTONES, { body: EVENT, signal });
    // The token request, then the milestone.
    expect(whileSent).toEqual([0, 0]);
  });

  it('holds none of the calls after one that brought a middleware of its own, which gets a real Request', async () => {
    const { client, whileSent, signal } = await listening();
    const seen: boolean[] = [];
    const middleware = { onRequest: ({ request }: { request: Request }) => void seen.push(request instanceof Request) };
    await client.GET('/vehicles', { signal: signal(), middleware: [middleware] });
    await client.GET('/vehicles', { signal: signal() });
    await client.GET('/vehicles', { signal: signal() });
    expect(seen).toEqual([true]);
    // The calls after it build no Request that would follow their signals.
    expect(whileSent.slice(1)).toEqual([0, 0]);
  });
});
