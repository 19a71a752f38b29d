// The suite's transport against a loopback server that misbehaves the way gateways and far environments do: each
// transient answer is waited out or retried (never handed on as the target's behaviour), a write is sent again only
// when the answer proves it was not processed (or once, on a new connection, when its kept-alive connection had been
// closed before any byte of the answer), TLS failures are tried once and named with their fix, proxies are the route
// they are configured to be, and what cannot be judged ends in CouldNotJudge. Plain node:http and node:https, a forward
// proxy and certificates of a CA made for the run, no target: these run the same on every target.
import { readdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestSpecification } from 'vitest/node';
import { POLL, testWaitMs } from '../../config/test-waits.ts';
import { repoRoot } from '../../spec-core/apis.ts';
import { proxySettings } from '../../src/connections.ts';
import { type ForwardProxy, startForwardProxy } from '../fixtures/forward-proxy.ts';
import { HEAVIEST_FIRST, HeaviestFirst, weightRank } from '../support/heaviest-first.ts';
import { makeTestCertificates, type TestCertificates } from '../fixtures/test-certificates.ts';
import { offerFlightPool, withdrawFlightPool } from '../send/flight-pool.ts';
import { OriginPace } from '../send/origin-pace.ts';
import { PaceBoard } from '../send/pace-board.ts';
import { projectConfig } from '../support/project-config.ts';
import {
  CouldNotJudge,
  couldNotJudgeOf,
  DEFAULT_TRANSPORT,
  Gate,
  INITIAL_IN_FLIGHT,
  isReplayable,
  type NetworkOptions,
  paceOf,
  retryAfterMs,
  Transport,
  workersFor,
} from '../send/transport.ts';

type Handler = (request: IncomingMessage, response: ServerResponse, hit: number) => void;

let server: Server;
let origin = '';
let handler: Handler = (_, response) => response.end('ok');
const hits = new Map<string, number>();
let inFlight = 0;
let mostInFlight = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    const key = `${request.method} ${request.url}`;
    const hit = (hits.get(key) ?? 0) + 1;
    hits.set(key, hit);
    inFlight++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    response.on('close', () => inFlight--);
    handler(request, response, hit);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

// Fast settings: one worker, no backoff (no jitter: random() = 0), a configured rate far above what the tests send, so
// no rate is learned from their 429s (that is tested on the origin's pace alone), and a board of the origins' pace of
// its own. Each attempt may take a loaded machine's time: only the test of a timeout sets a short one.
const quick = (over: Partial<typeof DEFAULT_TRANSPORT> = {}, network: NetworkOptions = {}, fetchImpl: typeof fetch = fetch) =>
  new Transport({ ...DEFAULT_TRANSPORT, workers: 1, timeoutMs: testWaitMs(5_000), rateLimit: 10_000, ...over }, fetchImpl, () => 0, {
    board: new PaceBoard(),
    ...network,
  });
const get = (path: string) => new Request(`${origin}${path}`);
const milestone = (path: string) =>
  new Request(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"load_id":"L"}' });
const tokenRequest = (path: string) =>
  new Request(`${origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&client_id=c&client_secret=s',
  });
const answer =
  (status: number, headers: Record<string, string> = {}) =>
  (response: ServerResponse) => {
    response.writeHead(status, headers);
    response.end(String(status));
  };

describe('the transport waits out throttling and transient faults', () => {
  it('sends a throttled request again after Retry-After and hands on only the real answer', async () => {
    handler = (_, response, hit) => (hit < 3 ? answer(429, { 'retry-after': '0' }) : answer(200))(response);
    const transport = quick();
    const { response, stats } = await transport.send(get('/throttled'));
    expect(response.status).toBe(200);
    expect([stats.attempts, stats.throttled, stats.retried]).toEqual([3, 2, 2]);
  });

  it('retries an idempotent read after a dropped connection, a 502, a 503 and a 504, then judges the answer', async () => {
    handler = (request, response, hit) => {
      if (hit === 1) return request.socket.destroy();
      if (hit <= 4) return answer([502, 503, 504][hit - 2]!)(response);
      answer(200)(response);
    };
    const { response, stats } = await quick().send(get('/flaky'));
    expect(response.status).toBe(200);
    expect([stats.dropped, stats.retried, stats.attempts]).toEqual([1, 4, 5]);
  });

  it('hands on a 5xx that persists after the tries: the target said it, so it is judged (a violation)', async () => {
    handler = (_, response) => answer(502)(response);
    const { response, stats } = await quick({ tries: 3 }).send(get('/down'));
    expect(response.status).toBe(502);
    expect(stats.attempts).toBe(3);
  });

  it('ends a request that stays throttled as could not judge, never as an answer', async () => {
    handler = (_, response) => answer(429, { 'retry-after': '0' })(response);
    const failure = await quick({ tries: 2 })
      .send(get('/always-429'))
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(CouldNotJudge);
    expect((failure as CouldNotJudge).kind).toBe('throttled');
    expect((failure as CouldNotJudge).stats?.throttled).toBe(2);
  });

  it('does not wait out a Retry-After longer than --max-wait', async () => {
    handler = (_, response) => answer(429, { 'retry-after': '3600' })(response);
    // Waited out, the hour would outlast the test's timeout: the failure's words are the proof it was not.
    const failure = await quick({ maxWaitMs: 1000 })
      .send(get('/long-wait'))
      .catch((e: unknown) => e);
    expect((failure as CouldNotJudge).message).toMatch(/Retry-After 3600 s, longer than the suite waits/);
  });

  it('retries a client-credentials token request after a dropped connection', async () => {
    handler = (request, response, hit) => (hit === 1 ? request.socket.destroy() : answer(200)(response));
    const { response } = await quick().send(tokenRequest('/svc/token?drop'));
    expect(response.status).toBe(200);
  });

  it('times out each attempt and ends as could not judge after the tries', async () => {
    handler = () => {};
    const failure = await quick({ tries: 2, timeoutMs: 100 })
      .send(get('/hang'))
      .catch((e: unknown) => e);
    expect((failure as CouldNotJudge).kind).toBe('timeout');
    expect((failure as CouldNotJudge).stats?.timedOut).toBe(2);
  });

  it('ends an unreachable target as could not judge, naming the cause', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const failure = await quick({ tries: 2 })
      .send(new Request(`http://127.0.0.1:${port}/x`))
      .catch((e: unknown) => e);
    expect((failure as CouldNotJudge).kind).toBe('unreachable');
    expect((failure as CouldNotJudge).message).toMatch(/ECONNREFUSED/);
  });
});

describe('a write is sent again only when the answer proves it was not processed', () => {
  it('sends the milestone again after a 429 and after a 503 with Retry-After', async () => {
    handler = (_, response, hit) =>
      (hit === 1 ? answer(429, { 'retry-after': '0' }) : hit === 2 ? answer(503, { 'retry-after': '0' }) : answer(200))(response);
    const { response, stats } = await quick().send(milestone('/v1/load-milestone-events?a'));
    expect(response.status).toBe(200);
    expect(stats.attempts).toBe(3);
  });

  it('never sends the milestone twice after a dropped connection: its outcome is unknown', async () => {
    handler = (request) => request.socket.destroy();
    const failure = await quick()
      .send(milestone('/v1/load-milestone-events?b'))
      .catch((e: unknown) => e);
    expect((failure as CouldNotJudge).kind).toBe('outcome-unknown');
    expect(hits.get('POST /v1/load-milestone-events?b')).toBe(1);
  });

  it('hands on a 503 without Retry-After to a write at once (judged), without sending it again', async () => {
    handler = (_, response) => answer(503)(response);
    const { response } = await quick().send(milestone('/v1/load-milestone-events?c'));
    expect(response.status).toBe(503);
    expect(hits.get('POST /v1/load-milestone-events?c')).toBe(1);
  });
});

describe('the transport stays within its bounds', () => {
  it('keeps at most --concurrency requests in flight', async () => {
    // Counted where they go out (a fetch that notes the requests it was handed and has not answered yet), and where
    // they arrive: the server holds the first answers until 3 requests are in flight together (or as many as the gate
    // allows now, should its adaptive limit have shrunk: then the test fails, it does not hang), and answers the later
    // ones at once.
    let sending = 0;
    let mostSending = 0;
    const counting: typeof fetch = async (input, init) => {
      mostSending = Math.max(mostSending, ++sending);
      try {
        return await fetch(input, init);
      } finally {
        sending--;
      }
    };
    const transport = quick({ concurrency: 3 }, {}, counting);
    let held: ServerResponse[] | undefined = [];
    handler = (_, response) => {
      if (!held) return answer(200)(response);
      held.push(response);
      if (held.length < Math.min(3, transport.gate.concurrency)) return;
      for (const each of held) answer(200)(each);
      held = undefined;
    };
    mostInFlight = 0;
    await Promise.all(Array.from({ length: 12 }, (_, i) => transport.send(get(`/bounded?${i}`))));
    expect({ sent: mostSending, arrived: mostInFlight }).toEqual({ sent: 3, arrived: 3 });
  });

  it("shares --concurrency among the workers without rounding past it: each worker's gate gets its part, rounded down", () => {
    // Without a pool of the ceiling, as when vitest is started directly (a run's own pool: self/flight-pool.test.ts).
    withdrawFlightPool();
    const ceilingOf = (concurrency: number, workers: number) => new Transport({ ...DEFAULT_TRANSPORT, concurrency, workers }).gate.ceiling;
    expect(ceilingOf(128, 3)).toBe(42);
    expect(ceilingOf(128, 4)).toBe(32);
    expect(ceilingOf(2, 4)).toBe(1);
  });

  it('sends no faster than --rate-limit', async () => {
    handler = (_, response) => answer(200)(response);
    const transport = quick({ rateLimit: 50 });
    const started = performance.now();
    await Promise.all(Array.from({ length: 11 }, (_, i) => transport.send(get(`/rate?${i}`))));
    // 11 requests at 50 a second: the last may go 200 ms after the first.
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });

  it("learns a rate from the 429s an origin meets, and pauses that origin's requests for the Retry-After", async () => {
    let now = 1_000_000_500;
    const board = new PaceBoard();
    const shared = new OriginPace(() => board, { clock: () => now });
    for (let i = 0; i < 30; i++) shared.observe('https://idp.example', i + 1, {}, true);
    expect(shared.rate('https://idp.example')).toBeUndefined();
    shared.throttle('https://idp.example', 1000);
    expect(shared.rate('https://idp.example')).toBe(24);
    // The other answers of the same burst are part of the same episode: one cut, not one per answer.
    shared.throttle('https://idp.example', 1000);
    expect(shared.rate('https://idp.example')).toBe(24);
    // Another origin goes on at once; the throttled one waits out the pause.
    expect((await shared.acquire('https://fleet.example')).waitedMs).toBe(0);
    now += 1000;
    expect((await shared.acquire('https://idp.example')).waitedMs).toBe(0);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    // The date against a clock of the test's: how far ahead it is does not depend on when the line runs.
    const now = Date.parse('Tue, 01 Jan 2030 00:00:00 GMT');
    expect(retryAfterMs(new Date(now + 5000).toUTCString(), now)).toBe(5000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });

  it('finds its CouldNotJudge inside the published client error that wrapped it', () => {
    const wrapped = Object.assign(
      new Error('GET /vehicles failed: no response: CouldNotJudge: GET /x: the connection failed (ECONNREFUSED), 6 tries [http://h/x]'),
      {
        name: 'ApiError',
      },
    );
    const found = couldNotJudgeOf(wrapped);
    expect(found?.kind).toBe('unreachable');
    expect(found?.message).toBe('GET /x: the connection failed (ECONNREFUSED), 6 tries');
    expect(couldNotJudgeOf(new Error('GET /vehicles failed with status 401'))).toBeUndefined();
  });
});

describe('requests that record nothing are sent again after a connection failure', () => {
  const post = (path: string, body: string, type = 'application/x-www-form-urlencoded') =>
    new Request(`https://target.invalid${path}`, { method: 'POST', headers: { 'content-type': type }, body });

  it('every GET, the authorize redirect, and both token endpoints for any grant that spends nothing; never a milestone or a code', async () => {
    const replayable = async (request: Request) => isReplayable(request);
    expect(await replayable(new Request('https://target.invalid/idp/oauth2/default/v1/authorize?state=s'))).toBe(true);
    expect(await replayable(new Request('https://target.invalid/fleet/vehicles'))).toBe(true);
    expect(await replayable(post('/svc/token', 'grant_type=client_credentials&client_secret=wrong'))).toBe(true);
    expect(await replayable(post('/idp/oauth2/default/v1/token', 'grant_type=password'))).toBe(true);
    expect(await replayable(post('/svc/token', 'client_id=c'))).toBe(true);
    expect(await replayable(post('/svc/token', '{"grant_type":"client_credentials"}', 'application/json'))).toBe(true);
    // A code is single-use and a refresh token may rotate: their exchange spends something.
    expect(await replayable(post('/idp/oauth2/default/v1/token', 'grant_type=authorization_code&code=c'))).toBe(false);
    expect(await replayable(post('/idp/oauth2/default/v1/token', 'grant_type=refresh_token&refresh_token=r'))).toBe(false);
    expect(await replayable(post('/svc/token', '{"code":"c"}', 'application/json'))).toBe(false);
    expect(await replayable(post('/svc/token', ' \r\n\t{"grant_type":"refresh_token"}', 'application/json'))).toBe(false);
    expect(await replayable(post('/svc/v1/load-milestone-events', '{"load_id":"L"}', 'application/json'))).toBe(false);
    expect(await replayable(post('/svc/v1/load-milestone-events', 'grant_type=client_credentials'))).toBe(false);
  });
});

describe("a kept-alive connection the server closed is not the target's answer", () => {
  /** The requests each connection carried, in order; a request on a connection that carried one before can be refused. */
  let served: WeakMap<Socket, number>;
  let connections: number;
  let idle: Server;
  let idleOrigin = '';
  /** What the server does with a request that is not the first on its connection. */
  let onReused: (request: IncomingMessage, response: ServerResponse) => void;

  beforeAll(async () => {
    idle = createServer((request, response) => {
      const n = (served.get(request.socket) ?? 0) + 1;
      served.set(request.socket, n);
      hits.set(`idle ${request.method} ${request.url}`, (hits.get(`idle ${request.method} ${request.url}`) ?? 0) + 1);
      if (request.url === '/close-always') return request.socket.destroy();
      if (n > 1) return onReused(request, response);
      answer(200)(response);
    });
    idle.on('connection', () => connections++);
    // No Keep-Alive header, as a gateway that closes idle connections without a word.
    idle.keepAliveTimeout = 0;
    await new Promise<void>((resolve) => idle.listen(0, '127.0.0.1', resolve));
    idleOrigin = `http://127.0.0.1:${(idle.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => idle.close(() => resolve())));
  const reset = () => {
    served = new WeakMap();
    connections = 0;
  };
  /**
   * A transport to the idle server, and a wait until every kept-alive connection it holds there is free (or closed):
   * undici frees one a turn of the event loop after its answer is complete, and a request sent at once would open
   * another. Its fetch notes the pools the transport hands it; undici's pool counts the connections, as in the client's
   * tests (test/client/pools.ts).
   */
  const watched = () => {
    type Pool = { stats: Record<string, { connected: number; free: number } | undefined> };
    const pools = new Set<Pool>();
    const noting: typeof fetch = (input, init) => {
      pools.add((init as RequestInit & { dispatcher: Pool }).dispatcher);
      return fetch(input, init);
    };
    // No proxy, whatever the environment says: the pools are then undici Agents, which count their connections.
    const transport = quick({}, { proxies: proxySettings({}) }, noting);
    const busy = () => {
      let count = 0;
      for (const pool of pools) {
        const counts = pool.stats[idleOrigin];
        if (counts) count += counts.connected - counts.free;
      }
      return count;
    };
    const settle = () => expect.poll(busy, { ...POLL, message: `connections to ${idleOrigin} still busy` }).toBe(0);
    return { transport, settle };
  };

  it('sends a milestone once more, on a new connection, when its kept-alive connection closed before any byte of the answer', async () => {
    reset();
    onReused = (request) => request.socket.destroy();
    const { transport, settle } = watched();
    await transport.send(new Request(`${idleOrigin}/warm`));
    await settle();
    const body = '{"load_id":"L"}';
    const { response, stats } = await transport.send(
      new Request(`${idleOrigin}/v1/load-milestone-events?stale`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      }),
    );
    expect(response.status).toBe(200);
    expect(stats.reconnected).toBe(1);
    expect(hits.get('idle POST /v1/load-milestone-events?stale')).toBe(2);
    expect(connections).toBe(2);
  });

  it('sends it once more only: a write whose new connection closes too has an unknown outcome', async () => {
    reset();
    onReused = (request) => request.socket.destroy();
    const { transport, settle } = watched();
    await transport.send(new Request(`${idleOrigin}/warm`));
    await settle();
    const write = new Request(`${idleOrigin}/close-always`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const failure = await transport.send(write).catch((e: unknown) => e);
    expect((failure as CouldNotJudge).kind).toBe('outcome-unknown');
    expect((failure as CouldNotJudge).stats).toMatchObject({ reconnected: 1, attempts: 2 });
    expect(hits.get('idle POST /close-always')).toBe(2);
  });

  it('reuses an idle connection for at most 1 s when the server announced no keep-alive timeout', async () => {
    reset();
    onReused = (_request, response) => answer(200)(response);
    const { transport, settle } = watched();
    await transport.send(new Request(`${idleOrigin}/first`));
    await settle();
    await transport.send(new Request(`${idleOrigin}/soon-after`));
    expect(connections).toBe(1);
    // The connection is idle again, so undici's keep-alive timer (1 s) has started: the pause, which is the behaviour
    // under test, started after it and ends after it however late both fire.
    await settle();
    await new Promise((resolve) => setTimeout(resolve, 1_400));
    await transport.send(new Request(`${idleOrigin}/after-a-pause`));
    expect(connections).toBe(2);
  });
});

describe('TLS is tried once, and the line names the cause and its fix', () => {
  let certificates: TestCertificates;
  let tls: ReturnType<typeof createTlsServer>;
  let tlsPort = 0;
  let handshakes = 0;

  beforeAll(async () => {
    certificates = makeTestCertificates(['staging.partner.invalid', '127.0.0.1']);
    tls = createTlsServer({ key: certificates.key, cert: certificates.cert }, (_request, response) => answer(200)(response));
    // Every handshake, those the client broke off included: "once" is counted where it happens.
    tls.on('connection', () => handshakes++);
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    tlsPort = (tls.address() as AddressInfo).port;
  });
  afterAll(async () => {
    tls.closeAllConnections();
    await new Promise<void>((resolve) => tls.close(() => resolve()));
    certificates.remove();
  });

  const unjudged = async (transport: Transport, request: Request) => {
    const failure = await transport.send(request).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(CouldNotJudge);
    return failure as CouldNotJudge;
  };

  it('a certificate of a CA Node does not know: one try, NODE_EXTRA_CA_CERTS named, never --insecure; trusted, it answers', async () => {
    handshakes = 0;
    const failure = await unjudged(quick(), new Request(`https://127.0.0.1:${tlsPort}/fleet/vehicles`));
    expect(failure.kind).toBe('tls');
    expect(failure.stats?.attempts).toBe(1);
    expect(handshakes).toBe(1);
    expect(failure.message).toMatch(
      /^GET \/fleet\/vehicles: The TLS certificate of 127\.0\.0\.1:\d+ is not trusted \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)/,
    );
    expect(failure.message).toContain('NODE_EXTRA_CA_CERTS=/path/to/ca.pem');
    expect(failure.message).not.toMatch(/insecure|rejectUnauthorized|NODE_TLS_REJECT_UNAUTHORIZED/i);
    // Through the published client, as the preflight sees it, the same line comes back.
    const wrapped = Object.assign(new Error(`GET /vehicles failed: no response: CouldNotJudge: ${failure.message} [https://x]`), {
      name: 'ApiError',
    });
    expect(couldNotJudgeOf(wrapped)?.kind).toBe('tls');
    const trusted = await quick({}, { ca: [certificates.ca] }).send(new Request(`https://127.0.0.1:${tlsPort}/fleet/vehicles`));
    expect(trusted.response.status).toBe(200);
  });

  it('http:// sent to a port that speaks https: one try, the scheme named', async () => {
    const failure = await unjudged(quick(), new Request(`http://127.0.0.1:${tlsPort}/fleet/vehicles`));
    expect(failure.kind).toBe('tls');
    expect(failure.stats?.attempts).toBe(1);
    expect(failure.message).toMatch(/127\.0\.0\.1:\d+ speaks https, not plain http: .* Use an https:\/\/ URL in "the base URL"/);
  });

  it('https:// sent to a port that speaks plain http: one try, the scheme named', async () => {
    const failure = await unjudged(quick(), new Request(`${origin.replace('http:', 'https:')}/fleet/vehicles`));
    expect(failure.kind).toBe('tls');
    expect(failure.stats?.attempts).toBe(1);
    expect(failure.message).toMatch(/The TLS handshake with 127\.0\.0\.1:\d+ failed \(ERR_SSL_[A-Z_]+\): .* Use an http:\/\/ URL/);
  });

  describe('through a forward proxy, the only route to a host name no DNS knows', () => {
    let proxy: ForwardProxy;
    let guarded: ForwardProxy;
    beforeAll(async () => {
      const hosts = { 'staging.partner.invalid': '127.0.0.1' };
      [proxy, guarded] = await Promise.all([
        startForwardProxy({ hosts }),
        startForwardProxy({ hosts, credentials: { user: 'proxy-user', password: 'proxy-pass-DO-NOT-PRINT' } }),
      ]);
    });
    afterAll(async () => {
      await proxy.close();
      await guarded.close();
    });
    const via = (proxyUrl: string) => ({ proxies: proxySettings({ HTTPS_PROXY: proxyUrl, HTTP_PROXY: proxyUrl }), ca: [certificates.ca] });
    const port = () => new URL(origin).port;

    it('reaches it over http and over https, both in a CONNECT tunnel: the proxy never reads a request', async () => {
      handler = (_, response) => answer(200)(response);
      const transport = quick({}, via(proxy.origin));
      const plain = await transport.send(
        new Request(`http://staging.partner.invalid:${port()}/fleet/vehicles`, { headers: { 'api-key': 'k' } }),
      );
      const secure = await transport.send(new Request(`https://staging.partner.invalid:${tlsPort}/fleet/vehicles`));
      expect([plain.response.status, secure.response.status]).toEqual([200, 200]);
      expect(proxy.log().tunnels).toEqual([`staging.partner.invalid:${port()}`, `staging.partner.invalid:${tlsPort}`]);
      expect(proxy.log().forwarded).toEqual([]);
      expect(transport.proxyOf(`https://staging.partner.invalid:${tlsPort}/`)).toBe(proxy.origin);
    });

    it('goes direct to loopback and to NO_PROXY hosts, whatever HTTP_PROXY says', async () => {
      handler = (_, response) => answer(200)(response);
      const before = proxy.log().tunnels.length;
      const transport = quick({}, { proxies: proxySettings({ HTTP_PROXY: proxy.origin, NO_PROXY: 'partner.invalid' }) });
      expect((await transport.send(get('/direct'))).response.status).toBe(200);
      expect(transport.proxyOf('http://staging.partner.invalid/')).toBeUndefined();
      expect(transport.proxyOf('http://other.invalid/')).toBe(proxy.origin);
      expect(proxy.log().tunnels.length).toBe(before);
    });

    it('a proxy that wants credentials: one try, the fix named, the proxy credentials never shown; with them, it answers', async () => {
      const failure = await unjudged(quick({}, via(guarded.origin)), new Request(`https://staging.partner.invalid:${tlsPort}/x`));
      expect(failure.kind).toBe('unreachable');
      expect(failure.stats?.attempts).toBe(1);
      expect(failure.message).toContain(`The proxy ${guarded.origin} wants credentials (407)`);
      const withCredentials = guarded.origin.replace('//', '//proxy-user:proxy-pass-DO-NOT-PRINT@');
      const { response } = await quick({}, via(withCredentials)).send(new Request(`https://staging.partner.invalid:${tlsPort}/x`));
      expect(response.status).toBe(200);
      const refused = await unjudged(quick({}, via(withCredentials)), new Request(`https://unknown.invalid:${tlsPort}/x`));
      expect(refused.message).toContain(`The proxy ${guarded.origin} refuses a tunnel to unknown.invalid:${tlsPort} (403)`);
      expect(refused.message).not.toContain('DO-NOT-PRINT');
    });
  });
});

describe('requests in flight adapt to the round trip, within --concurrency', () => {
  /** A gate with `held` requests in flight and `waiting` more queued behind them. */
  async function busyGate(ceiling: number, initial: number, waiting: number, least = initial) {
    const gate = new Gate(ceiling, undefined, initial, undefined, least);
    for (let i = 0; i < initial; i++) await gate.acquire();
    const queued = Array.from({ length: waiting }, () => gate.acquire());
    return { gate, queued };
  }

  /** 48 answers as a queue gives them, `stepMs` apart: now and then one in 1 ms, most in about 20 ms. */
  function answerQueueing(gate: Gate, stepMs: number) {
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      for (let i = 0; i < 48; i++) {
        gate.accept(i % 8 === 0 ? 1 : 20);
        vi.advanceTimersByTime(stepMs);
      }
    } finally {
      vi.useRealTimers();
    }
  }

  it('grows by one per answer while requests wait and the round trip holds, up to the ceiling', async () => {
    const { gate } = await busyGate(6, 2, 10);
    for (let i = 0; i < 10; i++) gate.accept(200);
    expect(gate.concurrency).toBe(6);
    expect(gate.reached).toBe(6);
  });

  it('takes a quarter off once most of the latest answers took twice the least (never below the start)', async () => {
    const { gate } = await busyGate(64, 4, 40);
    for (let i = 0; i < 12; i++) gate.accept(100);
    expect(gate.concurrency).toBe(16);
    // Slow answers among quick ones are a busy worker of the suite, not a queue: the quickest still came in 100 ms.
    for (let i = 0; i < 7; i++) gate.accept(400);
    expect(gate.concurrency).toBe(23);
    // The eighth makes half of the latest 16 slow: a queue, a quarter off.
    gate.accept(400);
    expect(gate.concurrency).toBe(17);
    // One cut per round trip: the rest of the same burst changes nothing.
    gate.accept(400);
    expect(gate.concurrency).toBe(17);
    expect(new Gate(64, undefined, 4).concurrency).toBe(4);
  });

  it('brings a near target whose round trip is queueing (1 ms at best, about 20 ms now) back to the start, however many wait', async () => {
    const { gate } = await busyGate(64, 3, 60);
    // Now and then an answer is quick again: most of them still say the requests queue.
    answerQueueing(gate, 5);
    expect(gate.concurrency).toBe(3);
  });

  it('starts each worker at 8 in flight, and a queue brings a worker back to its share of 8, not to its start', async () => {
    const pool = offerFlightPool(128);
    try {
      const worker = new Transport({ ...DEFAULT_TRANSPORT, workers: 4 }).gate;
      expect(worker.concurrency, "one of four workers' start").toBe(INITIAL_IN_FLIGHT);
      expect(pool.ceiling).toBe(128);
    } finally {
      withdrawFlightPool();
    }
    const unpooled = new Transport({ ...DEFAULT_TRANSPORT, workers: 4, concurrency: 16 }).gate;
    expect(unpooled.concurrency, 'without a pool: within its share').toBe(4);
    // A worker of four: it starts at 8 and backs off to 2, a fourth of 8, once its answers say they queue.
    const { gate } = await busyGate(128, 8, 40, 2);
    answerQueueing(gate, 25);
    expect(gate.concurrency).toBe(2);
  });

  it('a slow first answer (a cold process, a new connection) does not end the doubling at the start', async () => {
    const { gate } = await busyGate(64, 2, 40);
    gate.accept(900);
    for (let i = 0; i < 10; i++) gate.accept(200);
    // Cut nothing at the start; then, the smoothed round trip back within twice the least, one more per answer.
    expect(gate.concurrency).toBeGreaterThanOrEqual(8);
  });

  it('does not grow when nothing waits: a near, fast target gets no more than it needs', async () => {
    const gate = new Gate(64, undefined, 4);
    await gate.acquire();
    for (let i = 0; i < 20; i++) gate.accept(1);
    expect(gate.concurrency).toBe(4);
  });

  it("notes each request's round trip and the chain of answers it waited for", async () => {
    handler = (_, response) => answer(200)(response);
    const transport = quick();
    const first = await transport.send(get('/pace?1'));
    const together = await Promise.all([transport.send(get('/pace?2')), transport.send(get('/pace?3'))]);
    const after = await transport.send(get('/pace?4'));
    expect([first, ...together, after].map((sent) => sent.stats.depth)).toEqual([1, 2, 2, 3]);
    expect(first.stats.sentAt).toBeGreaterThan(Date.now() - 60_000);
    expect(first.stats.roundTripMs).toBeGreaterThanOrEqual(0);
  });

  it('states the bound the round trip sets and the ratio reached', () => {
    // Four requests of 100 ms each: a chain of three, two of them side by side; 400 ms from the first out to the last in.
    const notes = [
      { sentAt: 1_000, roundTripMs: 100, depth: 1 },
      { sentAt: 1_150, roundTripMs: 100, depth: 2 },
      { sentAt: 1_150, roundTripMs: 100, depth: 2 },
      { sentAt: 1_300, roundTripMs: 100, depth: 3 },
    ];
    expect(paceOf(notes, 128)).toMatchObject({ roundTripMs: 100, spanMs: 400, mostInFlight: 2, chain: 3, boundMs: 300, ceiling: 128 });
    expect(paceOf(notes, 128)?.ratio).toBeCloseTo(400 / 300);
    // At one request in flight the ceiling, not the chain, bounds them: four round trips.
    expect(paceOf(notes, 1)?.boundMs).toBe(400);
    // Two workers' clocks a millisecond apart cannot show more in flight than their gates allowed together.
    expect(paceOf(notes, 1)?.mostInFlight).toBe(1);
    expect(paceOf([], 8)).toBeUndefined();
  });

  it('runs more test files side by side the farther the target: 3 near (one per core on fewer), 8 at 200 ms, at most two per core', () => {
    const farther = (cores: number) => [1, 50, 75, 100, 200, 900].map((ms) => workersFor(ms, cores));
    expect(farther(8)).toEqual([3, 3, 3, 4, 8, 8]);
    expect(farther(2)).toEqual([2, 2, 3, 4, 4, 4]);
    expect(farther(1)).toEqual([1, 2, 3, 4, 4, 4]);
    // A target on this machine answers from the same cores: near it, one core fewer; far, the same.
    const here = (cores: number) => [1, 50, 75, 100, 200, 900].map((ms) => workersFor(ms, cores, true));
    expect(here(8)).toEqual([3, 3, 3, 4, 8, 8]);
    expect(here(2)).toEqual([1, 2, 3, 4, 4, 4]);
    expect(here(1)).toEqual([1, 2, 3, 4, 4, 4]);
  });

  it('hands the workers the heaviest files first, each prefix naming a file of the suite, the rest in path order', () => {
    const files = readdirSync(join(repoRoot, 'contract-tests'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => join(repoRoot, 'contract-tests', f));
    for (const prefix of HEAVIEST_FIRST)
      expect(
        files.some((f) => f.includes(prefix)),
        prefix,
      ).toBe(true);
    const spec = (moduleId: string) => ({ moduleId }) as TestSpecification;
    const order = new HeaviestFirst()
      .sort(
        ['flows/a.test.ts', 'property/operators.fleet.test.ts', 'carriers/b.test.ts', 'property/operators.token.test.ts'].map((f) =>
          spec(`/r/contract-tests/${f}`),
        ),
      )
      .map((s) => s.moduleId.replace('/r/contract-tests/', ''));
    expect(order).toEqual([
      'property/operators.token.test.ts',
      'property/operators.fleet.test.ts',
      'carriers/b.test.ts',
      'flows/a.test.ts',
    ]);
    expect(weightRank('contract-tests/token/expiry.test.ts')).toBe(HEAVIEST_FIRST.length);
  });
});

describe('a check whose write got no answer runs once more before it counts as could not judge', () => {
  let server2: Server;
  let closing = '';
  let tries = 0;
  beforeAll(async () => {
    // Every connection is closed as soon as the request is in: a new one each time, so the outcome is unknown.
    server2 = createServer((request) => request.socket.destroy());
    await new Promise<void>((resolve) => server2.listen(0, '127.0.0.1', resolve));
    closing = `http://127.0.0.1:${(server2.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server2.close(() => resolve())));

  it("the project's retry condition is the transport's words for an unknown outcome, and nothing else's", async () => {
    // The project's own options, as the config file and the runner both take them.
    const { retry } = projectConfig();
    const write = new Request(`${closing}/v1/load-milestone-events`, { method: 'POST', body: '{}' });
    const unknown = (await quick()
      .send(write)
      .catch((e: unknown) => e)) as CouldNotJudge;
    expect(unknown.kind).toBe('outcome-unknown');
    expect(retry?.count).toBe(1);
    expect(retry?.condition?.test(unknown.message)).toBe(true);
    const unreachable = (await quick({ tries: 1 })
      .send(new Request(`${closing}/fleet/vehicles`))
      .catch((e: unknown) => e)) as CouldNotJudge;
    expect(retry?.condition?.test(unreachable.message)).toBe(false);
  });

  it('runs the check once more: here the first run ends with an unknown outcome, the second passes', async () => {
    tries++;
    if (tries === 1)
      throw await quick()
        .send(new Request(`${closing}/v1/load-milestone-events?retry`, { method: 'POST', body: '{}' }))
        .catch((e: unknown) => e);
    expect(tries).toBe(2);
  });
});
