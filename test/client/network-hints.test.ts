// What an error says to do about a network failure, for every cause src/network-hints.ts knows: each certificate Node
// refuses, a handshake with a server that speaks no TLS, DNS, a refused connection, the code of the first of several
// addresses, and, through a proxy, each refusal of a tunnel and a proxy that cannot be reached. The contract suite says
// the same words in its "could not judge" lines, and asks which failures a second try cannot mend (isTlsFailure).
// A fetch of the caller's that fails as Node's fetch does (a TypeError whose cause carries the code), in-process
// CONNECT proxies on loopback that refuse with a status, and a loopback port nothing listens on.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, createFleetClient } from '../../src/index.ts';
import { isTlsFailure, networkHint, proxyRefusal } from '../../src/network-hints.ts';

const FLEET_API_KEY = 'fleet-api-key-DO-NOT-PRINT-9012';
const PROXY_PASSWORD = 'proxy-password-DO-NOT-PRINT-77';

/** A system error as Node reports it: an Error with a code. */
/** The codes of a certificate signed by a CA Node does not know. */
const UNKNOWN_CA_CODES = [
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
];
const systemError = (code: string, message = `${code}: something failed`) => Object.assign(new Error(message), { code });

/** The ApiError of a fleet call whose every try fails as fetch fails: a TypeError whose cause is `cause`. */
async function failingWith(cause: unknown, baseUrl = 'https://fleet.partner.invalid/api'): Promise<ApiError> {
  const fetch = () => Promise.reject(new TypeError('fetch failed', { cause }));
  const fleet = createFleetClient({ baseUrl, fleetApiKey: FLEET_API_KEY, fetch, retry: { attempts: 1 } });
  const error = await fleet.GET('/vehicles').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).kind).toBe('network');
  return error as ApiError;
}

describe('the hint of a failure Node reports with a code', () => {
  it('a certificate signed by a CA Node does not know: each code, with NODE_EXTRA_CA_CERTS and the option', async () => {
    for (const code of UNKNOWN_CA_CODES)
      expect((await failingWith(systemError(code))).hint, code).toBe(
        `The TLS certificate of fleet.partner.invalid:443 is not trusted (${code}): it is signed by a CA Node does not know. If the server's CA is a private one (your partner's own, or a proxy that inspects TLS), give Node that CA's certificate when it starts: NODE_EXTRA_CA_CERTS=/path/to/ca.pem; otherwise check that "baseUrl" names the right host.`,
      );
  });

  it('an expired certificate, one not valid yet, and one for another host name', async () => {
    expect((await failingWith(systemError('CERT_HAS_EXPIRED'))).hint).toBe(
      "The TLS certificate of fleet.partner.invalid:443 is expired (CERT_HAS_EXPIRED): the server's operator must renew it (or check this machine's clock).",
    );
    expect((await failingWith(systemError('CERT_NOT_YET_VALID'), 'https://fleet.partner.invalid:8443/api')).hint).toBe(
      "The TLS certificate of fleet.partner.invalid:8443 is not valid yet (CERT_NOT_YET_VALID): the server's operator must renew it (or check this machine's clock).",
    );
    expect((await failingWith(systemError('ERR_TLS_CERT_ALTNAME_INVALID'))).hint).toBe(
      `The TLS certificate of fleet.partner.invalid:443 is issued for another host name (ERR_TLS_CERT_ALTNAME_INVALID): check the host in "baseUrl" against the name the server's certificate is for.`,
    );
  });

  it('a TLS handshake with a server that speaks plain http: for https URLs only, with the code and not OpenSSL text', async () => {
    for (const code of ['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'EPROTO']) {
      const error = await failingWith(systemError(code, `${code}: 4C2F0000:error:0A00010B:SSL routines:ssl3_get_record`));
      expect(error.hint, code).toBe(
        `The TLS handshake with fleet.partner.invalid:443 failed (${code}): the server most likely speaks plain http on that port. Use an http:// URL in "baseUrl" (a local sandbox or mock is http), or the port where the server speaks https.`,
      );
    }
    // Over http, the same codes say nothing certain.
    expect((await failingWith(systemError('EPROTO'), 'http://fleet.partner.invalid/api')).hint).toBeUndefined();
  });

  it('DNS: a name that does not resolve, and a lookup that failed for now', async () => {
    expect((await failingWith(systemError('ENOTFOUND'), 'http://fleet.partner.invalid/api')).hint).toBe(
      'The host name fleet.partner.invalid does not resolve (DNS): check the host in "baseUrl" for a typo, and that this machine can resolve it (VPN, proxy, /etc/hosts); behind a proxy, set HTTPS_PROXY (or HTTP_PROXY).',
    );
    expect((await failingWith(systemError('EAI_AGAIN'))).hint).toBe(
      "The DNS lookup of fleet.partner.invalid failed for now (EAI_AGAIN): check this machine's network and DNS resolver, then try again.",
    );
  });

  it('a refused connection, at the port of the URL or the default port of its scheme', async () => {
    expect((await failingWith(systemError('ECONNREFUSED'), 'http://fleet.partner.invalid/api')).hint).toBe(
      'Nothing accepts connections at fleet.partner.invalid:80: check that the server is running, and the host and port in "baseUrl".',
    );
    expect((await failingWith(systemError('ECONNREFUSED'), 'https://fleet.partner.invalid:9443/api')).hint).toBe(
      'Nothing accepts connections at fleet.partner.invalid:9443: check that the server is running, and the host and port in "baseUrl".',
    );
  });

  it('takes the code of the first address when every address of a host failed (Node reports them together)', async () => {
    const all = new AggregateError([systemError('ECONNREFUSED'), systemError('ENETUNREACH')], 'every address failed');
    expect((await failingWith(all, 'http://fleet.partner.invalid:8080/api')).hint).toBe(
      'Nothing accepts connections at fleet.partner.invalid:8080: check that the server is running, and the host and port in "baseUrl".',
    );
  });

  it('says nothing when the cause is not certain (a reset connection, a code that is not a string, no code)', async () => {
    for (const cause of [systemError('ECONNRESET'), Object.assign(new Error('odd'), { code: 61 }), new Error('no code')]) {
      const error = await failingWith(cause);
      expect(error.hint, String(cause)).toBeUndefined();
      expect(error.message, String(cause)).toMatch(/ \[https:\/\/fleet\.partner\.invalid\/api\/vehicles\]$/);
    }
  });
});

describe('the hint of a failure through a proxy', () => {
  const PROXY_VARIABLES = ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy'];
  const servers: Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  /** A proxy that answers every CONNECT with `status`, and every other request with 502. */
  async function refusingProxy(status: number): Promise<string> {
    const proxy = createServer((_request, response) => response.writeHead(502).end());
    proxy.on('connect', (_request, socket) => socket.end(`HTTP/1.1 ${status} Refused\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`));
    servers.push(proxy);
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  }

  /** A fleet client built while the proxy variables are `env` (the client reads them when it is built), then restored. */
  function fleetBehind(env: Record<string, string>, baseUrl: string) {
    const saved = PROXY_VARIABLES.map((name) => [name, process.env[name]] as const);
    for (const name of PROXY_VARIABLES) delete process.env[name];
    Object.assign(process.env, env);
    try {
      return createFleetClient({ baseUrl, fleetApiKey: FLEET_API_KEY, retry: { attempts: 1 } });
    } finally {
      for (const [name, value] of saved) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  }

  const hintOf = async (call: Promise<unknown>) => {
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(JSON.stringify(error) + String(error)).not.toContain(PROXY_PASSWORD);
    return (error as ApiError).hint;
  };

  it('a proxy that wants credentials (407), over https and over http, without showing the credentials it was given', async () => {
    const proxy = (await refusingProxy(407)).replace('//', `//someone:${PROXY_PASSWORD}@`);
    const shown = proxy.replace(`someone:${PROXY_PASSWORD}@`, '');
    const https = fleetBehind({ HTTPS_PROXY: proxy }, 'https://fleet.partner.invalid/api');
    expect(await hintOf(https.GET('/vehicles'))).toBe(
      `The proxy ${shown} wants credentials (407) to open a tunnel to fleet.partner.invalid:443: put them in HTTPS_PROXY (or HTTP_PROXY) (http://user:password@proxy:port).`,
    );
    const http = fleetBehind({ http_proxy: proxy }, 'http://fleet.partner.invalid:8080/api');
    expect(await hintOf(http.GET('/vehicles'))).toBe(
      `The proxy ${shown} wants credentials (407) to open a tunnel to fleet.partner.invalid:8080: put them in HTTP_PROXY (http://user:password@proxy:port).`,
    );
  });

  it('a proxy that refuses the host (403), and one that cannot open the tunnel (502)', async () => {
    const forbidding = await refusingProxy(403);
    expect(await hintOf(fleetBehind({ HTTPS_PROXY: forbidding }, 'https://fleet.partner.invalid/api').GET('/vehicles'))).toBe(
      `The proxy ${forbidding} refuses a tunnel to fleet.partner.invalid:443 (403): ask for the host to be allowed, or list it in NO_PROXY if this machine reaches it directly.`,
    );
    const failing = await refusingProxy(502);
    expect(await hintOf(fleetBehind({ HTTPS_PROXY: failing }, 'https://fleet.partner.invalid/api').GET('/vehicles'))).toBe(
      `The proxy ${failing} could not open a tunnel to fleet.partner.invalid:443 (502): check the host and port, and that the proxy can reach them.`,
    );
  });

  it('a proxy nothing answers at: names the variable to check, or NO_PROXY', async () => {
    const closed = await refusingProxy(200);
    const origin = closed;
    const server = servers.pop()!;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(await hintOf(fleetBehind({ HTTP_PROXY: origin }, 'https://fleet.partner.invalid/api').GET('/vehicles'))).toBe(
      `The proxy ${origin} (from HTTPS_PROXY (or HTTP_PROXY)) cannot be reached (ECONNREFUSED): check HTTPS_PROXY (or HTTP_PROXY), or list fleet.partner.invalid:443 in NO_PROXY if this machine reaches it directly.`,
    );
  });

  it('a host listed in NO_PROXY goes direct, and its hint is the direct one', async () => {
    const proxy = await refusingProxy(407);
    const fleet = fleetBehind({ HTTPS_PROXY: proxy, NO_PROXY: 'partner.invalid' }, 'https://fleet.partner.invalid/api');
    expect(await hintOf(fleet.GET('/vehicles'))).toMatch(
      /^The (host name fleet\.partner\.invalid does not resolve|DNS lookup of fleet\.partner\.invalid failed for now)/,
    );
  });
});

describe('what the contract suite reads from a failure', () => {
  it('a TLS failure, which no second try mends: a refused certificate, or a handshake with a server without TLS', () => {
    for (const code of [
      ...UNKNOWN_CA_CODES,
      'CERT_HAS_EXPIRED',
      'CERT_NOT_YET_VALID',
      'ERR_TLS_CERT_ALTNAME_INVALID',
      'ERR_SSL_WRONG_VERSION_NUMBER',
      'EPROTO',
    ])
      expect(isTlsFailure(code), code).toBe(true);
    for (const code of [undefined, 'ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'XERR_SSL_', 'EPROTONOSUPPORT'])
      expect(isTlsFailure(code), String(code)).toBe(false);
  });

  it("the status of a proxy's refusal, found up to four causes deep", () => {
    const refusal = new Error('Proxy response (407) !== 200 when HTTP Tunneling');
    expect(proxyRefusal(refusal)).toBe(407);
    let wrapped: Error = refusal;
    for (let depth = 1; depth < 4; depth += 1) wrapped = new Error(`wrapper ${depth}`, { cause: wrapped });
    expect(proxyRefusal(wrapped)).toBe(407);
    expect(proxyRefusal(new Error('wrapper 4', { cause: wrapped }))).toBeUndefined();
    for (const other of [new Error('a Proxy response (407)'), new Error('Proxy response (40) !== 200'), 'Proxy response (407)', undefined])
      expect(proxyRefusal(other), String(other)).toBeUndefined();
  });

  it('a proxy that cannot be reached, by each code that says so, its credentials left out', () => {
    const proxy = `http://someone:${PROXY_PASSWORD}@proxy.partner.invalid:3128`;
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'])
      expect(networkHint(systemError(code), 'https://fleet.partner.invalid/api/vehicles', 'baseUrl', proxy), code).toBe(
        `The proxy http://proxy.partner.invalid:3128 (from HTTPS_PROXY (or HTTP_PROXY)) cannot be reached (${code}): check HTTPS_PROXY (or HTTP_PROXY), or list fleet.partner.invalid:443 in NO_PROXY if this machine reaches it directly.`,
      );
    // A failure the proxy says nothing certain about: the direct hint, as without a proxy.
    expect(networkHint(systemError('ERR_TLS_CERT_ALTNAME_INVALID'), 'https://fleet.partner.invalid/api', 'baseUrl', proxy)).toMatch(
      /^The TLS certificate of fleet\.partner\.invalid:443 is issued for another host name/,
    );
    expect(networkHint(systemError('ECONNRESET'), 'https://fleet.partner.invalid/api', 'baseUrl', proxy)).toBeUndefined();
  });

  it('no hint for a URL that does not parse', () => {
    expect(networkHint(systemError('ECONNREFUSED'), 'not a url', 'baseUrl')).toBeUndefined();
  });
});
