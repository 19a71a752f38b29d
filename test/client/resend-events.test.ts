// The transport option onResend as a caller meets it: one event per re-send, with its reason (a retry after a status or
// a network error, the replay after a 401 with a renewed token, the re-send on a new connection), the attempt and the
// status that caused it; told right before the re-send reaches the caller's fetch, with nothing in between; none for a
// call sent once or not sent again; never a credential; and a listener that throws or rejects changes nothing.
// Real loopback servers; a recording fetch where the order of the requests is the point.
import { afterEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  createCarriersClient,
  createFleetClient,
  createLogisticsClient,
  type ResendEvent,
  type RetryOptions,
} from '../../src/index.ts';
import { dropConnection, sendJson, startLoopbackServer, VEHICLE, type Handler, type LoopbackServer } from './loopback-server.ts';
import { recordingSleep } from './recording-sleep.ts';

const API_KEY = 'fleet-api-key-DO-NOT-PRINT-9012';
const CLIENT_SECRET = 'client-secret-DO-NOT-PRINT-1234';
const SUBSCRIPTION_KEY = 'subscription-key-DO-NOT-PRINT-5678';
const EVENT = { load_id: 'L-1', milestone_type: 'PICKED_UP', event_time: '2024-05-01T12:00:00Z' };

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A fleet client of a loopback server answered by `handler`, its re-sends collected in `events`. */
async function fleet(handler: Handler, retry: RetryOptions = {}) {
  server = await startLoopbackServer(handler);
  const events: ResendEvent[] = [];
  const client = createFleetClient({
    baseUrl: server.origin,
    fleetApiKey: API_KEY,
    retry: { sleep: recordingSleep().sleep, ...retry },
    onResend: (event) => events.push(event),
  });
  return { client, events };
}

/** Answers `statuses` in turn (the last one from then on), a vehicle list for 200. */
const answering =
  (...statuses: number[]): Handler =>
  (_request, response, index) => {
    const status = statuses[Math.min(index, statuses.length - 1)]!;
    if (status === 200) return sendJson(response, 200, [VEHICLE]);
    sendJson(response, status, { message: 'busy' });
  };

/** Service with POST /token (token-1, token-2, ...) and a milestone endpoint that refuses token-1 with a 401. */
function refusingTheFirstToken(): Promise<LoopbackServer> {
  let issued = 0;
  return startLoopbackServer((request, response) => {
    if (request.url.endsWith('/token')) {
      issued += 1;
      return sendJson(response, 200, { access_token: `token-${issued}`, token_type: 'Bearer', expired_in: 3600 });
    }
    if (request.headers.authorization === 'Bearer token-1') return sendJson(response, 401, { message: 'token expired' });
    sendJson(response, 200, { message: 'recorded' });
  });
}

describe('onResend: one event per re-send, saying why', () => {
  it('a retry after a status: each re-send with its attempt and the status before it', async () => {
    const { client, events } = await fleet(answering(503, 429, 200));
    expect((await client.GET('/vehicles', { params: { query: { sort: 'vehicleNumber asc' } } })).data).toEqual([VEHICLE]);
    const url = `${server!.origin}/vehicles?sort=vehicleNumber%20asc`;
    expect(events).toEqual([
      { reason: 'retry', operation: 'GET /vehicles', method: 'GET', url, attempt: 2, status: 503 },
      { reason: 'retry', operation: 'GET /vehicles', method: 'GET', url, attempt: 3, status: 429 },
    ]);
    expect(server!.requests).toHaveLength(3);
  });

  it('a retry after a network error: status 0; the attempts match the error of a call that kept failing', async () => {
    const { client, events } = await fleet((_request, response) => dropConnection(response), { attempts: 3 });
    const error = await client.GET('/vehicles/{vehicleNumber}', { params: { path: { vehicleNumber: 'V-1' } } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).attempts).toBe(3);
    expect(events.map(({ reason, operation, attempt, status }) => ({ reason, operation, attempt, status }))).toEqual([
      { reason: 'retry', operation: 'GET /vehicles/{vehicleNumber}', attempt: 2, status: 0 },
      { reason: 'retry', operation: 'GET /vehicles/{vehicleNumber}', attempt: 3, status: 0 },
    ]);
    expect(events[0]!.url).toBe(`${server!.origin}/vehicles/V-1`);
  });

  it('the replay after a 401: renewed-credential, told after the new token came and right before the replay', async () => {
    server = await refusingTheFirstToken();
    const log: string[] = [];
    // A recording fetch: each request as the client hands it over.
    const fetch = (input: Request | string, init?: RequestInit) => {
      const url = new URL(typeof input === 'string' ? input : input.url);
      log.push(`fetch ${init?.method ?? (input as Request).method} ${url.pathname}`);
      return globalThis.fetch(input, init);
    };
    const events: ResendEvent[] = [];
    const carriers = createCarriersClient({
      baseUrl: server.origin,
      clientId: 'app',
      clientSecret: CLIENT_SECRET,
      subscriptionKey: SUBSCRIPTION_KEY,
      fetch,
      onResend: (event) => {
        events.push(event);
        log.push(`resend ${event.reason}`);
        // Anything that waits a turn comes after the re-send is handed to fetch.
        queueMicrotask(() => log.push('a microtask later'));
      },
    });
    expect((await carriers.POST('/v1/load-milestone-events', { body: EVENT })).data).toEqual({ message: 'recorded' });
    expect(log).toEqual([
      'fetch POST /token',
      'fetch POST /v1/load-milestone-events',
      'fetch POST /token',
      'resend renewed-credential',
      'fetch POST /v1/load-milestone-events',
      'a microtask later',
    ]);
    expect(events).toEqual([
      {
        reason: 'renewed-credential',
        operation: 'POST /v1/load-milestone-events',
        method: 'POST',
        url: `${server.origin}/v1/load-milestone-events`,
        attempt: 2,
        status: 401,
      },
    ]);
    // Headers and bodies stay out of it: no credential, in any form.
    const told = JSON.stringify(events);
    for (const credential of [CLIENT_SECRET, SUBSCRIPTION_KEY, 'token-1', 'token-2', 'Bearer']) expect(told).not.toContain(credential);
  });

  it('a re-send on a new connection, after a kept-alive one the server had closed: new-connection, status 0', async () => {
    // The server answers the first request of each connection and drops one that comes back for a second.
    const served = new WeakSet<object>();
    const { client, events } = await fleet(
      (_request, response) => {
        const socket = response.socket!;
        if (served.has(socket)) return dropConnection(response);
        served.add(socket);
        sendJson(response, 200, [VEHICLE]);
      },
      { attempts: 1 },
    );
    // A call goes out on a kept-alive connection once undici has taken it back, a turn or more after the answer.
    for (let call = 0; call < 100 && events.length === 0; call++) {
      expect((await client.GET('/vehicles')).data).toEqual([VEHICLE]);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(events).toEqual([
      { reason: 'new-connection', operation: 'GET /vehicles', method: 'GET', url: `${server!.origin}/vehicles`, attempt: 2, status: 0 },
    ]);
  });

  it("tells the client's own token requests too, with the operation they are", async () => {
    let tokenAnswers = 0;
    server = await startLoopbackServer((request, response) => {
      if (request.url.endsWith('/token')) {
        tokenAnswers += 1;
        if (tokenAnswers === 1) return sendJson(response, 503, { message: 'busy' });
        return sendJson(response, 200, { access_token: 'token-1', token_type: 'Bearer', expired_in: 3600 });
      }
      sendJson(response, 200, { message: 'recorded' });
    });
    const events: ResendEvent[] = [];
    const lp = createLogisticsClient({
      baseUrl: server.origin,
      clientId: 'app',
      clientSecret: CLIENT_SECRET,
      retry: { sleep: recordingSleep().sleep },
      onResend: (event) => events.push(event),
    });
    await lp.carriers.POST('/v1/load-milestone-events', { body: EVENT });
    expect(events).toEqual([
      { reason: 'retry', operation: 'POST /token', method: 'POST', url: `${server.origin}/token`, attempt: 2, status: 503 },
    ]);
  });
});

describe('onResend: no event for what is not sent again', () => {
  it('none for a call answered at once, or refused with a status that is not retried', async () => {
    const { client, events } = await fleet(answering(200, 404));
    await client.GET('/vehicles');
    await client.GET('/vehicles').catch(() => undefined);
    expect(server!.requests).toHaveLength(2);
    expect(events).toEqual([]);
  });

  it('none for a milestone POST answered 503: it is not retried', async () => {
    server = await startLoopbackServer((request, response) =>
      request.url.endsWith('/token')
        ? sendJson(response, 200, { access_token: 'token-1', token_type: 'Bearer', expired_in: 3600 })
        : sendJson(response, 503, { message: 'busy' }),
    );
    const events: ResendEvent[] = [];
    const carriers = createCarriersClient({
      baseUrl: server.origin,
      clientId: 'app',
      clientSecret: CLIENT_SECRET,
      onResend: (event) => events.push(event),
    });
    expect(await carriers.POST('/v1/load-milestone-events', { body: EVENT }).catch((e: unknown) => e)).toBeInstanceOf(ApiError);
    expect(events).toEqual([]);
  });
});

describe('onResend: a listener cannot change a call', () => {
  it('one that throws: the re-send goes ahead and the call succeeds', async () => {
    let told = 0;
    server = await startLoopbackServer(answering(503, 200));
    const client = createFleetClient({
      baseUrl: server.origin,
      fleetApiKey: API_KEY,
      retry: { sleep: recordingSleep().sleep },
      onResend: () => {
        told += 1;
        throw new Error('a broken logger');
      },
    });
    expect((await client.GET('/vehicles')).data).toEqual([VEHICLE]);
    expect(told).toBe(1);
    expect(server.requests).toHaveLength(2);
  });

  it('one whose promise rejects: the rejection is handled (never unhandled), and the call succeeds', async () => {
    // A promise that counts the rejection handlers attached to it.
    class Watched<T> extends Promise<T> {
      static handlers = 0;
      // biome-ignore lint/suspicious/noThenProperty: a promise that counts the rejection handlers attached to it, however attached
      override then<A = T, B = never>(
        onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
        onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
      ): Promise<A | B> {
        if (onRejected) Watched.handlers += 1;
        return super.then(onFulfilled, onRejected);
      }
    }
    server = await startLoopbackServer(answering(503, 200));
    const client = createFleetClient({
      baseUrl: server.origin,
      fleetApiKey: API_KEY,
      retry: { sleep: recordingSleep().sleep },
      onResend: () => Watched.reject(new Error('a logger that failed later')),
    });
    expect((await client.GET('/vehicles')).data).toEqual([VEHICLE]);
    expect(Watched.handlers).toBe(1);
  });

  it('one that is not a function is refused when the client is built, naming the option', () => {
    const options = { baseUrl: 'http://127.0.0.1:9', fleetApiKey: API_KEY, onResend: 'console.log' };
    expect(() => createFleetClient(options as never)).toThrow(
      new TypeError('createFleetClient: option "onResend" must be a function, got a value of type string'),
    );
    expect(() => createFleetClient({ ...options, onResend: undefined })).not.toThrow();
  });
});
