// Responses that go wrong after the status line: endless, truncated, broken and slow bodies, slow headers. Every API and
// both token endpoints, against a real loopback server; each fault ends as an ApiError of its own kind.
import type { ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, createCarriersClient, createFleetClient, createTokenProvider, type TransportOptions } from '../../src/index.ts';
import { sendJson, startLoopbackServer, type LoopbackServer, type RecordedRequest } from './loopback-server.ts';
import { expectNoCredentials } from './no-credentials.ts';
import { testWaitMs } from '../../config/test-waits.ts';

const CLIENT_SECRET = 'client-secret-DO-NOT-PRINT-1234';
const SUBSCRIPTION_KEY = 'subscription-key-DO-NOT-PRINT-5678';
const FLEET_API_KEY = 'fleet-api-key-DO-NOT-PRINT-9012';
const TOKEN = 'access-token-DO-NOT-PRINT-3456';
const CREDENTIALS = [CLIENT_SECRET, SUBSCRIPTION_KEY, FLEET_API_KEY, TOKEN];
const EVENT = { load_id: 'L-1', milestone_type: 'PICKED_UP', event_time: '2024-05-01T12:00:00Z' };
const MiB = 1024 * 1024;
/** The timeout of a call that the test expects to end otherwise: it only says that the call did not hang. */
const NOT_HUNG_MS = testWaitMs(10_000);

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Api {
  name: string;
  operation: string;
  /** The request the fault is injected into; any other (a token request for the carriers call) is answered normally. */
  isFaulty: (request: RecordedRequest) => boolean;
  call: (origin: string, options: TransportOptions) => Promise<unknown>;
}

const APIS: Api[] = [
  {
    name: 'fleet GET /vehicles',
    operation: 'GET /vehicles',
    isFaulty: (request) => request.url === '/vehicles',
    call: (origin, options) => createFleetClient({ baseUrl: origin, fleetApiKey: FLEET_API_KEY, ...options }).GET('/vehicles'),
  },
  {
    name: 'carriers milestone POST',
    operation: 'POST /v1/load-milestone-events',
    isFaulty: (request) => request.url === '/v1/load-milestone-events',
    call: (origin, options) =>
      createCarriersClient({
        baseUrl: origin,
        clientId: 'app',
        clientSecret: CLIENT_SECRET,
        subscriptionKey: SUBSCRIPTION_KEY,
        ...options,
      }).POST('/v1/load-milestone-events', {
        body: EVENT,
      }),
  },
  {
    name: 'service token',
    operation: 'POST /token',
    isFaulty: (request) => request.url === '/token',
    call: (origin, options) =>
      createTokenProvider({ baseUrl: origin, clientId: 'app', clientSecret: CLIENT_SECRET, ...options }).getToken(),
  },
  {
    name: 'identity-provider token',
    operation: 'POST /oauth2/default/v1/token',
    isFaulty: (request) => request.url === '/oauth2/default/v1/token',
    call: (origin, options) =>
      createTokenProvider({
        tokenEndpoint: 'identity-provider',
        authUrl: origin,
        clientId: 'app',
        clientSecret: CLIENT_SECRET,
        scope: 'carriers.milestones',
        subscriptionKey: SUBSCRIPTION_KEY,
        ...options,
      }).getToken(),
  },
];

type Fault = (response: ServerResponse, request: RecordedRequest) => void;

/** A server that injects `fault` into the faulty request of `api` and answers token requests otherwise. */
async function serve(api: Api, fault: Fault): Promise<LoopbackServer> {
  server = await startLoopbackServer((request, response) => {
    if (api.isFaulty(request)) return fault(response, request);
    sendJson(response, 200, { access_token: TOKEN, token_type: 'Bearer', expired_in: 3600 });
  });
  return server;
}

async function failureOf(call: Promise<unknown>): Promise<ApiError> {
  const outcome = await call.catch((error: unknown) => error);
  expect(outcome, 'the call fails with an ApiError').toBeInstanceOf(ApiError);
  expectNoCredentials(outcome, CREDENTIALS);
  return outcome as ApiError;
}

/**
 * A JSON array that never ends, written as fast as the client reads it. The server stops writing at `cap` (and keeps the
 * connection open) only so that a client without a limit cannot exhaust the test machine; `stats` tells how much was
 * written and whether the client hung up.
 */
function endlessBody(cap: number, status = 200) {
  const stats = { written: 0, closed: false };
  const chunk = Buffer.from(`${JSON.stringify({ vehicleNumber: 'V-1', padding: 'x'.repeat(1000) })},`.repeat(64));
  const fault: Fault = (response) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.write('[');
    response.on('close', () => (stats.closed = true));
    const pump = () => {
      while (!stats.closed && stats.written < cap) {
        stats.written += chunk.length;
        if (!response.write(chunk)) return void response.once('drain', pump);
      }
    };
    pump();
  };
  return { stats, fault };
}

describe.each(APIS)('$name', (api) => {
  const once = { retry: { attempts: 1 } };

  it('an endless body stops at maxResponseBytes: response_too_large, and the transfer is aborted', async () => {
    const { stats, fault } = endlessBody(64 * MiB);
    const s = await serve(api, fault);
    const error = await failureOf(api.call(s.origin, { ...once, maxResponseBytes: MiB, timeoutMs: NOT_HUNG_MS }));
    expect(error.kind).toBe('response_too_large');
    expect(error.status).toBe(200);
    expect(error.operation).toBe(api.operation);
    await expect.poll(() => stats.closed, { message: 'the client hung up' }).toBe(true);
    // What the server wrote: the limit, plus what socket buffers held when the client hung up.
    expect(stats.written).toBeLessThan(MiB + 16 * MiB);
  });

  it('a body cut off by a dropped connection is a network error', async () => {
    const s = await serve(api, (response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      // Dropped once the start of the body is on its way, not after a pause that may end before it is.
      response.write('{"access_token":"', () => response.socket?.destroy());
    });
    const error = await failureOf(api.call(s.origin, once));
    expect(error.kind).toBe('network');
    expect(error.operation).toBe(api.operation);
  });

  it('a body that ends early, cut in the middle of its JSON, is invalid_response with status and excerpt', async () => {
    const s = await serve(api, (response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"access_token":"tok');
    });
    const error = await failureOf(api.call(s.origin, once));
    expect(error.kind).toBe('invalid_response');
    expect(error.status).toBe(200);
    expect(error.body).toBe('{"access_token":"tok');
    expect(error.message).toContain(api.operation);
  });

  it('broken JSON (with a Content-Length) is invalid_response, with a redacted excerpt', async () => {
    const s = await serve(api, (response, request) => {
      // A gateway error page that echoes the request, sent as JSON with status 200.
      const page = `<html>upstream error; you sent ${request.body} ${request.headers['api-key'] ?? ''} ${request.headers['ocp-apim-subscription-key'] ?? ''}</html>`;
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(page)) }).end(page);
    });
    const error = await failureOf(api.call(s.origin, once));
    expect(error.kind).toBe('invalid_response');
    expect(error.status).toBe(200);
    expect(String(error.body)).toMatch(/^<html>upstream error; you sent/);
    expect(String(error.body).length).toBeLessThanOrEqual(200);
  });

  // The result types `data` as the success body: a success without one must not resolve with data undefined.
  it.for([
    ['with Content-Length 0', { 'content-length': '0' }],
    ['chunked', {}],
  ] as const)('an empty success body (%s) is invalid_response, not data undefined', async ([, headers]) => {
    const s = await serve(api, (response) => response.writeHead(200, { 'content-type': 'application/json', ...headers }).end());
    const error = await failureOf(api.call(s.origin, once));
    expect(error.kind).toBe('invalid_response');
    expect(error.status).toBe(200);
    expect(error.body).toBeUndefined();
    expect(error.message).toContain(`${api.operation} failed: the response (status 200) is not valid JSON: the body is empty`);
  });

  it('slow headers: the per-attempt timeout applies', async () => {
    // No answer at all: only the timeout ends the call.
    const s = await serve(api, () => undefined);
    const error = await failureOf(api.call(s.origin, { ...once, timeoutMs: 150 }));
    expect(error.kind).toBe('timeout');
  });

  it('a slow body: the per-attempt timeout applies to the body too', async () => {
    const s = await serve(api, (response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"access_token":');
    });
    const error = await failureOf(api.call(s.origin, { ...once, timeoutMs: 150 }));
    expect(error.kind).toBe('timeout');
  });
});

describe.each(APIS.filter((api) => api.operation.endsWith('/token')))('$name answer', (api) => {
  it('valid JSON without an access_token is invalid_response', async () => {
    const s = await serve(api, (response) => sendJson(response, 200, { token_type: 'Bearer', expires_in: 3600 }));
    const error = await failureOf(api.call(s.origin, { retry: { attempts: 1 } }));
    expect(error.kind).toBe('invalid_response');
    expect(error.message).toContain('no access_token');
  });
});

describe('no content', () => {
  it('a 204 resolves with data undefined (no content by definition)', async () => {
    const s = await serve(APIS[0]!, (response) => response.writeHead(204).end());
    const { data, response } = (await APIS[0]!.call(s.origin, { retry: { attempts: 1 } })) as { data: unknown; response: Response };
    expect(response.status).toBe(204);
    expect(data).toBeUndefined();
  });
});

describe('maxResponseBytes', () => {
  const fleetApi = APIS[0]!;

  it('defaults to 32 MiB: an endless body stops there and memory does not grow with it', async () => {
    const { stats, fault } = endlessBody(160 * MiB);
    const s = await serve(fleetApi, fault);
    const rssBefore = process.memoryUsage().rss;
    const error = await failureOf(fleetApi.call(s.origin, { retry: { attempts: 1 }, timeoutMs: NOT_HUNG_MS }));
    const grown = process.memoryUsage().rss - rssBefore;
    expect(error.kind).toBe('response_too_large');
    await expect.poll(() => stats.closed, { message: 'the client hung up' }).toBe(true);
    expect(stats.written).toBeGreaterThan(32 * MiB);
    expect(stats.written).toBeLessThan(48 * MiB);
    expect(grown, `RSS grew by ${Math.round(grown / MiB)} MiB`).toBeLessThan(160 * MiB);
  });

  it('a Content-Length over the limit fails at once, before the body arrives', async () => {
    // One byte of the body and no more: only the Content-Length can tell that it is too large, and a client that waited
    // for the body would time out instead.
    const s = await serve(fleetApi, (response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(100 * MiB) });
      response.write('[');
    });
    const error = await failureOf(fleetApi.call(s.origin, { retry: { attempts: 1 }, maxResponseBytes: MiB, timeoutMs: NOT_HUNG_MS }));
    expect(error.kind).toBe('response_too_large');
  });

  it('counts decoded bytes: a small gzip body that inflates past the limit is too large', async () => {
    const bomb = gzipSync(Buffer.from(`[${'0,'.repeat(4 * MiB)}0]`));
    expect(bomb.length).toBeLessThan(MiB / 8);
    const s = await serve(fleetApi, (response) => {
      response
        .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(bomb.length) })
        .end(bomb);
    });
    const error = await failureOf(fleetApi.call(s.origin, { retry: { attempts: 1 }, maxResponseBytes: MiB }));
    expect(error.kind).toBe('response_too_large');
  });

  it('applies to error bodies', async () => {
    const { fault } = endlessBody(16 * MiB, 500);
    const s = await serve(fleetApi, fault);
    const error = await failureOf(fleetApi.call(s.origin, { maxResponseBytes: 256 * 1024, timeoutMs: NOT_HUNG_MS }));
    expect(error.kind).toBe('response_too_large');
    expect(error.status).toBe(500);
  });

  it('a GET whose answer is too large is not retried', async () => {
    const { fault } = endlessBody(16 * MiB);
    const s = await serve(fleetApi, fault);
    const error = await failureOf(
      fleetApi.call(s.origin, { maxResponseBytes: 256 * 1024, timeoutMs: NOT_HUNG_MS, retry: { attempts: 3, baseDelayMs: 0 } }),
    );
    expect(error.kind).toBe('response_too_large');
    expect(s.requests).toHaveLength(1);
  });

  it('a caller who reads the body as a stream gets the same ApiError past the limit', async () => {
    const { fault } = endlessBody(16 * MiB);
    const s = await serve(fleetApi, fault);
    const fleet = createFleetClient({
      baseUrl: s.origin,
      fleetApiKey: FLEET_API_KEY,
      maxResponseBytes: 256 * 1024,
      timeoutMs: NOT_HUNG_MS,
    });
    const { data } = await fleet.GET('/vehicles', { parseAs: 'stream' });
    const reader = (data as ReadableStream<Uint8Array>).getReader();
    const drain = async () => {
      while (!(await reader.read()).done);
    };
    const error = await failureOf(drain());
    expect(error.kind).toBe('response_too_large');
  });

  it('0 means no limit; a body within the limit is read whole', async () => {
    const vehicles = Array.from({ length: 3000 }, (_, i) => ({ vehicleNumber: `V-${i}`, padding: 'x'.repeat(1000) }));
    const s = await serve(fleetApi, (response) => {
      // Chunked (no Content-Length), so the counted path is the one taken.
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(vehicles));
    });
    const unlimited = (await fleetApi.call(s.origin, { maxResponseBytes: 0 })) as { data: unknown[] };
    expect(unlimited.data).toHaveLength(3000);
    const within = (await fleetApi.call(s.origin, { maxResponseBytes: 4 * MiB })) as { data: unknown[] };
    expect(within.data).toHaveLength(3000);
    const over = await failureOf(fleetApi.call(s.origin, { maxResponseBytes: 2 * MiB }));
    expect(over.kind).toBe('response_too_large');
  });

  it('rejects a value that is not a whole number of bytes, naming the option', () => {
    for (const bad of [-1, 1.5, Number.NaN, '1024' as unknown as number]) {
      expect(() => createFleetClient({ baseUrl: 'http://127.0.0.1:9', fleetApiKey: FLEET_API_KEY, maxResponseBytes: bad })).toThrow(
        /option "maxResponseBytes"/,
      );
    }
  });
});
