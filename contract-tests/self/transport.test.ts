// The suite's transport against a loopback server that misbehaves the way gateways and far environments do: each
// transient answer is waited out or retried (never handed on as the target's behaviour), a write is sent again only
// when the answer proves it was not processed, and what cannot be judged ends in CouldNotJudge. Plain node:http, no
// target: these run the same on every target.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CouldNotJudge, couldNotJudgeOf, DEFAULT_TRANSPORT, Gate, retryAfterMs, Transport } from '../send/transport.ts';

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

// Fast settings: one worker, no real waits beyond a few ms, no jitter (random() = 0), and a configured rate far above
// what the tests send, so no rate is learned from their 429s (that is tested on the gate alone).
const quick = (over: Partial<typeof DEFAULT_TRANSPORT> = {}) =>
  new Transport({ ...DEFAULT_TRANSPORT, workers: 1, timeoutMs: 300, rateLimit: 10_000, ...over }, fetch, () => 0);
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
    const started = performance.now();
    const failure = await quick({ maxWaitMs: 1000 })
      .send(get('/long-wait'))
      .catch((e: unknown) => e);
    expect((failure as CouldNotJudge).message).toMatch(/Retry-After 3600 s, longer than the suite waits/);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('retries a client-credentials token request after a dropped connection', async () => {
    handler = (request, response, hit) => (hit === 1 ? request.socket.destroy() : answer(200)(response));
    const { response } = await quick().send(tokenRequest('/token-drop'));
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
    handler = (_, response) => setTimeout(() => answer(200)(response), 30);
    mostInFlight = 0;
    const transport = quick({ concurrency: 3 });
    await Promise.all(Array.from({ length: 12 }, (_, i) => transport.send(get(`/bounded?${i}`))));
    // Never more than the bound; and the requests did overlap (a busy machine may not fill every slot at once).
    expect(mostInFlight).toBeLessThanOrEqual(3);
    expect(mostInFlight).toBeGreaterThanOrEqual(2);
  });

  it('sends no faster than --rate-limit', async () => {
    handler = (_, response) => answer(200)(response);
    const transport = quick({ rateLimit: 50 });
    const started = performance.now();
    await Promise.all(Array.from({ length: 11 }, (_, i) => transport.send(get(`/rate?${i}`))));
    // 11 requests at 50 a second: the last may go 200 ms after the first.
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('learns a rate from the 429s it meets, and pauses every request for the Retry-After', () => {
    const gate = new Gate(8);
    for (let i = 0; i < 30; i++) gate.accept();
    expect(gate.rate).toBeUndefined();
    gate.throttle(1000);
    expect(gate.rate).toBe(24);
    // The other answers of the same burst are part of the same episode: one cut, not one per answer.
    gate.throttle(1000);
    expect(gate.rate).toBe(24);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(new Date(Date.now() + 5000).toUTCString())).toBeGreaterThan(3000);
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
