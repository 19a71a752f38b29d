// Options every client takes (transport, timeout, retries) and the checks that turn bad configuration into clear errors.
// Error messages name the option, never its value: values may be credentials.
import { type Dispatcher, proxyFor, proxySettings, sharedConnections, trackReusedConnections } from './connections.js';
import type { ResendListener } from './resend-event.js';
import { resolveMaxResponseBytes } from './response-body.js';
import { resolveRetryPolicy, type ResolvedRetryPolicy, type RetryOptions } from './retry-policy.js';
import { directFetch } from './direct-fetch.js';
import { DEFAULT_TIMEOUT_MS, timeoutFetch, type FetchFunction } from './timeout-fetch.js';

export interface TransportOptions {
  /**
   * fetch to send requests with. Called as fetch(url, init), or fetch(request, init) for a Request a middleware of
   * yours returned. Default: over the client's own connections, undici's request API for a request with a string body
   * (or none), as fetch would send it, at a fraction of fetch's cost; globalThis.fetch for any other request, with a
   * `dispatcher` of yours, or once globalThis.fetch has been replaced after the package loaded (a test tool such as
   * MSW; one that replaced it before: pass `fetch: globalThis.fetch`).
   */
  fetch?: FetchFunction | typeof globalThis.fetch | undefined;
  /**
   * The undici dispatcher to send with (fetch's `dispatcher` option): your Agent, ProxyAgent or MockAgent. Default: the
   * client's own connections, through the proxy HTTPS_PROXY, HTTP_PROXY and NO_PROXY name (read when the client is
   * built). With `fetch` and no `dispatcher`, your fetch decides how it connects.
   */
  dispatcher?: Dispatcher | undefined;
  /** Per-attempt timeout in ms (default 30000). A caller's own `signal` is honoured as well. */
  timeoutMs?: number | undefined;
  /**
   * Largest response body accepted, in bytes after decoding (default 32 MiB; 0: no limit). A larger one is abandoned
   * mid-transfer and the call fails with ApiError kind 'response_too_large'.
   */
  maxResponseBytes?: number | undefined;
  retry?: RetryOptions | undefined;
  /**
   * Called each time the client sends a request again (a retry, the replay after a 401 with a renewed token, the
   * re-send on a new connection), synchronously, right before it goes out: after any wait and token renewal, so the
   * next request your `fetch` is handed is that re-send. It gets no header or body. What it throws, or a promise it
   * returns rejects with, is ignored: the call goes on as if it had returned.
   */
  onResend?: ResendListener | undefined;
}

/** The LP_* variable the package README's samples read each option from: named when the option is missing. */
const VARIABLES: Readonly<Record<string, string>> = {
  baseUrl: 'LP_BASE_URL',
  authUrl: 'LP_AUTH_URL',
  fleetBaseUrl: 'LP_FLEET_BASE_URL',
  clientId: 'LP_CLIENT_ID',
  clientSecret: 'LP_CLIENT_SECRET',
  scope: 'LP_SCOPE',
  subscriptionKey: 'LP_SUBSCRIPTION_KEY',
  fleetApiKey: 'LP_FLEET_API_KEY',
  redirectUri: 'LP_REDIRECT_URI',
};

/**
 * A required string option: `undefined` (an unset environment variable), an empty or blank string or another type fails
 * with a TypeError that names the option, says what it got (never the value: it may be a credential) and the variable
 * it usually comes from. `variable` overrides that variable (createFleetClient's `baseUrl` is LP_FLEET_BASE_URL).
 * @internal
 */
export function requireString(factory: string, name: string, value: unknown, variable = VARIABLES[name]): string {
  if (typeof value === 'string' && value.trim() !== '') return value;
  const got = value === undefined ? 'undefined' : typeof value === 'string' ? 'an empty string' : `a value of type ${typeof value}`;
  const from = variable && (value === undefined || typeof value === 'string') ? `; from the environment? set ${variable}` : '';
  throw new TypeError(`${factory}: option "${name}" is required (a non-empty string), got ${got}${from}`);
}

/**
 * An absolute http(s) URL; any path prefix is kept, a trailing slash is dropped.
 * @internal
 */
export function requireBaseUrl(factory: string, name: string, value: unknown, variable = VARIABLES[name]): string {
  const text = requireString(factory, name, value, variable);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TypeError(`${factory}: option "${name}" must be an absolute http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`${factory}: option "${name}" must be an http(s) URL`);
  if (url.search || url.hash) throw new TypeError(`${factory}: option "${name}" must not carry a query or fragment`);
  return text.replace(/\/+$/, '');
}

/**
 * Transport options checked and defaulted once, then shared by every openapi-fetch client of one logistics client.
 * @internal
 */
export interface ResolvedTransport {
  /** The caller's fetch (or the global one), with the per-attempt timeout. */
  fetch: FetchFunction;
  /**
   * The same, over a new connection: the one re-send of a request whose kept-alive connection the server had closed.
   * The caller's own fetch or dispatcher is used as it is.
   */
  freshFetch: FetchFunction;
  /** The proxy a URL goes through, when the client chose the connections (for the hints of errors). */
  proxyFor: ((url: string) => string | undefined) | undefined;
  timeoutMs: number;
  maxResponseBytes: number;
  retry: ResolvedRetryPolicy;
  /** The caller's listener for re-sends, if any. */
  onResend: ResendListener | undefined;
}

/**
 * The transport options checked and defaulted; a bad one is reported under `factory`'s name, like every other option.
 * @internal
 */
export function resolveTransport(factory: string, options: TransportOptions): ResolvedTransport {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  try {
    trackReusedConnections();
    // The client's own connections unless the caller brought a fetch or a dispatcher: theirs decide.
    const own = options.fetch || options.dispatcher ? undefined : { settings: proxySettings() };
    // Over its own connections the client sends straight with undici; with a dispatcher of the caller's, Node's fetch.
    const fetch = (options.fetch ?? (own ? directFetch : globalThis.fetch)) as FetchFunction;
    const connections = own && sharedConnections(own.settings);
    const pooled = timeoutFetch(fetch, timeoutMs, options.dispatcher ?? connections?.pooled);
    return {
      fetch: pooled,
      freshFetch: connections ? timeoutFetch(fetch, timeoutMs, connections.fresh) : pooled,
      proxyFor: own && ((url: string) => proxyFor(url, own.settings)),
      timeoutMs,
      maxResponseBytes: resolveMaxResponseBytes(options.maxResponseBytes),
      retry: resolveRetryPolicy(options.retry),
      onResend: resolveListener(options.onResend),
    };
  } catch (error) {
    // The checks below know the option, not which factory it was given to.
    throw error instanceof TypeError ? new TypeError(`${factory}: ${error.message}`) : error;
  }
}

function resolveListener(listener: unknown): ResendListener | undefined {
  if (listener === undefined || typeof listener === 'function') return listener as ResendListener | undefined;
  throw new TypeError(`option "onResend" must be a function, got a value of type ${typeof listener}`);
}
