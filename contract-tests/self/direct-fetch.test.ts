// The suite's requests go out on undici's dispatch API (send/direct-fetch.ts), not fetch: what a server sees and what the
// checks read must be what fetch would have sent and given. Each case is sent both ways to one loopback server, and the
// two compared: the request on the wire, and the Response (status, headers, body, URL) for plain, encoded and bodiless
// answers; failures reject as fetch's do. A third way, the suite's own exchanges' (no body stream: the checks read the
// bytes kept for it), gives the same answer, its body read from those bytes.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testWaitMs } from '../../config/test-waits.ts';
import { FETCH_ANSWERS } from '../fixtures/fetch-answers.ts';
import { bodyBytes, bufferedBody, deadline, directFetch } from '../send/direct-fetch.ts';
import { outgoing } from '../send/fetch.ts';

/** The deadline of a request the test expects answered (or refused): it only says that the request did not hang. */
const NOT_HUNG_MS = testWaitMs(10_000);
let server: Server;
let origin = '';
const seen: IncomingMessage[] = [];
const bodies = new WeakMap<IncomingMessage, string>();
const agent = new Agent();

beforeAll(async () => {
  server = createServer((request, response) => {
    // Answered once the whole request is in: its body is part of what each way must send alike.
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      bodies.set(request, Buffer.concat(chunks).toString('latin1'));
      seen.push(request);
      if (request.url === '/hang') return;
      (FETCH_ANSWERS[request.url ?? ''] ?? FETCH_ANSWERS['/plain']!)(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await agent.close();
});

const utf8 = new TextDecoder();

/** How the suite's one fetch sends `init`: a body of text or bytes apart from the Request (send/fetch.ts). */
async function sentApart(url: string, init: RequestInit, signal: AbortSignal) {
  const { request, bytes } = outgoing(url, init);
  if (bytes) expect(request.body, 'the body kept apart').toBeNull();
  const body = bytes ?? (await bodyBytes(request));
  return directFetch(request, body, signal, agent, false);
}

/** The request each way: what the server saw (names lower-case, in order of name) and what came back. */
async function bothWays(path: string, init: RequestInit = {}) {
  const made = () => new Request(`${origin}${path}`, { redirect: 'manual', ...init });
  const views = [];
  for (const way of ['fetch', 'direct', 'bytes only', 'body apart'] as const) {
    const request = made();
    const signal = AbortSignal.timeout(NOT_HUNG_MS);
    const response =
      way === 'fetch'
        ? await fetch(new Request(request, { signal }), { dispatcher: agent } as RequestInit)
        : way === 'body apart'
          ? await sentApart(`${origin}${path}`, { redirect: 'manual', ...init }, signal)
          : await directFetch(request, await bodyBytes(request), signal, agent, way === 'direct');
    if (way === 'bytes only' || way === 'body apart') expect(response.body, 'no body stream of its own').toBeNull();
    const wire = seen.at(-1)!;
    const sent = Object.entries(wire.headers)
      .filter(([name]) => name !== 'host')
      .sort(([a], [b]) => a.localeCompare(b));
    views.push({
      sent: { method: wire.method, headers: sent, body: bodies.get(wire) },
      status: response.status,
      statusText: response.statusText,
      headers: [...response.headers].filter(([name]) => !['date', 'keep-alive', 'connection'].includes(name)),
      cookies: response.headers.getSetCookie(),
      url: response.url,
      body: way === 'bytes only' || way === 'body apart' ? utf8.decode(bufferedBody(response)) : await response.text(),
    });
  }
  return views;
}

describe("a request sent on undici's dispatch API instead of fetch", () => {
  it.for([
    ['a GET without headers of its own', '/plain', {}],
    [
      'a form POST with an Accept and a language of its own',
      '/plain',
      {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'client_credentials' }),
        headers: { Accept: 'application/json', 'Accept-Language': 'de' },
      },
    ],
    [
      'a JSON POST with an Accept-Encoding of its own',
      '/plain',
      { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json', 'accept-encoding': 'identity' } },
    ],
    ['a text POST without a Content-Type (fetch labels it text/plain)', '/plain', { method: 'POST', body: 'grant_type=password' }],
    ['a POST of bytes without a Content-Type', '/plain', { method: 'POST', body: new TextEncoder().encode('{"a":1}') }],
    ['a lower-case post of text', '/plain', { method: 'post', body: 'x', headers: { 'content-type': 'application/json' } }],
    ['a gzip answer', '/gzip', {}],
    ['a deflate answer', '/deflate', {}],
    ['a brotli answer', '/br', {}],
    ['a gzip answer cut short', '/gzip-cut-short', {}],
    ['a raw deflate answer', '/raw-deflate', {}],
    ['an answer gzipped twice', '/gzip-twice', {}],
    ['an answer with a coding fetch does not know', '/unknown-coding', {}],
    ['an empty gzip answer', '/gzip-empty', {}],
    ['two cookies, a header sent twice and a reason phrase of its own', '/reason', {}],
    ['an interim 103 Early Hints before the answer', '/early-hints', {}],
    ['a redirect, not followed', '/redirect', {}],
    ['a 204', '/no-content', { method: 'DELETE' }],
    ['a HEAD', '/plain', { method: 'HEAD' }],
    ['a status past 599', '/status-600', {}],
  ] as const)('%s: the same request on the wire, the same answer back', async ([, path, init]) => {
    const [byFetch, direct, bytesOnly, bodyApart] = await bothWays(path, init as RequestInit);
    expect(direct).toEqual(byFetch);
    expect(bytesOnly).toEqual(byFetch);
    expect(bodyApart).toEqual(byFetch);
    expect(direct!.status).toBeGreaterThan(0);
  });

  it('rejects with the signal reason once aborted, and with "fetch failed" and its cause when nothing answers', async () => {
    const timeout = AbortSignal.timeout(50);
    const hang = new Request(`${origin}/hang`, { redirect: 'manual' });
    const aborted = await directFetch(hang, undefined, timeout, agent).catch((e: unknown) => e);
    expect((aborted as Error).name).toBe('TimeoutError');
    const closed = new Request('http://127.0.0.1:9/', { redirect: 'manual' });
    const refused = await directFetch(closed, undefined, AbortSignal.timeout(NOT_HUNG_MS), agent).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TypeError);
    expect((refused as TypeError).message).toBe('fetch failed');
    expect(((refused as TypeError).cause as { code?: string }).code).toBe('ECONNREFUSED');
  });

  it("rejects on an attempt's deadline as on AbortSignal.any of the outer signal and a timeout: with either's reason", async () => {
    const hang = () => new Request(`${origin}/hang`, { redirect: 'manual' });
    const never = new AbortController();
    const timed = deadline(50, never.signal);
    const timedOut = await directFetch(hang(), undefined, timed.signal, agent).catch((e: unknown) => e);
    timed.done();
    expect([(timedOut as Error).name, timed.timedOut()]).toEqual(['TimeoutError', true]);

    const outer = new AbortController();
    const cancelled = deadline(NOT_HUNG_MS, outer.signal);
    const hangs = seen.length;
    const sent = directFetch(hang(), undefined, cancelled.signal, agent).catch((e: unknown) => e);
    // Aborted once the server has the request (no timer raced against it).
    await vi.waitFor(() => expect(seen.length).toBeGreaterThan(hangs), { timeout: NOT_HUNG_MS, interval: 5 });
    const reason = new Error('the caller gave up');
    outer.abort(reason);
    expect([await sent, cancelled.timedOut()]).toEqual([reason, false]);
    cancelled.done();

    const already = deadline(NOT_HUNG_MS, AbortSignal.abort(reason));
    expect(await directFetch(hang(), undefined, already.signal, agent).catch((e: unknown) => e)).toBe(reason);
    already.done();
  });

  it('hands on an answer whose encoding is broken, as fetch does: reading its body fails', async () => {
    const request = new Request(`${origin}/gzip-corrupt`, { redirect: 'manual' });
    for (const bodyStream of [true, false]) {
      const response = await directFetch(request, undefined, AbortSignal.timeout(NOT_HUNG_MS), agent, bodyStream);
      expect(response.status).toBe(200);
      expect(bufferedBody(response)).toBeUndefined();
      await expect(response.text()).rejects.toThrow(TypeError);
    }
  });
});
