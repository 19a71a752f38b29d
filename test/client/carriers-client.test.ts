// Carriers client: bearer auth, one replay after 401, and no retry of the milestone POST unless the caller opts in.
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createCarriersClient, createLogisticsClient, createTokenProvider } from '../../src/index.ts';
import { dropConnection, sendJson, startLoopbackServer, type LoopbackServer, type RecordedRequest } from './loopback-server.ts';
import { recordingSleep } from './recording-sleep.ts';
import { PROJECT_TIMEOUTS } from '../../config/test-waits.ts';

const CLIENT_SECRET = 'client-secret-DO-NOT-PRINT-1234';
const SUBSCRIPTION_KEY = 'subscription-key-DO-NOT-PRINT-5678';
const EVENT = { load_id: 'L-1', milestone_type: 'PICKED_UP', event_time: '2024-05-01T12:00:00Z' };

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Service with POST /token (token-1, token-2, ...) and a milestone endpoint answered by `milestone`. */
async function service(
  milestone: (request: RecordedRequest, response: import('node:http').ServerResponse, call: number) => void,
): Promise<LoopbackServer> {
  let issued = 0;
  let milestoneCalls = 0;
  return startLoopbackServer((request, response) => {
    if (request.url.endsWith('/token')) {
      issued += 1;
      return sendJson(response, 200, { access_token: `token-${issued}`, token_type: 'Bearer', expired_in: 3600 });
    }
    milestoneCalls += 1;
    milestone(request, response, milestoneCalls);
  });
}

const milestoneRequests = (s: LoopbackServer) => s.requests.filter((r) => r.url.endsWith('/v1/load-milestone-events'));
const tokenRequests = (s: LoopbackServer) => s.requests.filter((r) => r.url.endsWith('/token'));

describe('createCarriersClient', () => {
  it('sends the milestone with a bearer token and the subscription key, under the base URL prefix', async () => {
    server = await service((_request, response) => sendJson(response, 200, { message: 'recorded' }));
    const carriers = createCarriersClient({
      baseUrl: `${server.origin}/gateway/carriers`,
      clientId: 'app',
      clientSecret: CLIENT_SECRET,
      subscriptionKey: SUBSCRIPTION_KEY,
    });
    const { data } = await carriers.POST('/v1/load-milestone-events', { body: EVENT });
    expect(data).toEqual({ message: 'recorded' });
    const [request] = milestoneRequests(server);
    expect(request?.url).toBe('/gateway/carriers/v1/load-milestone-events');
    expect(request?.headers.authorization).toBe('Bearer token-1');
    expect(request?.headers['ocp-apim-subscription-key']).toBe(SUBSCRIPTION_KEY);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request?.body ?? '')).toEqual(EVENT);
    expect(tokenRequests(server)[0]?.url).toBe('/gateway/carriers/token');
  });

  it('makes exactly one token request for 1,000 concurrent calls', async () => {
    server = await service((_request, response) => sendJson(response, 200, { message: 'recorded' }));
    // The last of a thousand calls waits for the others: on a busy machine that took 30 s, the default timeout. A timeout
    // past the test's own: only the test's timeout (testWaitMs) bounds the wait.
    const timeoutMs = 2 * PROJECT_TIMEOUTS.testTimeout;
    const lp = createLogisticsClient({ baseUrl: server.origin, clientId: 'app', clientSecret: CLIENT_SECRET, timeoutMs });
    const results = await Promise.all(Array.from({ length: 1000 }, () => lp.carriers.POST('/v1/load-milestone-events', { body: EVENT })));
    expect(results.every((r) => r.data?.message === 'recorded')).toBe(true);
    expect(tokenRequests(server)).toHaveLength(1);
    expect(milestoneRequests(server)).toHaveLength(1000);
  });

  it('after a 401, renews the token and replays the same request once', async () => {
    server = await service((request, response) => {
      if (request.headers.authorization === 'Bearer token-1') sendJson(response, 401, { message: 'token expired' });
      else sendJson(response, 200, { message: 'recorded' });
    });
    const carriers = createCarriersClient({ baseUrl: server.origin, clientId: 'app', clientSecret: CLIENT_SECRET });
    const { data } = await carriers.POST('/v1/load-milestone-events', { body: EVENT });
    expect(data).toEqual({ message: 'recorded' });
    const sent = milestoneRequests(server);
    expect(sent.map((r) => r.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
    expect(sent.map((r) => JSON.parse(r.body))).toEqual([EVENT, EVENT]);
    expect(tokenRequests(server)).toHaveLength(2);
  });

  it('renews once for a burst of 20 concurrent calls that all carry the rejected token', async () => {
    // Every call carrying token-1 gets a 401: the first ten at once (the renewal starts), the others only once a call
    // with token-2 arrived. Those late ones come after token-2 is cached, whatever the machine's speed, and must not
    // discard it.
    const late: Array<() => void> = [];
    let rejected = 0;
    let renewed = false;
    server = await service((request, response) => {
      if (request.headers.authorization !== 'Bearer token-1') {
        renewed = true;
        for (const refuse of late.splice(0)) refuse();
        return sendJson(response, 200, { message: 'recorded' });
      }
      rejected += 1;
      const refuse = () => sendJson(response, 401, { message: 'token revoked' });
      if (renewed || rejected <= 10) refuse();
      else late.push(refuse);
    });
    const tokenProvider = createTokenProvider({ baseUrl: server.origin, clientId: 'app', clientSecret: CLIENT_SECRET });
    expect(await tokenProvider.getToken()).toBe('token-1');
    const carriers = createCarriersClient({ baseUrl: server.origin, tokenProvider });
    const results = await Promise.all(Array.from({ length: 20 }, () => carriers.POST('/v1/load-milestone-events', { body: EVENT })));
    expect(results.every((r) => r.data?.message === 'recorded')).toBe(true);
    const sent = milestoneRequests(server).map((r) => r.headers.authorization);
    expect(sent.filter((h) => h === 'Bearer token-1')).toHaveLength(20);
    expect(sent.filter((h) => h === 'Bearer token-2')).toHaveLength(20);
    expect(tokenRequests(server)).toHaveLength(2);
  });

  it("a caller's abort ends the wait for a slow token at once; the token request goes on for the others", async () => {
    // The token is issued only when the test says so: the abort comes while the token request is out, and the aborted
    // call ends before there is a token.
    let issue = () => {};
    server = await startLoopbackServer((request, response) => {
      if (!request.url.endsWith('/token')) return sendJson(response, 200, { message: 'recorded' });
      issue = () => sendJson(response, 200, { access_token: 'token-1', token_type: 'Bearer', expired_in: 3600 });
    });
    const carriers = createCarriersClient({ baseUrl: server.origin, clientId: 'app', clientSecret: CLIENT_SECRET });
    const controller = new AbortController();
    const reason = new Error('user left the page');
    const patient = carriers.POST('/v1/load-milestone-events', { body: EVENT });
    const aborted = carriers.POST('/v1/load-milestone-events', { body: EVENT, signal: controller.signal }).catch((e: unknown) => e);
    await server.received(1);
    controller.abort(reason);
    expect(await aborted).toBe(reason);
    issue();
    expect((await patient).data).toEqual({ message: 'recorded' });
    expect(tokenRequests(server)).toHaveLength(1);
    expect(milestoneRequests(server)).toHaveLength(1);
  });

  it("leaves no listener on the caller's signal once it had to wait for a token, issued or refused", async () => {
    let refuse = false;
    server = await startLoopbackServer((request, response) => {
      if (!request.url.endsWith('/token')) return sendJson(response, 200, { message: 'recorded' });
      if (refuse) return sendJson(response, 503, { message: 'busy' });
      sendJson(response, 200, { access_token: 'token-1', token_type: 'Bearer', expired_in: 3600 });
    });
    for (const refused of [false, true]) {
      refuse = refused;
      const carriers = createCarriersClient({
        baseUrl: server.origin,
        clientId: 'app',
        clientSecret: CLIENT_SECRET,
        retry: { attempts: 1 },
      });
      const { signal } = new AbortController();
      const outcome = await carriers.POST('/v1/load-milestone-events', { body: EVENT, signal }).catch((e: unknown) => e);
      expect(outcome instanceof ApiError ? outcome.status : 'recorded', String(refused)).toBe(refused ? 503 : 'recorded');
      expect(getEventListeners(signal, 'abort'), String(refused)).toHaveLength(0);
    }
  });

  it("sends no body when a caller's body serializer gives null, and leaves no listener on the caller's signal", async () => {
    server = await service((_request, response) => sendJson(response, 200, { message: 'recorded' }));
    const carriers = createCarriersClient({ baseUrl: server.origin, clientId: 'app', clientSecret: CLIENT_SECRET });
    const { signal } = new AbortController();
    const { data } = await carriers.POST('/v1/load-milestone-events', { body: EVENT, bodySerializer: () => null, signal });
    expect(data).toEqual({ message: 'recorded' });
    expect(milestoneRequests(server)[0]?.body).toBe('');
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it("a caller's abort during the wait for a token leaves no listener; a signal aborted before the call waits for nothing", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    server = await startLoopbackServer(async (request, response) => {
      if (!request.url.endsWith('/token')) return sendJson(response, 200, { message: 'recorded' });
      await held;
      sendJson(response, 200, { access_token: 'token-1', token_type: 'Bearer', expired_in: 3600 });
    });
    const carriers = createCarriersClient({ baseUrl: server.origin, clientId: 'app', clientSecret: CLIENT_SECRET });
    const before = new AbortController();
    before.abort(new Error('gone already'));
    expect(await carriers.POST('/v1/load-milestone-events', { body: EVENT, signal: before.signal }).catch((e: unknown) => e)).toBe(
      before.signal.reason,
    );
    const during = new AbortController();
    const call = carriers.POST('/v1/load-milestone-events', { body: EVENT, signal: during.signal }).catch((e: unknown) => e);
    await server.received(1); // the token request
    during.abort(new Error('gone now'));
    expect(await call).toBe(during.signal.reason);
    expect(getEventListeners(during.signal, 'abort')).toHaveLength(0);
    release();
  });

  it("renews the token after a 401 even when a caller's middleware replaced the Authorization header", async () => {
    server = await service((request, response) =>
      request.headers.authorization?.startsWith('Basic ') && tokenRequests(server!).length < 2
        ? sendJson(response, 401, { message: 'no' })
        : sendJson(response, 200, { message: 'recorded' }),
    );
    const carriers = createCarriersClient({ baseUrl: server.origin, clientId: 'app', clientSecret: CLIENT_SECRET });
    let calls = 0;
    carriers.use({
      onRequest({ request }) {
        calls += 1;
        if (calls === 1) request.headers.set('Authorization', `Basic ${btoa('someone:something-else')}`);
        return undefined;
      },
    });
    expect((await carriers.POST('/v1/load-milestone-events', { body: EVENT })).data).toEqual({ message: 'recorded' });
    expect(tokenRequests(server)).toHaveLength(2);
  });

  it('sends no subscription key header when none is configured', async () => {
    server = await service((_request, response) => sendJson(response, 200, { message: 'recorded' }));
    const carriers = createCarriersClient({ baseUrl: server.origin, clientId: 'app', clientSecret: CLIENT_SECRET });
    await carriers.POST('/v1/load-milestone-events', { body: EVENT });
    expect(milestoneRequests(server).map((request) => request.headers['ocp-apim-subscription-key'])).toEqual([undefined]);
  });

  it("takes a token provider of the caller's own, which has only the TokenProvider methods", async () => {
    server = await service((request, response) => sendJson(response, 200, { message: `seen ${request.headers.authorization}` }));
    const own = {
      getToken: async () => 'own-token-1',
      getTokenInfo: async () => ({ accessToken: 'own-token-1', tokenType: 'Bearer', expiresInSeconds: 3600, refreshAt: 0, expiresAt: 0 }),
      invalidate: () => undefined,
    };
    const carriers = createCarriersClient({ baseUrl: server.origin, tokenProvider: own });
    expect((await carriers.POST('/v1/load-milestone-events', { body: EVENT })).data).toEqual({ message: 'seen Bearer own-token-1' });
    expect(tokenRequests(server)).toHaveLength(0);
  });

  it('surfaces a second 401 as ApiError without a third attempt', async () => {
    server = await service((_request, response) =>
      sendJson(response, 401, { code: 'unauthorized', message: 'no' }, { 'x-request-id': 'req-42' }),
    );
    const carriers = createCarriersClient({ baseUrl: server.origin, clientId: 'app', clientSecret: CLIENT_SECRET });
    const error = await carriers.POST('/v1/load-milestone-events', { body: EVENT }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect((error as ApiError).operation).toBe('POST /v1/load-milestone-events');
    expect((error as ApiError).requestIds).toEqual({ 'x-request-id': 'req-42' });
    expect((error as ApiError).body).toEqual({ code: 'unauthorized', message: 'no' });
    expect(milestoneRequests(server)).toHaveLength(2);
  });

  it('does not retry the milestone POST after a network error', async () => {
    server = await service((_request, response) => dropConnection(response));
    const { sleep, waits } = recordingSleep();
    const carriers = createCarriersClient({
      baseUrl: server.origin,
      clientId: 'app',
      clientSecret: CLIENT_SECRET,
      retry: { attempts: 5, sleep },
    });
    const error = await carriers.POST('/v1/load-milestone-events', { body: EVENT }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('network');
    expect(milestoneRequests(server)).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('does not retry the milestone POST after a timeout or a 503', async () => {
    // The first milestone is never answered; the second gets a 503.
    server = await service((_request, response, call) => {
      if (call > 1) sendJson(response, 503, { message: 'busy' });
    });
    // The token comes first, under a timeout of its own: only the milestone's attempt runs under the 100 ms.
    const tokenProvider = createTokenProvider({ baseUrl: server.origin, clientId: 'app', clientSecret: CLIENT_SECRET });
    await tokenProvider.getToken();
    const { sleep } = recordingSleep();
    const carriers = createCarriersClient({ baseUrl: server.origin, tokenProvider, timeoutMs: 100, retry: { attempts: 5, sleep } });
    // Fake timers: the 100 ms pass once the server has the milestone, so that a busy machine cannot time it out before
    // it went out (vitest's own timeout stays real).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldClearNativeTimers: true });
    try {
      const call = carriers.POST('/v1/load-milestone-events', { body: EVENT }).catch((e: unknown) => e);
      await server.received(2);
      vi.advanceTimersByTime(100);
      expect(((await call) as ApiError).kind).toBe('timeout');
    } finally {
      vi.useRealTimers();
    }
    const busy = await carriers.POST('/v1/load-milestone-events', { body: EVENT }).catch((e: unknown) => e);
    expect((busy as ApiError).status).toBe(503);
    expect(milestoneRequests(server)).toHaveLength(2);
  });

  it('retries the milestone POST after a network error when the caller opts in', async () => {
    server = await service((_request, response, call) =>
      call === 1 ? dropConnection(response) : sendJson(response, 200, { message: 'recorded' }),
    );
    const { sleep, waits } = recordingSleep();
    const carriers = createCarriersClient({
      baseUrl: server.origin,
      clientId: 'app',
      clientSecret: CLIENT_SECRET,
      retry: { retryNonIdempotent: true, sleep, random: () => 0.5, baseDelayMs: 100 },
    });
    const { data } = await carriers.POST('/v1/load-milestone-events', { body: EVENT });
    expect(data).toEqual({ message: 'recorded' });
    expect(milestoneRequests(server).map((r) => JSON.parse(r.body))).toEqual([EVENT, EVENT]);
    expect(waits).toEqual([50]);
  });

  // Without a middleware of the caller's, the client builds no Request of its own (fetch builds one); with one, the
  // middleware gets a real Request, body included, and replays still carry the body.
  it("gives a caller's middleware a real Request with its body, and still replays after a 401", async () => {
    server = await service((request, response) => {
      if (request.headers.authorization === 'Bearer token-1') sendJson(response, 401, { message: 'token expired' });
      else sendJson(response, 200, { message: 'recorded' });
    });
    const carriers = createCarriersClient({ baseUrl: server.origin, clientId: 'app', clientSecret: CLIENT_SECRET });
    const seen: Array<{ isRequest: boolean; body: string; authorization: string | null }> = [];
    carriers.use({
      async onRequest({ request }) {
        seen.push({ isRequest: request instanceof Request, body: await request.clone().text(), authorization: null });
        return undefined;
      },
      onResponse({ request }) {
        seen.at(-1)!.authorization = request.headers.get('authorization');
        return undefined;
      },
    });
    const { data } = await carriers.POST('/v1/load-milestone-events', { body: EVENT });
    expect(data).toEqual({ message: 'recorded' });
    // The middleware saw the call as sent first; the replay with the renewed token is the client's own.
    expect(seen).toEqual([{ isRequest: true, body: JSON.stringify(EVENT), authorization: 'Bearer token-1' }]);
    const sent = milestoneRequests(server);
    expect(sent.map((r) => r.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
    expect(sent.map((r) => JSON.parse(r.body))).toEqual([EVENT, EVENT]);
  });

  it("gives a call's own middleware a real Request, and the calls after it none", async () => {
    server = await service((_request, response) => sendJson(response, 200, { message: 'recorded' }));
    const carriers = createCarriersClient({ baseUrl: server.origin, clientId: 'app', clientSecret: CLIENT_SECRET });
    const bodies: string[] = [];
    const middleware = {
      async onRequest({ request }: { request: Request }) {
        bodies.push(request instanceof Request ? await request.clone().text() : 'not a Request');
        return undefined;
      },
    };
    await carriers.POST('/v1/load-milestone-events', { body: EVENT, middleware: [middleware] });
    await carriers.POST('/v1/load-milestone-events', { body: { ...EVENT, load_id: 'L-2' } });
    expect(bodies).toEqual([JSON.stringify(EVENT)]);
    expect(milestoneRequests(server).map((r) => JSON.parse(r.body).load_id)).toEqual(['L-1', 'L-2']);
  });
});
