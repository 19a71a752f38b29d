// Each origin's pace (send/origin-pace.ts) against loopback node:http servers: every family of rate-limit headers is
// read (and a malformed one never throws), an origin limited as Okta limits answers (almost) no 429, another origin is
// not slowed by it, and the identity provider's cap holds over a run, for one transport and for two that share a board
// as a live run's workers do (measured where the requests leave the transport, not where this thread's server notes
// them). The board itself is shared by real threads. Rates are bounded from above only: a slow machine sends slower,
// never faster.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { threadId, Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { OktaLimit, type OktaLimitOptions } from '../fixtures/gateway-limits.ts';
import { transportLine, transportSummary } from '../report/transport-summary.ts';
import type { LedgerEntry } from '../send/ledger.ts';
import { OriginPace } from '../send/origin-pace.ts';
import { PaceBoard, sharedBoard } from '../send/pace-board.ts';
import { readRateLimit } from '../send/rate-limit-headers.ts';
import { DEFAULT_TRANSPORT, type NetworkOptions, Transport, type TransportSettings } from '../send/transport.ts';

interface Recorder {
  origin: string;
  /** When each request arrived (ms, performance.now()), and its path. */
  arrivals: { at: number; path: string }[];
  /** Answers 429 given. */
  limited: number;
}

const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A loopback server; under `limit.pathPrefix` it answers as Okta does (X-Rate-Limit-* on every answer, 429 over the limit). */
async function server(limit?: OktaLimitOptions): Promise<Recorder> {
  const okta = limit && new OktaLimit(limit);
  const recorder: Recorder = { origin: '', arrivals: [], limited: 0 };
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    recorder.arrivals.push({ at: performance.now(), path });
    request.resume();
    if (!okta?.covers(path)) return void response.end('ok');
    const { passes, headers } = okta.take();
    if (!passes) recorder.limited++;
    response.writeHead(passes ? 200 : 429, headers).end(passes ? 'ok' : 'limited');
  };
  const created = createServer(handle);
  servers.push(created);
  await new Promise<void>((resolve) => created.listen(0, '127.0.0.1', resolve));
  recorder.origin = `http://127.0.0.1:${(created.address() as AddressInfo).port}`;
  return recorder;
}

const transport = (over: Partial<TransportSettings> = {}, network: NetworkOptions = {}, fetchImpl: typeof fetch = fetch) =>
  new Transport({ ...DEFAULT_TRANSPORT, workers: 1, timeoutMs: 10_000, ...over }, fetchImpl, () => 0, {
    board: new PaceBoard(),
    env: {},
    ...network,
  });

const sendAll = (through: Transport, url: string, count: number) =>
  Promise.all(Array.from({ length: count }, (_, i) => through.send(new Request(`${url}?${i}`))));

/**
 * A fetch that notes when each request leaves the transport (ms, performance.now()) and its path, then sends it: where a
 * pace is measured. A server in this thread notes a request when the thread gets to it: on a busy machine a request sent
 * on time is noted late, and one noted late at the start shortens the span a rate is read over (25 requests 105 ms
 * apart, the first noted 140 ms late: rateOf reads 24 gaps over 2,380 ms, a cap of 10 as 10.08).
 */
function recordingFetch(sends: { at: number; path: string }[]): typeof fetch {
  return (input, init) => {
    sends.push({ at: performance.now(), path: new URL(input instanceof Request ? input.url : String(input)).pathname });
    return fetch(input, init);
  };
}

/** Requests a second over a run of sends: the gaps between the first and the last. */
const rateOf = (sends: { at: number }[]) => (sends.length - 1) / ((sends.at(-1)!.at - sends[0]!.at) / 1000);

/** The most requests that arrived within any `windowMs` (a sliding window over the arrivals). */
function mostWithin(arrivals: { at: number }[], windowMs: number): number {
  const times = arrivals.map((a) => a.at).sort((a, b) => a - b);
  let most = 0;
  for (let first = 0, last = 0; last < times.length; last++) {
    while (times[last]! - times[first]! >= windowMs) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

describe('the rate-limit headers of every family are read', () => {
  const now = 1_800_000_000_000;
  const read = (headers: Record<string, string>) => readRateLimit(new Headers(headers), now);

  it("Retry-After, as seconds or a date, and Okta's X-Rate-Limit-* (reset in epoch seconds)", () => {
    expect(read({ 'retry-after': '3' })).toEqual({ retryAfterMs: 3000 });
    expect(read({ 'retry-after': new Date(now + 5000).toUTCString() }).retryAfterMs).toBe(5000);
    expect(read({ 'x-rate-limit-limit': '20', 'x-rate-limit-remaining': '7', 'x-rate-limit-reset': String(now / 1000 + 2) })).toEqual({
      limit: 20,
      remaining: 7,
      resetAt: now + 2000,
      resetEpochSeconds: now / 1000 + 2,
    });
    // A server clock 10 s ahead (by its Date): the reset is moved onto this machine's clock.
    const skewed = read({
      date: new Date(now + 10_000).toUTCString(),
      'x-rate-limit-remaining': '1',
      'x-rate-limit-reset': String(now / 1000 + 12),
    });
    expect(skewed.resetAt).toBe(now + 2000);
  });

  it("the IETF draft's RateLimit-Policy and RateLimit lists: the strictest quota, the item with the fewest left", () => {
    expect(read({ 'ratelimit-policy': '"default";q=100;w=60', ratelimit: '"default";r=50;t=30' })).toEqual({
      quota: { limit: 100, windowMs: 60_000 },
      remaining: 50,
      resetAt: now + 30_000,
    });
    const two = read({ 'ratelimit-policy': '"burst";q=10;w=1, "day";q=1000;w=86400', ratelimit: '"burst";r=8;t=1, "day";r=3;t=5000' });
    expect(two).toMatchObject({ quota: { limit: 1000, windowMs: 86_400_000 }, remaining: 3, resetAt: now + 5_000_000 });
    // A quota in bytes does not pace requests.
    expect(read({ 'ratelimit-policy': '"bytes";q=5000;qu="content-bytes";w=1' }).quota).toBeUndefined();
  });

  it("the older drafts' forms: RateLimit-Limit, -Remaining, -Reset; a dictionary; a policy of bare numbers", () => {
    expect(read({ 'ratelimit-limit': '100', 'ratelimit-remaining': '4', 'ratelimit-reset': '7' })).toEqual({
      limit: 100,
      remaining: 4,
      resetAt: now + 7000,
    });
    expect(read({ ratelimit: 'limit=100, remaining=50, reset=30' })).toEqual({ limit: 100, remaining: 50, resetAt: now + 30_000 });
    expect(read({ 'ratelimit-policy': '100;w=60, 10;w=1' }).quota).toEqual({ limit: 100, windowMs: 60_000 });
  });

  it('never throws on a malformed field, and takes nothing from it', () => {
    const garbage = ['', ',,,', '"unterminated;q=1', ';;;=', 'q=-5', '"x";r=abc;t=', '9'.repeat(40), 'a'.repeat(10_000), '\u00ff\u00fe'];
    for (const value of garbage) {
      const headers = new Headers();
      for (const name of [
        'ratelimit',
        'ratelimit-policy',
        'ratelimit-limit',
        'x-rate-limit-remaining',
        'x-rate-limit-reset',
        'retry-after',
      ])
        headers.set(name, value);
      const note = readRateLimit(headers, now);
      expect(note.remaining === undefined || Number.isFinite(note.remaining)).toBe(true);
      expect(note.quota).toBeUndefined();
    }
    expect(read({ ratelimit: '"default";r=abc;t=x', 'x-rate-limit-limit': 'lots' })).toEqual({});
  });
});

describe.concurrent('each origin is paced by what its answers say, and only that origin', () => {
  it('spreads the requests to an origin limited as Okta limits it, so that (almost) none is answered 429', async () => {
    const idp = await server({ pathPrefix: '/idp', perSecond: 20, burst: 10 });
    const sent = await sendAll(transport(), `${idp.origin}/idp/token`, 50);
    expect(sent.every((s) => s.response.status === 200)).toBe(true);
    // Before its first answer nothing is known: the first requests in flight may meet an empty bucket, never more.
    expect(idp.limited).toBeLessThanOrEqual(2);
    // At 20 a second with bursts of 10, no second may see more than 30.
    expect(mostWithin(idp.arrivals, 1000)).toBeLessThanOrEqual(30);
  });

  it('does not slow another origin: its requests wait for nothing while the limited one is paced', async () => {
    const idp = await server({ pathPrefix: '/', perSecond: 10, burst: 5 });
    const fleet = await server();
    const through = transport();
    const limited = sendAll(through, `${idp.origin}/idp`, 30);
    // Once the limited origin has answered a few, its pace is known; then the other origin's requests go.
    while (idp.arrivals.length < 5) await new Promise((resolve) => setImmediate(resolve));
    const others = await sendAll(through, `${fleet.origin}/fleet/vehicles`, 40);
    const seenByTheLimited = idp.arrivals.length;
    await limited;
    // Waited for nothing: the time to read the clock twice, not a pause or a rate.
    expect(Math.max(...others.map((s) => s.stats.waitedMs))).toBeLessThan(5);
    // The other origin's 40 were all answered while the limited one had not yet received all of its requests.
    expect(seenByTheLimited).toBeLessThan(30);
  });
});

describe("Okta's window, learned from its reset's steps", () => {
  it('takes a step for the window only between answers close together, not across a gap of several windows', () => {
    let now = 1_000_000_400;
    const pace = new OriginPace(() => board, { clock: () => now });
    const board = new PaceBoard();
    const key = 'http://idp.invalid/idp';
    const okta = (seconds: number) => ({ limit: 20, remaining: 9, resetAt: seconds * 1000, resetEpochSeconds: seconds });
    // The preflight's answer: the reset 0.6 s away, a window of 1 s guessed (20 at 95%).
    pace.observe(key, 1, okta(1_000_001), true);
    expect(pace.rate(key)).toBeCloseTo(19);
    // The suite's first answer 3 s later: the reset stepped 3 s, three windows, not one.
    now += 3_000;
    pace.observe(key, 2, okta(1_000_004), true);
    expect(pace.rate(key)).toBeCloseTo(19);
    // A step between answers 50 ms apart is one window.
    now += 550;
    pace.observe(key, 3, okta(1_000_004), true);
    now += 50;
    pace.observe(key, 4, okta(1_000_005), true);
    expect(pace.rate(key)).toBeCloseTo(19);
  });
});

describe.concurrent('a 429 without Retry-After waits until the reset its headers name', () => {
  /** A server whose first answer is a 429 with `headers(now)`, and every later one 200; it notes when each arrived. */
  async function refusingOnce(headers: (now: number) => Record<string, string>) {
    const arrivals: number[] = [];
    const created = createServer((request, response) => {
      request.resume();
      arrivals.push(Date.now());
      if (arrivals.length === 1) response.writeHead(429, headers(Date.now())).end();
      else response.end('ok');
    });
    servers.push(created);
    await new Promise<void>((resolve) => created.listen(0, '127.0.0.1', resolve));
    return { arrivals, origin: `http://127.0.0.1:${(created.address() as AddressInfo).port}` };
  }

  it("Okta's X-Rate-Limit-Reset, in epoch seconds", async () => {
    let reset = 0;
    const target = await refusingOnce((now) => {
      reset = Math.ceil(now / 1000) + 1;
      return { 'x-rate-limit-limit': '20', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': String(reset) };
    });
    const { response, stats } = await transport().send(new Request(`${target.origin}/idp/token`));
    expect([response.status, stats.limited, stats.attempts]).toEqual([200, 1, 2]);
    // Not before the reset (the clock's millisecond aside): a wait the answer asked for, not the suite's speed.
    expect(target.arrivals[1]!).toBeGreaterThanOrEqual(reset * 1000 - 1);
  });

  it("the IETF draft's RateLimit t, in seconds from the answer", async () => {
    const target = await refusingOnce(() => ({ 'ratelimit-policy': '"default";q=5;w=1', ratelimit: '"default";r=0;t=1' }));
    const { response } = await transport().send(new Request(`${target.origin}/svc/token`));
    expect(response.status).toBe(200);
    expect(target.arrivals[1]! - target.arrivals[0]!).toBeGreaterThanOrEqual(999);
  });
});

describe.concurrent('--idp-rate-limit caps the requests to the identity provider, all workers together', () => {
  it("holds for one transport: no second sees more than the cap, and the other APIs' requests are not capped", async () => {
    const target = await server();
    const env = { LP_AUTH_URL: `${target.origin}/idp`, LP_FLEET_BASE_URL: `${target.origin}/fleet` };
    const sends: { at: number; path: string }[] = [];
    const through = transport({ idpRateLimit: 10 }, { env }, recordingFetch(sends));
    await Promise.all([
      sendAll(through, `${env.LP_AUTH_URL}/oauth2/default/v1/token`, 25),
      sendAll(through, `${env.LP_FLEET_BASE_URL}/vehicles`, 25),
    ]);
    expect(target.arrivals).toHaveLength(50);
    const idp = sends.filter((a) => a.path.startsWith('/idp'));
    expect(idp).toHaveLength(25);
    // Paced at 95% of the cap, one request a slot of 105 ms: ten slots take 1,053 ms, so no second holds an eleventh.
    expect(mostWithin(idp, 1000)).toBeLessThanOrEqual(10);
    expect(rateOf(idp)).toBeLessThanOrEqual(10);
    const fleet = sends.filter((a) => a.path.startsWith('/fleet'));
    expect(fleet.at(-1)!.at).toBeLessThan(idp.at(-1)!.at);
  });

  it('holds for two transports that share a board, as the workers of a live run do', async () => {
    const target = await server();
    const env = { LP_AUTH_URL: `${target.origin}/idp` };
    const board = new PaceBoard();
    const sends: { at: number; path: string }[] = [];
    const workers = [
      transport({ idpRateLimit: 8, workers: 2 }, { env, board }, recordingFetch(sends)),
      transport({ idpRateLimit: 8, workers: 2 }, { env, board }, recordingFetch(sends)),
    ];
    await Promise.all(workers.map((worker) => sendAll(worker, `${env.LP_AUTH_URL}/oauth2/default/v1/authorize`, 12)));
    expect(target.arrivals).toHaveLength(24);
    expect(sends).toHaveLength(24);
    expect(mostWithin(sends, 1000)).toBeLessThanOrEqual(8);
    expect(rateOf(sends)).toBeLessThanOrEqual(8);
  });

  it("the board is one for the process's threads: a worker thread made after it paces on it", async () => {
    const key = `http://shared.invalid/${threadId}/${Date.now()}`;
    const maker = threadId;
    sharedBoard();
    const runs = [1, 2].map(
      () =>
        new Promise<{ maker: number }>((resolve, reject) => {
          // A worker loads TypeScript through tsx's loader, registered in the thread before the helper is imported.
          const helper = new URL('./pace-board-worker.ts', import.meta.url).href;
          const code = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(helper)}); })`;
          const worker = new Worker(code, { eval: true, workerData: { maker, key, count: 50 } });
          worker.once('message', resolve);
          worker.once('error', reject);
        }),
    );
    expect(await Promise.all(runs)).toEqual([{ maker }, { maker }]);
    expect(sharedBoard().update(key, (slot) => slot.get('sent'))).toBe(100);
  });
});

describe('the report counts the requests per origin, and the 429s among them', () => {
  it('groups the ledger by the API each request went to, names it by its variable and address, the most first', () => {
    const exchange = (api: number, limited = 0): LedgerEntry => ({
      kind: 'exchange',
      operationId: 'x',
      status: 200,
      scheme: 'none',
      problems: [],
      test: 't',
      transport: { api, sentAt: 1, roundTripMs: 1, depth: 1, ...(limited ? { limited, throttled: limited, attempts: 1 + limited } : {}) },
    });
    const entries = [exchange(2, 1), exchange(2), exchange(2, 2), exchange(3), exchange(0)];
    const env = { LP_AUTH_URL: 'https://idp.example/oauth', LP_FLEET_BASE_URL: 'https://api.example/fleet' };
    const summary = transportSummary(entries, env);
    expect(summary.origins).toEqual([
      { api: 'LP_AUTH_URL', address: 'https://idp.example/oauth', requests: 3, limited: 3 },
      { api: 'LP_FLEET_BASE_URL', address: 'https://api.example/fleet', requests: 1, limited: 0 },
      { api: 'another address', address: '', requests: 1, limited: 0 },
    ]);
    expect(summary.limited).toBe(3);
    expect(transportLine(summary)).toContain(
      'per origin: LP_AUTH_URL (https://idp.example/oauth) 3, 3 answered 429; LP_FLEET_BASE_URL (https://api.example/fleet) 1, 0 answered 429; another address 1, 0 answered 429',
    );
    // The mock serves the three APIs at one address: one origin, each API named.
    const one = 'http://127.0.0.1:4010';
    const mock = transportSummary([exchange(1)], { LP_BASE_URL: one, LP_AUTH_URL: one, LP_FLEET_BASE_URL: `${one}/` });
    expect(mock.origins).toEqual([{ api: 'LP_BASE_URL, LP_AUTH_URL, LP_FLEET_BASE_URL', address: one, requests: 1, limited: 0 }]);
  });
});
