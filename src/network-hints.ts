// What to do about a network failure whose cause is known: TLS (a certificate Node does not trust, an expired one, one
// for another name, a scheme that does not match the port), DNS, a refused connection, and a proxy in the way. The
// client's errors carry these hints, and the contract suite's "could not judge" lines say the same words.
import { displayProxy } from './connections.js';

/**
 * The system or library code of a network failure (`ECONNREFUSED`, `ERR_SSL_WRONG_VERSION_NUMBER`), also of the first
 * of several.
 * @internal
 */
export function errorCode(cause: unknown): string | undefined {
  const own = (cause as { code?: unknown } | undefined)?.code;
  if (typeof own === 'string') return own;
  // Node 20+ tries every address of a host name (autoSelectFamily) and may report all of them as an AggregateError.
  const first = (cause as { errors?: unknown } | undefined)?.errors;
  return Array.isArray(first) ? errorCode(first[0]) : undefined;
}

/** A certificate signed by a CA Node does not know: a private CA (the partner's own, or a proxy that inspects TLS). */
const UNKNOWN_CA_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);
const EXPIRED_CODES = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);
const WRONG_NAME_CODE = 'ERR_TLS_CERT_ALTNAME_INVALID';

/**
 * A failure of TLS itself, which no second try mends: a certificate Node refuses, or a handshake with a server that
 * does not speak TLS on that port.
 * @internal
 */
export function isTlsFailure(code: string | undefined): boolean {
  if (code === undefined) return false;
  return (
    UNKNOWN_CA_CODES.has(code) || EXPIRED_CODES.has(code) || code === WRONG_NAME_CODE || code.startsWith('ERR_SSL_') || code === 'EPROTO'
  );
}

/**
 * The status a proxy answered a CONNECT with, from undici's error ("Proxy response (407) !== 200 when HTTP Tunneling").
 * @internal
 */
export function proxyRefusal(cause: unknown): number | undefined {
  // fetch may wrap it once more ("Request was cancelled.", a DOMException whose cause it is).
  for (let error = cause, depth = 0; error instanceof Error && depth < 4; error = error.cause, depth++) {
    const status = /^Proxy response \((\d{3})\)/.exec(error.message)?.[1];
    if (status !== undefined) return Number(status);
  }
  return undefined;
}

/**
 * What to do about a network failure, from its cause; undefined when the cause says nothing certain (a reset, a dropped
 * connection). `option` names where the URL came from (an option of the client, or an LP_* variable); `proxy` is the
 * proxy the request went through, if any (its credentials are never shown).
 * @internal
 */
export function networkHint(cause: unknown, url: string, option: string, proxy?: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const https = parsed.protocol === 'https:';
  const host = parsed.port ? parsed.host : `${parsed.host}:${https ? 443 : 80}`;
  const code = errorCode(cause);
  if (proxy !== undefined) {
    const hint = proxyHint(cause, code, host, displayProxy(proxy), https);
    if (hint) return hint;
  }
  if (code === undefined) return undefined;
  if (https && (code.startsWith('ERR_SSL_') || code === 'EPROTO'))
    return `The TLS handshake with ${host} failed (${code}): the server most likely speaks plain http on that port. Use an http:// URL in "${option}" (a local sandbox or mock is http), or the port where the server speaks https.`;
  if (UNKNOWN_CA_CODES.has(code))
    return `The TLS certificate of ${host} is not trusted (${code}): it is signed by a CA Node does not know. If the server's CA is a private one (your partner's own, or a proxy that inspects TLS), give Node that CA's certificate when it starts: NODE_EXTRA_CA_CERTS=/path/to/ca.pem; otherwise check that "${option}" names the right host.`;
  if (EXPIRED_CODES.has(code))
    return `The TLS certificate of ${host} is ${code === 'CERT_HAS_EXPIRED' ? 'expired' : 'not valid yet'} (${code}): the server's operator must renew it (or check this machine's clock).`;
  if (code === WRONG_NAME_CODE)
    return `The TLS certificate of ${host} is issued for another host name (${code}): check the host in "${option}" against the name the server's certificate is for.`;
  return directHint(code, parsed, host, option);
}

function directHint(code: string, url: URL, host: string, option: string): string | undefined {
  if (code === 'ENOTFOUND')
    return `The host name ${url.hostname} does not resolve (DNS): check the host in "${option}" for a typo, and that this machine can resolve it (VPN, proxy, /etc/hosts); behind a proxy, set HTTPS_PROXY (or HTTP_PROXY).`;
  if (code === 'EAI_AGAIN')
    return `The DNS lookup of ${url.hostname} failed for now (EAI_AGAIN): check this machine's network and DNS resolver, then try again.`;
  if (code === 'ECONNREFUSED')
    return `Nothing accepts connections at ${host}: check that the server is running, and the host and port in "${option}".`;
  return undefined;
}

/** A request through a proxy: connection failures are the proxy's, and the proxy's refusals come as CONNECT statuses. */
function proxyHint(cause: unknown, code: string | undefined, host: string, proxy: string, https: boolean): string | undefined {
  const variable = https ? 'HTTPS_PROXY (or HTTP_PROXY)' : 'HTTP_PROXY';
  const status = proxyRefusal(cause);
  if (status === 407)
    return `The proxy ${proxy} wants credentials (407) to open a tunnel to ${host}: put them in ${variable} (http://user:password@proxy:port).`;
  if (status === 403)
    return `The proxy ${proxy} refuses a tunnel to ${host} (403): ask for the host to be allowed, or list it in NO_PROXY if this machine reaches it directly.`;
  if (status !== undefined)
    return `The proxy ${proxy} could not open a tunnel to ${host} (${status}): check the host and port, and that the proxy can reach them.`;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `The proxy ${proxy} (from ${variable}) cannot be reached (${code}): check ${variable}, or list ${host} in NO_PROXY if this machine reaches it directly.`;
  return undefined;
}
