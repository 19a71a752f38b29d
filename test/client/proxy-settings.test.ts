// The connections of src/connections.ts, in this process (connections.test.ts runs the README's way, a new Node per
// environment, which mutation testing cannot see): how the proxy variables are read, which requests go through the
// proxy (NO_PROXY's rules), a proxy as an error shows it, the connections opened (kept alive or one per request, for how
// long, trusting which CA, through the proxy for one scheme or both), one pool per set of settings, and the least round
// trip the contract suite sizes its workers by. Real loopback servers, an in-process forward proxy that is the only
// route to a host name no DNS knows, and a CA made for the run.
import { createServer, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ForwardProxy, startForwardProxy } from '../../contract-tests/fixtures/forward-proxy.ts';
import { makeTestCertificates, type TestCertificates } from '../../contract-tests/fixtures/test-certificates.ts';
import {
  type Connections,
  connections,
  displayProxy,
  isStaleConnection,
  type ProxySettings,
  proxyFor,
  proxySettings,
  sharedConnections,
  trackReusedConnections,
} from '../../src/connections.ts';
import { dropConnection, startLoopbackServer } from './loopback-server.ts';
import { DIRECT, untilConnectionsFree } from './pools.ts';

const HOST = 'fleet.partner.invalid';
const LOOPBACK = 'localhost,127.0.0.1,[::1]';

describe('the proxy variables', () => {
  it('are read in either case, the lower-case one first, trimmed, a blank one as unset', () => {
    expect(proxySettings({ http_proxy: 'http://lower:1', HTTP_PROXY: 'http://upper:2' }).httpProxy).toBe('http://lower:1');
    expect(proxySettings({ HTTP_PROXY: ' http://upper:2 ' }).httpProxy).toBe('http://upper:2');
    expect(proxySettings({ https_proxy: '   ', HTTPS_PROXY: 'http://upper:3' })).toEqual(DIRECT);
    expect(proxySettings({})).toEqual(DIRECT);
  });

  it('send https through HTTPS_PROXY, else through HTTP_PROXY', () => {
    expect(proxySettings({ HTTP_PROXY: 'http://p:1', HTTPS_PROXY: 'http://s:2' })).toMatchObject({
      httpProxy: 'http://p:1',
      httpsProxy: 'http://s:2',
    });
    expect(proxySettings({ HTTP_PROXY: 'http://p:1' })).toMatchObject({ httpProxy: 'http://p:1', httpsProxy: 'http://p:1' });
    expect(proxySettings({ HTTPS_PROXY: 'http://s:2' })).toMatchObject({ httpProxy: undefined, httpsProxy: 'http://s:2' });
  });

  it("add this machine's loopback names to NO_PROXY: a proxy cannot reach them", () => {
    expect(proxySettings({ no_proxy: 'partner.example, other.example' }).noProxy).toBe(`partner.example, other.example,${LOOPBACK}`);
    expect(proxySettings({ NO_PROXY: '' }).noProxy).toBe(LOOPBACK);
  });

  it("are this process's environment unless given, and none where there is no process (a browser)", () => {
    const saved = process.env.HTTPS_PROXY;
    process.env.HTTPS_PROXY = 'http://from-the-environment:8080';
    try {
      expect(proxySettings().httpsProxy).toBe('http://from-the-environment:8080');
    } finally {
      if (saved === undefined) delete process.env.HTTPS_PROXY;
      else process.env.HTTPS_PROXY = saved;
    }
    const nodeProcess = globalThis.process;
    // Synchronous: nothing else runs while the global is gone.
    Object.defineProperty(globalThis, 'process', { value: undefined, configurable: true, writable: true });
    let settings: ProxySettings;
    try {
      settings = proxySettings();
    } finally {
      Object.defineProperty(globalThis, 'process', { value: nodeProcess, configurable: true, writable: true });
    }
    expect(settings).toEqual(DIRECT);
  });
});

describe('which requests go through the proxy', () => {
  const settings = (noProxy: string): ProxySettings => ({
    httpProxy: 'http://plain-proxy:3128',
    httpsProxy: 'http://tls-proxy:3128',
    noProxy: `${noProxy},${LOOPBACK}`,
  });

  it('https through HTTPS_PROXY, http through HTTP_PROXY, and a scheme without a proxy direct', () => {
    expect(proxyFor('https://api.partner.example/v1', settings(''))).toBe('http://tls-proxy:3128');
    expect(proxyFor(new URL('http://api.partner.example/v1'), settings(''))).toBe('http://plain-proxy:3128');
    expect(proxyFor('http://api.partner.example/', { ...DIRECT, httpsProxy: 'http://tls-proxy:3128' })).toBeUndefined();
  });

  it('never loopback, with or without a port', () => {
    for (const url of ['http://localhost/', 'http://127.0.0.1:8080/x', 'https://[::1]:8443/', 'http://LOCALHOST:80/'])
      expect(proxyFor(url, settings('')), url).toBeUndefined();
  });

  it('NO_PROXY: a host and its subdomains, with or without a leading . or *., in any case, separated by commas or spaces', () => {
    for (const entry of ['partner.example', '.partner.example', '*.partner.example', 'PARTNER.Example', 'a.example  partner.example'])
      for (const url of ['https://partner.example/', 'https://api.partner.example:8443/', 'http://deep.api.partner.example/'])
        expect(proxyFor(url, settings(entry)), `${entry} ${url}`).toBeUndefined();
    for (const url of ['https://xpartner.example/', 'https://partner.example.org/', 'https://example/'])
      expect(proxyFor(url, settings('partner.example')), url).toBe('http://tls-proxy:3128');
  });

  it('NO_PROXY: host:port only at that port, the default one of the scheme included', () => {
    expect(proxyFor('https://partner.example:8443/', settings('partner.example:8443'))).toBeUndefined();
    expect(proxyFor('https://partner.example/', settings('partner.example:8443'))).toBe('http://tls-proxy:3128');
    expect(proxyFor('https://partner.example/', settings('partner.example:443'))).toBeUndefined();
    expect(proxyFor('http://partner.example/', settings('partner.example:80'))).toBeUndefined();
    expect(proxyFor('http://partner.example/', settings('partner.example:443'))).toBe('http://plain-proxy:3128');
  });

  it('NO_PROXY: * sends nothing through the proxy; empty entries change nothing', () => {
    expect(proxyFor('https://partner.example/', settings('*'))).toBeUndefined();
    expect(proxyFor('https://partner.example/', settings('a.example,,*'))).toBeUndefined();
    expect(proxyFor('https://partner.example/', settings(', ,.,*.,:443'))).toBe('http://tls-proxy:3128');
  });
});

describe('a proxy as an error shows it', () => {
  it('without its user name and password, and a URL that does not parse as such', () => {
    expect(displayProxy('http://someone:secret-password@proxy.partner.example:3128/')).toBe('http://proxy.partner.example:3128');
    expect(displayProxy('https://proxy.partner.example')).toBe('https://proxy.partner.example');
    expect(displayProxy('not a url')).toBe('(a proxy URL that does not parse)');
  });
});

describe('the connections the client opens', () => {
  let certificates: TestCertificates;
  let plain: Server;
  let secure: Server;
  let proxy: ForwardProxy;
  let connectionsSeen = 0;
  let plainPort = 0;
  let securePort = 0;

  beforeAll(async () => {
    certificates = makeTestCertificates([HOST, '127.0.0.1']);
    const answer: Parameters<typeof createServer>[1] = (request, response) => {
      request.resume();
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    };
    plain = createServer(answer);
    // No Keep-Alive header: the client's own keep-alive time applies.
    plain.keepAliveTimeout = 0;
    plain.on('connection', () => connectionsSeen++);
    secure = createTlsServer({ key: certificates.key, cert: certificates.cert }, answer) as unknown as Server;
    const listen = async (server: Server) => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return (server.address() as AddressInfo).port;
    };
    [plainPort, securePort] = [await listen(plain), await listen(secure)];
    proxy = await startForwardProxy({ hosts: { [HOST]: '127.0.0.1' } });
  });
  afterAll(async () => {
    for (const server of [plain, secure]) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    await proxy.close();
    certificates.remove();
  });
  afterEach(() => {
    connectionsSeen = 0;
  });

  /** The body of a GET of `url` over `dispatcher`, or the code of the failure. */
  const get = (url: string, dispatcher: Connections[keyof Connections]) =>
    fetch(url, { dispatcher } as RequestInit).then(
      (response) => response.text(),
      (error: { cause?: { code?: string } }) => error.cause?.code ?? String(error),
    );
  it('keeps a connection alive for the next request, or opens one per request (the re-send on a new connection)', async () => {
    const { pooled, fresh } = connections({}, DIRECT);
    const url = `http://127.0.0.1:${plainPort}/`;
    const origin = `http://127.0.0.1:${plainPort}`;
    expect(await get(url, pooled)).toBe('ok');
    await untilConnectionsFree(pooled, origin);
    expect(await get(url, pooled)).toBe('ok');
    expect(connectionsSeen).toBe(1);
    expect(await get(url, fresh)).toBe('ok');
    // Free for the next request, or closed: only a connection kept alive could be used again.
    await untilConnectionsFree(fresh, origin);
    expect(await get(url, fresh)).toBe('ok');
    expect(connectionsSeen).toBe(3);
  });

  it('keeps an idle connection no longer than keepAliveMs when the server announced no keep-alive time', async () => {
    const { pooled } = connections({ keepAliveMs: 1 }, DIRECT);
    const url = `http://127.0.0.1:${plainPort}/`;
    expect(await get(url, pooled)).toBe('ok');
    // The time is what is tested: 50 ms is past the 1 ms, and short of the 4 s that would keep the connection. undici's
    // 1 ms timer starts as the answer completes, before this one, so it always fires first, however busy the machine.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await get(url, pooled)).toBe('ok');
    expect(connectionsSeen).toBe(2);
  });

  it("trusts the CA it is given besides Node's, directly and in a tunnel through the proxy", async () => {
    const direct = `https://127.0.0.1:${securePort}/`;
    expect(await get(direct, connections({}, DIRECT).pooled)).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
    expect(await get(direct, connections({ ca: [certificates.ca] }, DIRECT).pooled)).toBe('ok');
    expect(await get(direct, connections({ ca: [certificates.ca] }, DIRECT).fresh)).toBe('ok');
    const tunnelled = `https://${HOST}:${securePort}/`;
    const through = { ...DIRECT, httpsProxy: proxy.origin };
    expect(await get(tunnelled, connections({ ca: [certificates.ca] }, through).pooled)).toBe('ok');
    expect(await get(tunnelled, connections({}, through).pooled)).not.toBe('ok');
  });

  it('goes through the proxy for https alone, and for http too when it has one (no DNS knows the host)', async () => {
    const https = `https://${HOST}:${securePort}/`;
    const http = `http://${HOST}:${plainPort}/`;
    const before = proxy.log().tunnels.length;
    const onlyHttps = connections({ ca: [certificates.ca] }, { ...DIRECT, httpsProxy: proxy.origin });
    expect(await get(https, onlyHttps.pooled)).toBe('ok');
    expect(await get(http, onlyHttps.pooled)).toMatch(/^(ENOTFOUND|EAI_AGAIN)$/);
    const onlyHttp = connections({ ca: [certificates.ca] }, { ...DIRECT, httpProxy: proxy.origin });
    expect(await get(http, onlyHttp.pooled)).toBe('ok');
    expect(proxy.log().tunnels.slice(before)).toEqual([`${HOST}:${securePort}`, `${HOST}:${plainPort}`]);
  });

  it('follows the settings it was given, not the environment at the time of the request', async () => {
    const saved = process.env.HTTP_PROXY;
    process.env.HTTP_PROXY = proxy.origin;
    try {
      const before = proxy.log().tunnels.length;
      expect(await get(`http://${HOST}:${plainPort}/`, connections({}, { ...DIRECT, httpsProxy: proxy.origin }).pooled)).toMatch(
        /^(ENOTFOUND|EAI_AGAIN)$/,
      );
      expect(proxy.log().tunnels).toHaveLength(before);
    } finally {
      if (saved === undefined) delete process.env.HTTP_PROXY;
      else process.env.HTTP_PROXY = saved;
    }
  });
});

describe('the connections of every client built without a fetch or dispatcher of its own', () => {
  it('are one pool per set of proxy settings', () => {
    const settings = { ...DIRECT, noProxy: `shared.example,${LOOPBACK}` };
    const first = sharedConnections(settings);
    expect(sharedConnections({ ...settings })).toBe(first);
    expect(sharedConnections({ ...settings, httpsProxy: 'http://tls-proxy:3128' })).not.toBe(first);
    expect(first.pooled).not.toBe(first.fresh);
  });
});

describe('the tracking every client starts when it is built', () => {
  // First in this file to start it (as the first client built does), and again (as every next client does), while a
  // request is out already.
  it('starts while a request is out, twice, and takes no new connection for a stale one', async () => {
    let held: ServerResponse | undefined;
    let arrived = () => {};
    const server = await startLoopbackServer((request, response) => {
      if (request.url === '/drop') return dropConnection(response);
      if (request.url !== '/held') return void response.end('ok');
      held = response;
      arrived();
    });
    try {
      const out = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const before = fetch(`${server.origin}/held`);
      await out;
      trackReusedConnections();
      trackReusedConnections();
      // On a new connection (the first one is busy), closed before any answer.
      const error = await fetch(`${server.origin}/drop`, { method: 'POST', body: 'x' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect(isStaleConnection(error)).toBe(false);
      held?.end('ok');
      expect(await (await before).text()).toBe('ok');
    } finally {
      await server.close();
    }
  });

  /** What fetch rejects with when a kept-alive connection is ended by `end` (the server's side) as the next request comes. */
  async function reusedConnectionEnded(end: (socket: Socket) => void): Promise<unknown> {
    const used = new WeakSet<object>();
    const server = await startLoopbackServer((_request, response) => {
      if (used.has(response.socket!)) return end(response.socket!);
      used.add(response.socket!);
      response.end('ok');
    });
    try {
      const dispatcher = connections({}, DIRECT).pooled;
      const init = { dispatcher } as RequestInit;
      expect(await (await fetch(server.origin, init)).text()).toBe('ok');
      await untilConnectionsFree(dispatcher, server.origin);
      return await fetch(server.origin, init).catch((e: unknown) => e);
    } finally {
      await server.close();
    }
  }

  it('knows a kept-alive connection closed or reset before any byte of the answer, by what fetch rejects with and by its cause', async () => {
    trackReusedConnections();
    const ends = { UND_ERR_SOCKET: (socket: Socket) => socket.destroy(), ECONNRESET: (socket: Socket) => socket.resetAndDestroy() };
    for (const [code, end] of Object.entries(ends)) {
      const error = (await reusedConnectionEnded(end)) as Error & { cause: { code?: string } };
      expect(error.cause.code).toBe(code);
      expect(isStaleConnection(error), code).toBe(true);
      expect(isStaleConnection(error.cause), code).toBe(true);
    }
    // A caller's fetch may reject with anything.
    for (const other of [undefined, null, 'socket hang up', 42, new Error('other', { cause: 'x' })])
      expect(isStaleConnection(other), String(other)).toBe(false);
  });
});
