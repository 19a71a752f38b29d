// A caller's own middleware: it reads real Requests, bodies included, and may return a Request of its own. Whatever it
// does, the client still sends the call as fetch(url, init) when it built the request, replays it after a 401 and
// retries it with its body, and ends it when the caller aborts.
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createCarriersClient, type CarriersClient } from '../../src/index.ts';
import { sendJson, startLoopbackServer, type LoopbackServer, type RecordedRequest } from './loopback-server.ts';

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
    let closed: Promise<boolean> | undefined;
    server = await service((_request, response) => {
      // The caller gives up once the request has arrived; the server answers only if the connection stays open.
      controller.abort(reason);
      closed = new Promise((resolve) => response.on('close', () => resolve(!response.writableEnded)));
      setTimeout(() => response.destroyed || sendJson(response, 200, { message: 'recorded' }), 1000);
    });
    const client = carriers(server.origin);
    client.use({ onRequest: () => undefined });
    expect(await client.POST(MILESTONES, { body: EVENT, signal: controller.signal }).catch((error: unknown) => error)).toBe(reason);
    // The connection was closed before the answer: the request itself was aborted, not only the promise.
    expect(await closed).toBe(true);
  });
});
