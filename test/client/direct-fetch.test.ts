// The client's own transport (src/direct-fetch.ts) against Node's fetch, side by side over the same undici dispatcher
// and the same loopback server: what the server sees and what the caller gets must be the same, answer by answer and
// failure by failure. Where they could differ only by design (the transport is not fetch), the test says so.
import { createServer, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ANSWER_BODY, DECODED_TO_BODY, FETCH_ANSWERS } from '../../contract-tests/fixtures/fetch-answers.ts';
import { directFetch } from '../../src/direct-fetch.ts';
import { fetchDefaultHeaders } from '../../src/fetch-semantics.ts';

const sockets = new Set<Socket>();
let bodyWritten: () => void = () => undefined;

/** Each path is one behaviour of the server's: fetch's own cases (FETCH_ANSWERS), and these. */
const ROUTES: Record<string, (response: ServerResponse, seen: string) => void> = {
  ...FETCH_ANSWERS,
  '/echo': (response, seen) => response.writeHead(200, { 'content-type': 'application/json' }).end(seen),
  '/redirect-home': (response) => response.writeHead(302, { location: '/echo' }).end('moved'),
  '/half': (response) => {
    response.writeHead(200, { 'content-length': '100' }).write('{"partial":');
    bodyWritten();
    setImmediate(() => response.socket?.destroy());
  },
  '/stalls': (response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).write('{"partial":');
    bodyWritten();
  },
};

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    // The order of headers of different names carries no meaning (RFC 9110 section 5.3): they are compared sorted.
    const { host: _host, ...given } = request.headers;
    const headers = Object.fromEntries(Object.entries(given).sort(([a], [b]) => a.localeCompare(b)));
    const seen = JSON.stringify({ method: request.method, headers, body: Buffer.concat(chunks).toString('utf8') });
    ROUTES[request.url ?? '']?.(response, seen);
  });
});
server.on('connection', (socket) => {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
});
const dispatcher = new Agent();
let origin = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => vi.unstubAllGlobals());
afterAll(async () => {
  await dispatcher.close();
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
});

type Init = RequestInit & { dispatcher?: Agent };
const nodeFetch = globalThis.fetch;

/** What a caller can observe of one exchange: the answer and its body, or the failure and its cause. */
async function outcome(send: (url: string, init: Init) => Promise<Response>, path: string, init: Init = {}) {
  try {
    const response = await send(`${origin}${path}`, { redirect: 'manual', ...init, dispatcher });
    const { status, statusText, ok, url } = response;
    const headers = [...response.headers].filter(([name]) => name !== 'date' && name !== 'keep-alive');
    const body = response.body === null ? null : await response.text().catch(failure);
    return { status, statusText, ok, url, headers, setCookies: response.headers.getSetCookie(), body };
  } catch (error) {
    return failure(error);
  }
}

function failure(error: unknown) {
  const { name, message, cause } = error as Error & { cause?: Error & { code?: string } };
  return { failed: { name, message, cause: cause && { name: cause.name, code: cause.code, message: cause.message } } };
}

/** Both transports, one after the other, to a server that answers every request with `answer`, byte for byte. */
async function bothRaw(answer: string) {
  const raw = createNetServer((socket) => socket.once('data', () => socket.end(answer)));
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}/`;
  const init = { dispatcher, redirect: 'manual' } as const;
  try {
    return [await outcome(() => directFetch(url, init), ''), await outcome(() => nodeFetch(url, init), '')];
  } finally {
    raw.close();
  }
}

/** Both transports, one after the other, each with the same request. */
const both = async (path: string, init: Init = {}) => [await outcome(directFetch, path, init), await outcome(nodeFetch, path, init)];

describe("the client's own transport and Node's fetch, over the same connections", () => {
  it('send the same headers and body: a GET, a string body without a type, and headers of the caller that fetch would add', async () => {
    for (const init of [
      {},
      { method: 'POST', body: ANSWER_BODY },
      { method: 'POST', body: '', headers: new Headers({ 'Content-Type': 'application/json', 'x-mine': 'yes' }) },
      { headers: { Accept: 'application/json', 'User-Agent': 'partner/1.0', 'Accept-Encoding': 'identity', 'Accept-Language': 'de' } },
    ] satisfies Init[]) {
      const [direct, node] = await both('/echo', init);
      expect(direct).toEqual(node);
      expect(direct).toMatchObject({ status: 200 });
    }
  });

  it('give the same answer: status, reason phrase, repeated headers, cookies, body and URL', async () => {
    const [direct, node] = await both('/reason');
    expect(direct).toEqual(node);
    expect(direct).toMatchObject({ status: 201, statusText: 'Quite Custom', setCookies: ['a=1', 'b=2'], body: ANSWER_BODY });
    expect(direct).toMatchObject({ url: `${origin}/reason` });
  });

  it('decode gzip, deflate and a chain of codings alike, and leave a coding they do not know as it came', async () => {
    for (const path of DECODED_TO_BODY) {
      const [direct, node] = await both(path);
      expect(direct).toEqual(node);
      expect(direct).toMatchObject({ body: ANSWER_BODY });
    }
    const [direct, node] = await both('/unknown-coding');
    expect(direct).toEqual(node);
    expect(direct).toMatchObject({ body: gzipSync(ANSWER_BODY).toString('utf8') });
  });

  it('decode a body cut short, and an empty one, alike', async () => {
    for (const path of ['/gzip-cut-short', '/br-cut-short', '/gzip-empty', '/deflate-empty']) {
      const [direct, node] = await both(path);
      expect(direct).toEqual(node);
    }
    expect((await both('/br-cut-short'))[0]).toMatchObject({ body: expect.stringMatching(/^\{"/) });
  });

  it('fail alike on a body that does not inflate: the read fails', async () => {
    const [direct, node] = await both('/deflate-corrupt');
    expect(direct).toMatchObject({ body: { failed: { name: 'TypeError', message: 'terminated' } } });
    expect(node).toMatchObject({ body: { failed: { name: 'TypeError', message: 'terminated' } } });
  });

  it('refuse more content codings than fetch decodes, alike', async () => {
    const [direct, node] = await both('/too-many-codings');
    const tooMany = 'too many content-encodings in response: 6, maximum allowed is 5';
    expect(direct).toMatchObject({ failed: { name: 'TypeError', message: 'fetch failed', cause: { message: tooMany } } });
    expect(node).toMatchObject({ failed: { name: 'TypeError', message: 'fetch failed', cause: { message: tooMany } } });
  });

  it('give no body for a 204 or a HEAD, a status above 599 as it came, and a redirect unfollowed', async () => {
    for (const [path, init] of [
      ['/no-content', {}],
      ['/reason', { method: 'HEAD' }],
      ['/status-599', {}],
      ['/status-600', {}],
      ['/redirect', { redirect: 'manual' }],
    ] as const) {
      const [direct, node] = await both(path, init);
      expect(direct).toEqual(node);
    }
    expect((await both('/status-600'))[0]).toMatchObject({ status: 600, ok: false, body: 'odd' });
    expect((await both('/redirect'))[0]).toMatchObject({ status: 302, body: 'moved' });
  });

  it('give the reason phrase as the server sent it, a control character in it too', async () => {
    const [direct, node] = await bothRaw('HTTP/1.1 200 O\x01K\r\ncontent-length: 2\r\n\r\nok');
    expect(direct).toEqual(node);
    expect(direct).toMatchObject({ status: 200, statusText: 'O\x01K', body: 'ok' });
  });

  it('differ by design on one point: a header value loses its trailing whitespace (RFC 9110 section 5.5), which fetch keeps', async () => {
    const [direct, node] = await bothRaw('HTTP/1.1 200 OK\r\nx-padded:   value   \r\ncontent-length: 2\r\n\r\nok');
    expect(direct).toMatchObject({ headers: expect.arrayContaining([['x-padded', 'value']]) });
    expect(node).toMatchObject({ headers: expect.arrayContaining([['x-padded', expect.stringMatching(/^value\s*$/)]]) });
  });

  it('fail alike when the connection drops in the middle of the body: a TypeError "terminated" with its cause', async () => {
    const [direct, node] = await both('/half');
    expect(direct).toEqual(node);
    expect(direct).toMatchObject({ body: { failed: { name: 'TypeError', message: 'terminated', cause: { name: expect.any(String) } } } });
  });

  it('fail alike when nothing listens: a TypeError "fetch failed" whose cause is ECONNREFUSED', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const url = `http://127.0.0.1:${port}/`;
    const direct = await directFetch(url, { dispatcher, redirect: 'manual' } as Init).catch(failure);
    const node = await nodeFetch(url, { dispatcher, redirect: 'manual' } as Init).catch(failure);
    expect(direct).toEqual(node);
    expect(direct).toMatchObject({ failed: { name: 'TypeError', message: 'fetch failed', cause: { code: 'ECONNREFUSED' } } });
  });

  it("fail with the signal's own reason, before the answer and while its body arrives", async () => {
    const reason = new DOMException('gave up', 'TimeoutError');
    for (const send of [directFetch, nodeFetch]) {
      const init = { dispatcher, redirect: 'manual' } as const;
      expect(await send(`${origin}/echo`, { ...init, signal: AbortSignal.abort(reason) }).catch((e: unknown) => e)).toBe(reason);
      const controller = new AbortController();
      const written = new Promise<void>((resolve) => (bodyWritten = resolve));
      const response = await send(`${origin}/stalls`, { ...init, signal: controller.signal });
      const text = response.text().catch((e: unknown) => e);
      await written;
      controller.abort(reason);
      expect(await text).toBe(reason);
    }
  });
});

describe("what the client's own transport leaves to Node's fetch", () => {
  // fetch's answers are of type 'basic', those the transport makes itself 'default': the type tells who sent it.
  const sentBy = async (input: Request | string, init?: Init) => {
    const response = await directFetch(input, init);
    await response.text();
    return response.type === 'default' ? 'itself' : response.type === 'basic' ? 'fetch' : response.type;
  };

  it('it sends itself what has a string body or none, a dispatcher and redirect: manual; fetch sends the rest', async () => {
    const url = `${origin}/echo`;
    const own = { dispatcher, redirect: 'manual' } as const;
    expect(await sentBy(url, { ...own, method: 'POST', body: '{}' })).toBe('itself');
    expect(await sentBy(url, own)).toBe('itself');
    expect(await sentBy(url, { ...own, body: null })).toBe('itself');
    expect(await sentBy(url)).toBe('fetch');
    expect(await sentBy(url, { redirect: 'manual' })).toBe('fetch');
    expect(await sentBy(url, { dispatcher })).toBe('fetch');
    expect(await sentBy(url, { ...own, method: 'POST', body: new URLSearchParams({ a: '1' }) })).toBe('fetch');
    expect(await sentBy(new Request(url), own)).toBe('fetch');
  });

  it("asks for fetch's codings: br too over https (the scheme, not the URL's end)", () => {
    const encoding = (url: string) => new Map(fetchDefaultHeaders(url, () => false)).get('accept-encoding');
    expect(encoding('https://partner.example/v1')).toBe('br, gzip, deflate');
    expect(encoding('http://partner.example/https:')).toBe('gzip, deflate');
    expect(fetchDefaultHeaders('https://partner.example/', (name) => name !== 'user-agent')).toEqual([['user-agent', 'node']]);
  });

  it('a body that is not a string, and a Request: fetch sends them', async () => {
    const form = await outcome(directFetch, '/echo', { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials' }) });
    expect(form).toMatchObject({ status: 200 });
    expect(JSON.parse((form as { body: string }).body)).toMatchObject({
      headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
      body: 'grant_type=client_credentials',
    });
    const sent = await directFetch(new Request(`${origin}/echo`, { method: 'PUT', body: 'a' }), { dispatcher, redirect: 'manual' } as Init);
    expect(JSON.parse(await sent.text())).toMatchObject({ method: 'PUT', body: 'a' });
  });

  it('a redirect to follow: fetch follows it', async () => {
    const followed = await directFetch(`${origin}/redirect-home`, { dispatcher } as Init);
    expect(followed).toMatchObject({ status: 200, redirected: true, url: `${origin}/echo` });
  });

  it('a globalThis.fetch replaced since the transport loaded (a test tool such as MSW) sends every request', async () => {
    const seen: string[] = [];
    vi.stubGlobal('fetch', async (input: string) => {
      seen.push(input);
      return new Response('from the replacement');
    });
    const response = await directFetch(`${origin}/echo`, { method: 'POST', body: '{}', dispatcher, redirect: 'manual' } as Init);
    expect(await response.text()).toBe('from the replacement');
    expect(seen).toEqual([`${origin}/echo`]);
  });
});
