// Fleet client: API-Key auth, path-prefixed base URLs, retries with backoff and Retry-After, timeouts and caller signals.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createFleetClient, createLogisticsClient } from '../../src/index.ts';
import { dropConnection, sendJson, startLoopbackServer, VEHICLE, type Handler, type LoopbackServer } from './loopback-server.ts';
import { recordingSleep } from './recording-sleep.ts';

const API_KEY = 'fleet-api-key-DO-NOT-PRINT-9012';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function fleet(handler: Handler, options: Partial<Parameters<typeof createFleetClient>[0]> = {}) {
  server = await startLoopbackServer(handler);
  return createFleetClient({ baseUrl: `${server.origin}/gateway/fleet/v1`, fleetApiKey: API_KEY, ...options });
}

describe('createFleetClient', () => {
  it('keeps the base URL path prefix, sends API-Key and repeats array filters', async () => {
    const client = await fleet((_request, response) => sendJson(response, 200, [VEHICLE]));
    const { data } = await client.GET('/vehicles', { params: { query: { vin: ['VIN-A', 'VIN B'], sort: 'vehicleNumber asc' } } });
    expect(data).toEqual([VEHICLE]);
    const [request] = server!.requests;
    expect(request?.url).toBe('/gateway/fleet/v1/vehicles?vin=VIN-A&vin=VIN%20B&sort=vehicleNumber%20asc');
    expect(request?.headers['api-key']).toBe(API_KEY);
    expect(request?.headers.authorization).toBeUndefined();
  });

  it('fills the path parameter under the prefix (and a trailing slash on the base URL is harmless)', async () => {
    server = await startLoopbackServer((_request, response) => sendJson(response, 200, VEHICLE));
    const lp = createLogisticsClient({ baseUrl: server.origin, fleetBaseUrl: `${server.origin}/gateway/fleet/v1/`, fleetApiKey: API_KEY });
    const { data } = await lp.fleet.GET('/vehicles/{vehicleNumber}', { params: { path: { vehicleNumber: 'V 1004/x' } } });
    expect(data?.vehicleNumber).toBe('V-1004');
    expect(server.requests[0]?.url).toBe('/gateway/fleet/v1/vehicles/V%201004%2Fx');
  });

  it('retries a GET on 503 honouring Retry-After, then succeeds', async () => {
    const { sleep, waits } = recordingSleep();
    const client = await fleet(
      (_request, response, index) =>
        index === 0 ? sendJson(response, 503, { message: 'busy' }, { 'retry-after': '2' }) : sendJson(response, 200, [VEHICLE]),
      { retry: { sleep } },
    );
    const { data } = await client.GET('/vehicles');
    expect(data).toEqual([VEHICLE]);
    expect(server!.requests).toHaveLength(2);
    expect(waits).toEqual([2000]);
  });

  it('waits for a real Retry-After of 1 second', async () => {
    const client = await fleet((_request, response, index) =>
      index === 0 ? sendJson(response, 429, { message: 'slow down' }, { 'retry-after': '1' }) : sendJson(response, 200, [VEHICLE]),
    );
    const started = performance.now();
    await client.GET('/vehicles');
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(server!.requests).toHaveLength(2);
  });

  it('backs off exponentially with jitter, capped, for 429, 502, 503 and 504, and gives up after the configured attempts', async () => {
    const statuses = [429, 502, 503, 504, 503];
    const { sleep, waits } = recordingSleep();
    const client = await fleet((_request, response, index) => sendJson(response, statuses[index] ?? 500, {}), {
      retry: { attempts: 5, baseDelayMs: 100, maxDelayMs: 300, random: () => 0.999, sleep },
    });
    const error = await client.GET('/vehicles').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(503);
    expect(server!.requests).toHaveLength(5);
    expect(waits).toEqual([99, 199, 299, 299]);
  });

  it('does not wait for a Retry-After longer than maxRetryAfterMs', async () => {
    const { sleep, waits } = recordingSleep();
    const client = await fleet((_request, response) => sendJson(response, 429, {}, { 'retry-after': '3600' }), { retry: { sleep } });
    const error = await client.GET('/vehicles').catch((e: unknown) => e);
    expect((error as ApiError).status).toBe(429);
    expect(server!.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('does not retry other errors such as 404', async () => {
    const client = await fleet((_request, response) => sendJson(response, 404, { message: 'no such vehicle' }));
    const error = await client.GET('/vehicles/{vehicleNumber}', { params: { path: { vehicleNumber: 'V-0' } } }).catch((e: unknown) => e);
    expect((error as ApiError).status).toBe(404);
    expect((error as ApiError).operation).toBe('GET /vehicles/{vehicleNumber}');
    expect(server!.requests).toHaveLength(1);
  });

  it('retries a GET after a network error', async () => {
    const { sleep } = recordingSleep();
    const client = await fleet(
      (_request, response, index) => (index === 0 ? dropConnection(response) : sendJson(response, 200, [VEHICLE])),
      { retry: { sleep } },
    );
    const { data } = await client.GET('/vehicles');
    expect(data).toEqual([VEHICLE]);
    expect(server!.requests).toHaveLength(2);
  });

  it('times out a slow response, retries it, and reports a timeout when every attempt is slow', async () => {
    // The server never answers. Fake timers: each attempt's 100 ms pass once the server has its request, so that a busy
    // machine cannot time an attempt out before it went out (vitest's own timeout stays real).
    const { sleep } = recordingSleep();
    const client = await fleet(() => undefined, { timeoutMs: 100, retry: { attempts: 2, sleep } });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldClearNativeTimers: true });
    try {
      const call = client.GET('/vehicles').catch((e: unknown) => e);
      for (const sent of [1, 2]) {
        await server!.received(sent);
        vi.advanceTimersByTime(100);
      }
      const error = await call;
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).kind).toBe('timeout');
      expect((error as ApiError).message).toMatch(/GET \/vehicles timed out/);
      expect(server!.requests).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("honours the caller's own signal: aborts at once and does not retry", async () => {
    // The server never answers: the call ends only by the abort, which comes once the server has the request.
    const client = await fleet(() => undefined, { retry: { attempts: 3 } });
    const controller = new AbortController();
    const call = client.GET('/vehicles', { signal: controller.signal }).catch((e: unknown) => e);
    await server!.received(1);
    controller.abort();
    expect(((await call) as Error).name).toBe('AbortError');
    expect(server!.requests).toHaveLength(1);
  });

  it('backs off instead of trusting a Retry-After that is neither whole seconds nor an HTTP-date', async () => {
    const hints = ['1.5', '-1', '2024-01-01'];
    const { sleep, waits } = recordingSleep();
    const client = await fleet((_request, response, index) => sendJson(response, 503, {}, { 'retry-after': hints[index] ?? '0' }), {
      retry: { attempts: 4, baseDelayMs: 100, random: () => 0.5, sleep },
    });
    const error = await client.GET('/vehicles').catch((e: unknown) => e);
    expect((error as ApiError).status).toBe(503);
    expect(waits).toEqual([50, 100, 200]);
  });

  it('honours a Retry-After given as an HTTP-date', async () => {
    const { sleep, waits } = recordingSleep();
    const client = await fleet(
      (_request, response, index) =>
        index === 0
          ? sendJson(response, 503, {}, { 'retry-after': new Date(Date.now() + 3000).toUTCString() })
          : sendJson(response, 200, [VEHICLE]),
      { retry: { sleep } },
    );
    await client.GET('/vehicles');
    expect(waits).toHaveLength(1);
    // The date has whole seconds, so the wait is between 2 and 3 seconds.
    expect(waits[0]).toBeGreaterThan(1500);
    expect(waits[0]).toBeLessThanOrEqual(3000);
  });

  it('reports a body that stalls past the timeout as an ApiError timeout', async () => {
    const client = await fleet(
      (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('[{"vehicleNumber":');
      },
      { timeoutMs: 150 },
    );
    const error = await client.GET('/vehicles/{vehicleNumber}', { params: { path: { vehicleNumber: 'V-1' } } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('timeout');
    expect((error as ApiError).message).toBe(
      `GET /vehicles/{vehicleNumber} timed out [${server!.origin}/gateway/fleet/v1/vehicles/V-1]. ` +
        'No answer within 150 ms (the option "timeoutMs", per attempt): raise it if the server is slow, or check that "baseUrl" names the right host.',
    );
  });

  it('reports a connection dropped in the middle of the body as an ApiError network error', async () => {
    const client = await fleet((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      // Dropped once the start of the body is on its way, not after a pause that may end before it is.
      response.write('[{"vehicleNumber":', () => response.socket?.destroy());
    });
    const error = await client.GET('/vehicles').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('network');
    expect((error as ApiError).operation).toBe('GET /vehicles');
  });

  it("surfaces the caller's own abort reason unchanged, whatever it is", async () => {
    // The server never answers: each call ends by its abort, which comes once the server has its request.
    const client = await fleet(() => undefined);
    const reasons = [new Error('user navigated away'), 'a string reason'];
    for (const [index, reason] of reasons.entries()) {
      const controller = new AbortController();
      const call = client.GET('/vehicles', { signal: controller.signal }).catch((e: unknown) => e);
      await server!.received(index + 1);
      controller.abort(reason);
      expect(await call).toBe(reason);
    }
    expect(server!.requests).toHaveLength(2);
  });

  it('applies the timeout to a fetch given for one call too', async () => {
    // The server never answers: only the timeout ends the call.
    const client = await fleet(() => undefined, { timeoutMs: 100, retry: { attempts: 1 } });
    const seen: string[] = [];
    const recordingFetch = (input: Request | string, init?: RequestInit) => {
      seen.push(typeof input === 'string' ? input : input.url);
      return globalThis.fetch(input, init);
    };
    const error = await client.GET('/vehicles', { fetch: recordingFetch }).catch((e: unknown) => e);
    expect((error as ApiError).kind).toBe('timeout');
    expect(seen).toEqual([`${server!.origin}/gateway/fleet/v1/vehicles`]);
  });

  it('rejects a missing key naming the option', () => {
    expect(() => createFleetClient({ baseUrl: 'http://127.0.0.1:9', fleetApiKey: '' })).toThrow(
      /createFleetClient: option "fleetApiKey" is required/,
    );
    const lp = createLogisticsClient({ baseUrl: 'http://127.0.0.1:9' });
    expect(() => lp.fleet.GET('/vehicles')).toThrow(/createLogisticsClient: option "fleetBaseUrl" is required/);
  });
});
