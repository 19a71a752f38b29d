// The suite's requests go out on undici's request() (send/direct-fetch.ts), not fetch: what a server sees and what the
// checks read must be what fetch would have sent and given. Each case is sent both ways to one loopback server, and the
// two compared: the request on the wire, and the Response (status, headers, body, URL) for plain, encoded and bodiless
// answers; failures reject as fetch's do.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testWaitMs } from '../../config/test-waits.ts';
import { directFetch } from '../send/direct-fetch.ts';

/** The deadline of a request the test expects answered (or refused): it only says that the request did not hang. */
const NOT_HUNG_MS = testWaitMs(10_000);
const JSON_BODY = JSON.stringify({ access_token: 'token-of-the-test', token_type: 'Bearer', expired_in: 3600 });
const answers: Record<string, (response: ServerResponse) => void> = {
  '/plain': (r) => r.writeHead(200, { 'content-type': 'application/json' }).end(JSON_BODY),
  '/gzip': (r) => r.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(JSON_BODY)),
  '/deflate': (r) => r.writeHead(400, { 'content-type': 'application/json', 'content-encoding': 'deflate' }).end(deflateSync(JSON_BODY)),
  '/br': (r) => r.writeHead(401, { 'content-type': 'application/json', 'content-encoding': 'br' }).end(brotliCompressSync(JSON_BODY)),
  '/cookies': (r) =>
    r
      .writeHead(200, [
        ['set-cookie', 'a=1'],
        ['set-cookie', 'b=2'],
        ['content-type', 'text/plain'],
      ])
      .end('ok'),
  '/redirect': (r) => r.writeHead(302, { location: 'https://partner.example/callback?code=c' }).end(),
  '/gzip-cut-short': (r) => {
    const whole = gzipSync(JSON_BODY);
    r.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(whole.subarray(0, whole.length - 12));
  },
  '/raw-deflate': (r) =>
    r.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'deflate' }).end(deflateRawSync(JSON_BODY)),
  '/gzip-twice': (r) =>
    r.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip, gzip' }).end(gzipSync(gzipSync(JSON_BODY))),
  '/unknown-coding': (r) =>
    r.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip, compress' }).end(gzipSync(JSON_BODY)),
  '/gzip-empty': (r) => r.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(),
  '/empty': (r) => r.writeHead(204).end(),
  '/odd-status': (r) => r.writeHead(600, { 'content-type': 'text/plain' }).end('six hundred'),
};

let server: Server;
let origin = '';
const seen: IncomingMessage[] = [];
const agent = new Agent();

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push(request);
    request.resume();
    if (request.url === '/hang') return;
    (answers[request.url ?? ''] ?? answers['/plain']!)(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await agent.close();
});

/** The request both ways: what the server saw (names lower-case, in order of name) and what came back. */
async function bothWays(path: string, init: RequestInit = {}) {
  const made = () => new Request(`${origin}${path}`, { redirect: 'manual', ...init });
  const views = [];
  for (const way of ['fetch', 'direct'] as const) {
    const request = made();
    const signal = AbortSignal.timeout(NOT_HUNG_MS);
    const response =
      way === 'fetch'
        ? await fetch(new Request(request, { signal }), { dispatcher: agent } as RequestInit)
        : await directFetch(request, request.body ? new Uint8Array(await request.clone().arrayBuffer()) : undefined, signal, agent);
    const wire = seen.at(-1)!;
    const sent = Object.entries(wire.headers)
      .filter(([name]) => name !== 'host')
      .sort(([a], [b]) => a.localeCompare(b));
    views.push({
      sent: { method: wire.method, headers: sent },
      status: response.status,
      statusText: response.statusText,
      headers: [...response.headers].filter(([name]) => !['date', 'keep-alive', 'connection'].includes(name)),
      cookies: response.headers.getSetCookie(),
      url: response.url,
      body: await response.text(),
    });
  }
  return views;
}

describe('a request sent on undici request() instead of fetch', () => {
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
    ['a gzip answer', '/gzip', {}],
    ['a deflate answer', '/deflate', {}],
    ['a brotli answer', '/br', {}],
    ['a gzip answer cut short', '/gzip-cut-short', {}],
    ['a raw deflate answer', '/raw-deflate', {}],
    ['an answer gzipped twice', '/gzip-twice', {}],
    ['an answer with a coding fetch does not know', '/unknown-coding', {}],
    ['an empty gzip answer', '/gzip-empty', {}],
    ['two cookies', '/cookies', {}],
    ['a redirect, not followed', '/redirect', {}],
    ['a 204', '/empty', { method: 'DELETE' }],
    ['a HEAD', '/plain', { method: 'HEAD' }],
    ['a status past 599', '/odd-status', {}],
  ] as const)('%s: the same request on the wire, the same answer back', async ([, path, init]) => {
    const [byFetch, direct] = await bothWays(path, init as RequestInit);
    expect(direct).toEqual(byFetch);
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

  it('hands on an answer whose encoding is broken, as fetch does: reading its body fails', async () => {
    answers['/broken'] = (r) => r.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end('not gzip');
    const request = new Request(`${origin}/broken`, { redirect: 'manual' });
    const response = await directFetch(request, undefined, AbortSignal.timeout(NOT_HUNG_MS), agent);
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow(TypeError);
  });
});
