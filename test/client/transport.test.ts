// The transport as a caller meets it: how long each attempt's timeout runs (until its answer has been read, and on for a
// body the caller reads as a stream), the timeout and the caller's abort for a Request of the caller's middleware, the
// re-send on a new connection (through a fetch given for one call, when every idle connection went stale, and never on
// another kept-alive one), the parseAs options, which failures while a body is read become an ApiError and which pass
// through as they are, what an error says of its body (cut at 64 KiB, text that looks like JSON, a body that never ends,
// one too large, one that is not JSON), redirects (300, no Location, one that does not parse), an ApiError's own
// surface, and maxResponseBytes at its edges. Real loopback servers, or a fetch of the caller's that answers from memory.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connections, sharedConnections } from '../../src/connections.ts';
import { ApiError, createFleetClient, createLogisticsClient, createTokenClient } from '../../src/index.ts';
import { DIRECT, untilConnectionsFree } from './pools.ts';
import { dropConnection, sendJson, startLoopbackServer, VEHICLE, type Handler, type LoopbackServer } from './loopback-server.ts';

const API_KEY = 'fleet-api-key-DO-NOT-PRINT-9012';
const ORIGIN = 'http://fleet.partner.invalid';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A fleet client of a loopback server answered by `handler` (whatever it returns is ignored), one attempt per call. */
async function fleetAt(handler: (...args: Parameters<Handler>) => unknown, options: Partial<Parameters<typeof createFleetClient>[0]> = {}) {
  server = await startLoopbackServer((...args) => void handler(...args));
  return createFleetClient({ baseUrl: server.origin, fleetApiKey: API_KEY, retry: { attempts: 1 }, ...options });
}

const failure = async (call: Promise<unknown>) => {
  const error = await call.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
};

/** Starts an answer and never finishes it. */
const stall = (response: ServerResponse, status = 200, start = '[{"vehicleNumber":') =>
  void response.writeHead(status, { 'content-type': 'application/json' }).write(start);

describe("each attempt's timeout", () => {
  it('ends once the answer has been read (or dropped), and runs on for a body the caller reads as a stream', async () => {
    /** A fleet client whose fetch answers from memory, noting the signal of each attempt. */
    const answering = (...responses: Array<() => Response>) => {
      const signals: AbortSignal[] = [];
      const fetch = async (_input: Request | string, init?: RequestInit) => {
        signals.push(init!.signal!);
        return responses[signals.length - 1]!();
      };
      const retry = { attempts: 2, sleep: async () => undefined };
      return { fleet: createFleetClient({ baseUrl: ORIGIN, fleetApiKey: API_KEY, fetch, timeoutMs: 1000, retry }), signals };
    };
    const json =
      (status: number, body: unknown, headers: Record<string, string> = {}) =>
      () =>
        new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
    const sized = (status: number, body: unknown) => json(status, body, { 'content-length': String(JSON.stringify(body).length) });
    const cases = {
      'JSON with a Content-Length': answering(sized(200, [VEHICLE])),
      'JSON without one (read through the size limit)': answering(json(200, [VEHICLE])),
      'text asked for': answering(json(200, [VEHICLE])),
      'an error status': answering(json(404, { message: 'no such vehicle' })),
      'a 503 dropped for a retry': answering(json(503, { message: 'busy' }), sized(200, [VEHICLE])),
      'a redirect': answering(() => new Response('moved', { status: 302, headers: { location: 'https://elsewhere.example/' } })),
      'a stream the caller holds': answering(json(200, [VEHICLE])),
    };
    // Fake timers: the test, not the machine's speed, says when each attempt's 1000 ms have passed.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldClearNativeTimers: true });
    const settled = await Promise.allSettled([
      cases['JSON with a Content-Length'].fleet.GET('/vehicles'),
      cases['JSON without one (read through the size limit)'].fleet.GET('/vehicles'),
      cases['text asked for'].fleet.GET('/vehicles', { parseAs: 'text' }),
      cases['an error status'].fleet.GET('/vehicles'),
      cases['a 503 dropped for a retry'].fleet.GET('/vehicles'),
      cases['a redirect'].fleet.GET('/vehicles'),
      cases['a stream the caller holds'].fleet.GET('/vehicles', { parseAs: 'stream' }),
    ]);
    expect(settled.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    // Past every attempt's timeout.
    vi.advanceTimersByTime(1000);
    vi.useRealTimers();
    const aborted = Object.fromEntries(Object.entries(cases).map(([name, { signals }]) => [name, signals.map((signal) => signal.aborted)]));
    expect(aborted).toEqual({
      'JSON with a Content-Length': [false],
      'JSON without one (read through the size limit)': [false],
      'text asked for': [false],
      'an error status': [false],
      'a 503 dropped for a retry': [false, false],
      'a redirect': [false],
      'a stream the caller holds': [true],
    });
  });

  it('ends a stream the caller reads too slowly with a TimeoutError', async () => {
    const fleet = await fleetAt((_request, response) => stall(response), { timeoutMs: 300 });
    const { data } = await fleet.GET('/vehicles', { parseAs: 'stream' });
    const reader = (data as unknown as ReadableStream<Uint8Array>).getReader();
    const error = await (async () => {
      for (;;) if ((await reader.read()).done) return undefined;
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'TimeoutError', message: 'The operation was aborted due to timeout' });
  });

  it("applies to a Request a caller's middleware made, and so does the caller's abort", async () => {
    const fleet = await fleetAt(() => undefined, { timeoutMs: 300 });
    fleet.use({ onRequest: ({ request }) => new Request(request, { headers: request.headers }) });
    expect((await failure(fleet.GET('/vehicles'))).kind).toBe('timeout');
    const controller = new AbortController();
    const reason = new Error('the user left');
    const patient = createFleetClient({ baseUrl: server!.origin, fleetApiKey: API_KEY, timeoutMs: 60_000, retry: { attempts: 1 } });
    patient.use({ onRequest: ({ request }) => new Request(request, { headers: request.headers }) });
    const call = patient.GET('/vehicles', { signal: controller.signal });
    await server!.received(2);
    controller.abort(reason);
    expect(await call.catch((e: unknown) => e)).toBe(reason);
  });
});

describe('the re-send on a new connection', () => {
  /** A server that answers the first request of each connection, and closes one that comes back for a second. */
  function closingReusedConnections(): Handler {
    const served = new WeakMap<Socket, number>();
    return (_request, response) => {
      const socket = response.socket!;
      const n = (served.get(socket) ?? 0) + 1;
      served.set(socket, n);
      if (n > 1) return dropConnection(response);
      sendJson(response, 200, [VEHICLE]);
    };
  }
  /** Until the client's own kept-alive connections to the server can take the next call (undici frees them a turn later). */
  const untilFree = () => untilConnectionsFree(sharedConnections().pooled, server!.origin);

  it('goes through the fetch given for the call', async () => {
    let sent = 0;
    // The caller's fetch keeps its connections alive in a pool of its own, which the test can ask when one is free.
    const pool = connections({}, DIRECT).pooled;
    const fetch = (input: Request | string, init?: RequestInit) => {
      sent += 1;
      return globalThis.fetch(input, { ...init, dispatcher: pool } as RequestInit);
    };
    const fleet = await fleetAt(closingReusedConnections());
    await fleet.GET('/vehicles', { fetch });
    await untilConnectionsFree(pool, server!.origin);
    expect((await fleet.GET('/vehicles', { fetch })).data).toEqual([VEHICLE]);
    expect(sent).toBe(3);
  });

  it('succeeds when every idle connection went stale: it opens a new one', async () => {
    let held: Array<() => void> = [];
    const closing = closingReusedConnections();
    const fleet = await fleetAt((request, response, index) => {
      // The first two calls are answered together, so that each has a connection of its own.
      if (index < 2) {
        held.push(() => closing(request, response, index));
        if (held.length === 2) for (const answer of held.splice(0)) answer();
        return;
      }
      closing(request, response, index);
    });
    await Promise.all([fleet.GET('/vehicles'), fleet.GET('/vehicles')]);
    held = [];
    await untilFree();
    expect((await fleet.GET('/vehicles')).data).toEqual([VEHICLE]);
  });

  it('opens a connection of its own, never one kept alive, which may be just as stale', async () => {
    // Three kept-alive connections; then a call held, one answered, and one the server drops (stale). A request on a
    // connection that served before is dropped; one on a new connection answered.
    const served = new WeakSet<Socket>();
    const held: Array<() => void> = [];
    let dropThird: (() => void) | undefined;
    const fleet = await fleetAt((_request, response, index) => {
      const reused = served.has(response.socket!);
      served.add(response.socket!);
      const answer = () => sendJson(response, 200, [VEHICLE]);
      if (index < 3) {
        held.push(answer);
        if (held.length === 3) for (const release of held.splice(0)) release();
      } else if (index === 3) held.push(answer);
      else if (index === 5) dropThird = () => dropConnection(response);
      else if (reused && index > 5) dropConnection(response);
      else answer();
    });
    await Promise.all([fleet.GET('/vehicles'), fleet.GET('/vehicles'), fleet.GET('/vehicles')]);
    await untilFree();
    const waiting = fleet.GET('/vehicles');
    await server!.received(4);
    expect((await fleet.GET('/vehicles')).data).toEqual([VEHICLE]);
    const resent = fleet.GET('/vehicles');
    await server!.received(6);
    dropThird!();
    expect((await resent).data).toEqual([VEHICLE]);
    for (const release of held.splice(0)) release();
    await waiting;
  });
});

describe('what a call resolves with, and what fails it while its body is read', () => {
  it('parses JSON when asked by name, and returns text when asked for text', async () => {
    const fleet = await fleetAt((_request, response, index) =>
      index === 0 ? response.writeHead(200, { 'content-type': 'application/json' }).end('{"broken":') : sendJson(response, 200, [VEHICLE]),
    );
    expect((await failure(fleet.GET('/vehicles', { parseAs: 'json' }))).kind).toBe('invalid_response');
    expect((await fleet.GET('/vehicles', { parseAs: 'text' })).data).toBe(JSON.stringify([VEHICLE]));
  });

  it('a call without options whose body is cut off fails with an ApiError', async () => {
    // Dropped once the start of the body is on its way, not after a pause that may end before it is.
    const fleet = await fleetAt((_request, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).write('[{"vehicleNumber":', () => response.socket?.destroy()),
    );
    expect((await failure(fleet.GET('/vehicles'))).kind).toBe('network');
  });

  it("the caller's own AbortSignal.timeout firing while the body is read surfaces as the caller's TimeoutError", async () => {
    const fleet = await fleetAt((_request, response) => stall(response), { timeoutMs: 60_000 });
    // The caller's signal fires with the TimeoutError of an AbortSignal.timeout once the status line has arrived (the
    // body never ends), not after a time that a busy machine may spend before the answer starts.
    const timedOut = AbortSignal.timeout(1);
    await new Promise((resolve) => timedOut.addEventListener('abort', resolve, { once: true }));
    const controller = new AbortController();
    fleet.use({ onResponse: () => controller.abort(timedOut.reason) });
    const error = await fleet.GET('/vehicles', { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(error).toBe(timedOut.reason);
    expect(error).toMatchObject({ name: 'TimeoutError' });
  });

  it('a configuration error at the call passes through as the TypeError it is', async () => {
    const onlyIdentityProvider = createTokenClient({ authUrl: 'http://127.0.0.1:9' });
    const error = await onlyIdentityProvider
      .POST('/token', { body: { grant_type: 'client_credentials', client_id: 'a', client_secret: 'b' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).not.toBeInstanceOf(ApiError);
  });

  it("an error a caller's middleware throws passes through as it is, a TypeError too", async () => {
    const refusals = [new Error('this caller does not list vehicles on Sundays', { cause: 'policy' }), new TypeError('no vehicles today')];
    for (const refusal of refusals) {
      const fleet = createFleetClient({ baseUrl: ORIGIN, fleetApiKey: API_KEY });
      fleet.use({
        onRequest() {
          throw refusal;
        },
      });
      expect(await fleet.GET('/vehicles').catch((e: unknown) => e)).toBe(refusal);
    }
  });

  it('a network failure is an ApiError even when the caller aborted meanwhile: only the abort reason passes through', async () => {
    const controller = new AbortController();
    const fetch = async () => {
      controller.abort(new Error('the user left'));
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) });
    };
    const fleet = createFleetClient({ baseUrl: ORIGIN, fleetApiKey: API_KEY, fetch, retry: { sleep: async () => undefined } });
    const error = await failure(fleet.GET('/vehicles', { signal: controller.signal }));
    expect(error.kind).toBe('network');
    expect(error.message).toContain('ECONNRESET: read ECONNRESET');
  });

  it("an AbortError from a caller's fetch passes through as it is, not retried", async () => {
    let sent = 0;
    const abort = new DOMException('The caller gave up', 'AbortError');
    const fetch = () => {
      sent += 1;
      return Promise.reject(abort);
    };
    const fleet = createFleetClient({ baseUrl: ORIGIN, fleetApiKey: API_KEY, fetch, retry: { sleep: async () => undefined } });
    expect(await fleet.GET('/vehicles').catch((e: unknown) => e)).toBe(abort);
    expect(sent).toBe(1);
  });
});

describe('what an error says of its body', () => {
  it('keeps the first 64 KiB of a long text body, and text that looks like JSON as text', async () => {
    const long = 'x'.repeat(100_000);
    const fleet = await fleetAt((_request, response, index) =>
      response.writeHead(500, { 'content-type': 'text/plain' }).end(index === 0 ? long : '{"looks":"like JSON"}'),
    );
    expect((await failure(fleet.GET('/vehicles'))).body).toBe(long.slice(0, 64 * 1024));
    expect((await failure(fleet.GET('/vehicles'))).body).toBe('{"looks":"like JSON"}');
  });

  it('an error status whose body never ends: the status is the news', async () => {
    const fleet = await fleetAt((_request, response) => stall(response, 503, '{"message":'), { timeoutMs: 300 });
    const error = await failure(fleet.GET('/vehicles'));
    expect(error).toMatchObject({ kind: 'http', status: 503, body: undefined });
  });

  it('a text body trimmed to its first 200 characters in the message, and a JSON null body says nothing', async () => {
    const text = `  ${'y'.repeat(300)}  `;
    const fleet = await fleetAt((_request, response, index) =>
      index === 0
        ? response.writeHead(502, { 'content-type': 'text/plain' }).end(text)
        : response.writeHead(502, { 'content-type': 'application/json' }).end('null'),
    );
    const error = await failure(fleet.GET('/vehicles'));
    expect(error.message).toContain(`failed with status 502: ${'y'.repeat(200)} [`);
    const nothing = await failure(fleet.GET('/vehicles'));
    expect(nothing.body).toBeNull();
    expect(nothing.message).toMatch(/failed with status 502 \[/);
  });

  it('a body that is not JSON: an excerpt with its runs of spaces made one, or that the body is empty', async () => {
    const fleet = await fleetAt((_request, response, index) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(index === 0 ? 'not\n\n\tjson   at all' : ''),
    );
    const error = await failure(fleet.GET('/vehicles'));
    expect(error.kind).toBe('invalid_response');
    expect(error.message).toContain(': not json at all [');
    const empty = await failure(fleet.GET('/vehicles'));
    expect(empty.message).toContain(': the body is empty [');
  });

  it('a body over maxResponseBytes: the limit in the message', async () => {
    const fleet = await fleetAt(
      (_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('x'.repeat(500)),
      {
        maxResponseBytes: 100,
      },
    );
    const error = await failure(fleet.GET('/vehicles'));
    expect(error.message).toBe(
      `GET /vehicles failed: the response body (status 200) is over the size limit (maxResponseBytes): 100 bytes; the download was stopped [${server!.origin}/vehicles]`,
    );
  });
});

describe('the summary of an error body in the message', () => {
  it('joins the OAuth and gateway fields it knows, each once, skipping empty ones, at most 300 characters', async () => {
    const long = 'd'.repeat(400);
    const bodies = [
      { error: 'invalid_client', code: '', error_description: 'bad secret', message: 'bad secret' },
      { error: 'x', message: long },
    ];
    const fleet = await fleetAt((_request, response, index) => sendJson(response, 400, bodies[index]));
    expect((await failure(fleet.GET('/vehicles'))).message).toContain('failed with status 400: invalid_client - bad secret [');
    expect((await failure(fleet.GET('/vehicles'))).message).toContain(`failed with status 400: ${`x - ${long}`.slice(0, 300)} [`);
  });
});

describe('a redirect', () => {
  it('300 too; without a Location, or with one that does not parse, no host is named', async () => {
    const fleet = await fleetAt((_request, response, index) => {
      const headers: Record<string, string> = [{ location: 'https://other.example:8443/x' }, {}, { location: 'http://[bad' }][index] ?? {};
      response.writeHead(index === 0 ? 300 : 302, headers).end();
    });
    const choices = await failure(fleet.GET('/vehicles'));
    expect(choices).toMatchObject({ kind: 'redirect', status: 300, redirectHost: 'other.example:8443' });
    expect(choices.toJSON()).toMatchObject({ redirectHost: 'other.example:8443' });
    for (let call = 1; call < 3; call += 1) {
      const error = await failure(fleet.GET('/vehicles'));
      expect(error).toMatchObject({ kind: 'redirect', status: 302, redirectHost: undefined });
      expect(error.message).toContain('was redirected (status 302) to an undisclosed location: not followed');
      expect('redirectHost' in error.toJSON()).toBe(false);
    }
  });

  it('with an endless body: the download stops', async () => {
    let closed: Promise<void> | undefined;
    const fleet = await fleetAt((_request, response) => {
      response.writeHead(302, { location: 'https://elsewhere.example/' });
      const timer = setInterval(() => response.write('x'.repeat(1024)), 5);
      closed = new Promise((resolve) => response.on('close', () => resolve(clearInterval(timer))));
    });
    expect((await failure(fleet.GET('/vehicles'))).kind).toBe('redirect');
    await closed;
  });
});

describe('an ApiError', () => {
  it('shows its name and message, carries a cause it is given, and joins the request ids', () => {
    const cause = new Error('underneath');
    const error = new ApiError({
      kind: 'http',
      status: 500,
      operation: 'GET /vehicles',
      url: 'https://fleet.example/vehicles',
      requestIds: { 'x-request-id': 'a-1', 'request-id': 'b-2' },
      cause,
    });
    expect(String(error)).toBe(`ApiError: ${error.message}`);
    expect(error.message).toBe('GET /vehicles failed with status 500 [https://fleet.example/vehicles] (x-request-id a-1, request-id b-2)');
    expect(error.cause).toBe(cause);
    expect('cause' in new ApiError({ kind: 'network', status: 0, operation: 'GET /x', url: 'https://fleet.example/x' })).toBe(false);
  });
});

describe('maxResponseBytes', () => {
  it('is a whole number of bytes', () => {
    for (const maxResponseBytes of ['1024', 1.5, -1])
      expect(() => createFleetClient({ baseUrl: ORIGIN, fleetApiKey: API_KEY, maxResponseBytes: maxResponseBytes as number })).toThrow(
        new TypeError('createFleetClient: option "maxResponseBytes" must be a whole number of bytes (0: no limit)'),
      );
  });

  it('refuses a Content-Length over it at once, before any of the body arrives, identity-encoded too', async () => {
    const fleet = await fleetAt(
      (_request, response, index) => {
        const encoding = index === 1 ? { 'content-encoding': 'identity' } : {};
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000', ...encoding }).flushHeaders();
      },
      { maxResponseBytes: 100, timeoutMs: 60_000 },
    );
    for (let call = 0; call < 2; call += 1) expect((await failure(fleet.GET('/vehicles'))).kind).toBe('response_too_large');
  });

  it("does not trust a Content-Length that is not a number (a caller's fetch may build any): the body is counted", async () => {
    for (const length of ['12abc', 'abc12']) {
      const fetch = async () =>
        new Response(JSON.stringify([VEHICLE]), { headers: { 'content-type': 'application/json', 'content-length': length } });
      const fleet = createFleetClient({ baseUrl: ORIGIN, fleetApiKey: API_KEY, fetch, maxResponseBytes: 10_000 });
      expect((await fleet.GET('/vehicles')).data, length).toEqual([VEHICLE]);
    }
  });

  it('accepts a body of exactly that many bytes, without a Content-Length', async () => {
    const body = JSON.stringify(['x'.repeat(96)]);
    expect(body).toHaveLength(100);
    const fleet = await fleetAt((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(body), {
      maxResponseBytes: 100,
    });
    expect((await fleet.GET('/vehicles')).data).toEqual(['x'.repeat(96)]);
  });

  it('a token answer without a token, read through the limit, names the URL it came from', async () => {
    server = await startLoopbackServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"token_type":"Bearer",');
      response.end('"expires_in":3600}');
    });
    const lp = createLogisticsClient({
      baseUrl: `${server.origin}/svc`,
      clientId: 'app',
      clientSecret: 'secret-value',
      retry: { attempts: 1 },
    });
    const error = await failure(lp.getToken());
    expect(error.kind).toBe('invalid_response');
    expect(error.url).toBe(`${server.origin}/svc/token`);
  });
});
