// How requests reach the servers: through the proxy the environment names (HTTPS_PROXY, HTTP_PROXY and NO_PROXY, read
// as npm and undici read them), over kept-alive connections, and which failures were a kept-alive connection that the
// server had already closed before any byte of the answer (RFC 9112 section 9.3.1: such a request may be sent again,
// once, on a new connection; browsers do). undici 7 is the one undici whose dispatchers work with the fetch of every
// supported Node: Node 20 and 22 bundle undici 6, Node 24 bundles 7, and undici 7 speaks both handler interfaces.
import { subscribe } from 'node:diagnostics_channel';
import { Agent, EnvHttpProxyAgent } from 'undici';

/**
 * What fetch's `dispatcher` option takes: an undici Agent, ProxyAgent, EnvHttpProxyAgent, MockAgent... Typed by shape,
 * so that a dispatcher of another undici copy is accepted too.
 */
export interface Dispatcher {
  dispatch: (options: never, handler: never) => unknown;
}

/** The proxy variables in force: the lower-case form wins, as with curl, npm and undici. */
export interface ProxySettings {
  httpProxy: string | undefined;
  /** HTTPS_PROXY, else HTTP_PROXY (as npm and undici do; curl has no fallback). */
  httpsProxy: string | undefined;
  /** NO_PROXY, with this machine's loopback names added: a proxy cannot reach them. */
  noProxy: string;
}

/** A proxy cannot reach this machine's loopback: requests to it go direct (as Go and browsers do). */
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

type Environment = Record<string, string | undefined>;

function processEnv(): Environment {
  return (globalThis as { process?: { env?: Environment } }).process?.env ?? {};
}

/**
 * The proxy settings of `env` (default: process.env).
 * @internal
 */
export function proxySettings(env: Environment = processEnv()): ProxySettings {
  const read = (name: string) => (env[name.toLowerCase()] ?? env[name])?.trim() || undefined;
  const httpProxy = read('HTTP_PROXY');
  return {
    httpProxy,
    httpsProxy: read('HTTPS_PROXY') ?? httpProxy,
    noProxy: [read('NO_PROXY'), ...LOOPBACK].filter(Boolean).join(','),
  };
}

/**
 * The proxy a request to `url` goes through, or undefined when it goes direct. The NO_PROXY rules are undici's:
 * `*` (nothing is proxied), a host name (itself and its subdomains; a leading `.` or `*.` is dropped), `host:port`.
 * @internal
 */
export function proxyFor(url: string | URL, settings = proxySettings()): string | undefined {
  const { protocol, host } = new URL(url);
  const proxy = protocol === 'https:' ? settings.httpsProxy : settings.httpProxy;
  // Stryker disable next-line ConditionalExpression: without a proxy the loop below ends in `return proxy`, undefined too
  if (!proxy) return undefined;
  const hostname = host.replace(/:\d*$/, '').toLowerCase();
  const port = Number(new URL(url).port) || (protocol === 'https:' ? 443 : 80);
  // Stryker disable next-line Regex: splitting on single separators adds only empty entries, which are skipped
  for (const entry of settings.noProxy.split(/[,\s]+/)) {
    if (entry === '*') return undefined;
    // Stryker disable next-line Regex: an entry holds no line break, so a match of (.+) always starts at its first character
    const parsed = /^(.+):(\d+)$/.exec(entry);
    const name = (parsed ? parsed[1]! : entry).replace(/^\*?\./, '').toLowerCase();
    if (!name || (parsed && Number(parsed[2]) !== port)) continue;
    if (hostname === name || hostname.endsWith(`.${name}`)) return undefined;
  }
  return proxy;
}

/** A proxy URL as it may be shown: its user name and password (the proxy's credentials) left out. */
export function displayProxy(proxy: string): string {
  try {
    const url = new URL(proxy);
    return `${url.protocol}//${url.host}`;
  } catch {
    return '(a proxy URL that does not parse)';
  }
}

/**
 * Two dispatchers over the same proxy settings: `pooled` keeps connections alive, `fresh` opens a new connection for
 * every request (the one re-send after a kept-alive connection turned out closed).
 * @internal
 */
export interface Connections {
  pooled: Dispatcher;
  fresh: Dispatcher;
}

/** How long connections stay open for reuse, and which CAs to trust besides Node's (tests; NODE_EXTRA_CA_CERTS in use). */
export interface ConnectionOptions {
  /**
   * Reuse an idle connection for at most this long when the server announced no keep-alive timeout (with one, its
   * timeout less KEEP_ALIVE_MARGIN_MS). Default 4000, undici's.
   */
  keepAliveMs?: number;
  /** PEM certificates to trust besides Node's own (for tests; in a process, NODE_EXTRA_CA_CERTS does it). */
  ca?: string[];
}

/**
 * How much sooner than a server's announced keep-alive timeout (`Keep-Alive: timeout=N`) a connection stops being
 * reused. undici's own margin is 2 s, so a server announcing 2 s (some gateways do) got a new connection for every
 * request: a TCP (and TLS) set-up, a round trip or more each, to a far server. One second is margin enough, since a
 * kept-alive connection that closes before any byte of the answer is sent once more on a new one.
 * @internal
 */
export const KEEP_ALIVE_MARGIN_MS = 1_000;

/**
 * Dispatchers for the proxy settings now in force: through the proxy when one applies (CONNECT for https and for http
 * alike, so that a proxy only relays bytes and never reads a request as its own), direct otherwise.
 * @internal
 */
export function connections(options: ConnectionOptions = {}, settings = proxySettings()): Connections {
  const agent = (fresh: boolean) => {
    const base = {
      keepAliveTimeout: options.keepAliveMs ?? 4_000,
      keepAliveTimeoutThreshold: KEEP_ALIVE_MARGIN_MS,
      // undici's pipelining 0: no keep-alive, a new connection per request.
      ...(fresh ? { pipelining: 0 } : {}),
      ...(options.ca ? { connect: { ca: options.ca } } : {}),
    };
    // Stryker disable next-line ConditionalExpression: an EnvHttpProxyAgent with no proxy for either scheme sends all through an Agent of the same options
    if (!settings.httpProxy && !settings.httpsProxy) return new Agent(base);
    return new EnvHttpProxyAgent({
      ...base,
      // '' rather than undefined: undici would read the environment again.
      httpProxy: settings.httpProxy ?? '',
      httpsProxy: settings.httpsProxy ?? '',
      noProxy: settings.noProxy,
      // The tunnel's TLS (to the server) trusts the same CAs.
      ...(options.ca ? { requestTls: { ca: options.ca } } : {}),
    });
  };
  return { pooled: agent(false), fresh: agent(true) };
}

const shared = new Map<string, Connections>();

/**
 * The connections of every client built without a `fetch` or `dispatcher` of the caller's: one pool per set of proxy
 * settings (read when a client is built).
 * @internal
 */
export function sharedConnections(settings = proxySettings()): Connections {
  const key = JSON.stringify(settings);
  let found = shared.get(key);
  if (!found) {
    found = connections({}, settings);
    shared.set(key, found);
  }
  return found;
}

// Which requests went out on a connection that had carried one before, and which failures were such a connection
// closing before any byte of the answer. undici tells both through its diagnostics channels (public, and published by
// the undici inside Node as well); the error fetch rejects with carries the very error as its cause.
const CLOSED_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);
const usedSockets = new WeakSet<object>();
const onReusedSocket = new WeakSet<object>();
const closedBeforeAnswer = new WeakSet<object>();
let tracking = false;

/**
 * Starts noting the requests undici sends on reused connections (once per process; cheap while nothing listens).
 * @internal
 */
export function trackReusedConnections(): void {
  if (tracking) return;
  tracking = true;
  subscribe('undici:client:sendHeaders', (message) => {
    const { request, socket } = message as { request: object; socket: object };
    if (usedSockets.has(socket)) onReusedSocket.add(request);
    else usedSockets.add(socket);
  });
  // The answer began: whatever fails later failed after a byte of it.
  subscribe('undici:request:headers', (message) => {
    const { request } = message as { request: object };
    onReusedSocket.delete(request);
  });
  subscribe('undici:request:error', (message) => {
    const { request, error } = message as { request: object; error: { code?: unknown } | null };
    if (onReusedSocket.has(request) && error && CLOSED_CODES.has(String(error.code))) closedBeforeAnswer.add(error);
  });
}

/**
 * Whether `error` (what fetch rejected with, or its cause) is a reused connection that closed before any byte of the
 * answer: the server closed it while idle, and never saw the request.
 * @internal
 */
export function isStaleConnection(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  // WeakSet.has is false for what it cannot hold: a cause that is a primitive, or none.
  return closedBeforeAnswer.has(error) || closedBeforeAnswer.has((error as { cause?: unknown }).cause as object);
}
