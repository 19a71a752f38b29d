// Client-credentials token source: asks the service or the identity provider for a token, caches it, renews it ahead
// of expiry, and shares one in-flight request among concurrent callers (single flight).
import { requireBaseUrl, requireString, resolveTransport, type TransportOptions } from './client-options.js';
import type { TokenSource } from './authorizer.js';
import { Secrets } from './secrets.js';
import { buildTokenClient, requireAccessToken, type TokenClient } from './token-client.js';

export type TokenEndpoint = 'service' | 'identity-provider';

export interface TokenProviderOptions extends TransportOptions {
  /** Which token endpoint to use (default 'service'): POST {baseUrl}/token or POST {authUrl}/oauth2/default/v1/token. */
  tokenEndpoint?: TokenEndpoint | undefined;
  baseUrl?: string | undefined;
  authUrl?: string | undefined;
  /** Required; `undefined` (an unset variable) fails at once, naming the option. */
  clientId: string | undefined;
  /** Required; `undefined` (an unset variable) fails at once, naming the option. */
  clientSecret: string | undefined;
  /** Required by the identity-provider endpoint. */
  scope?: string | undefined;
  /** Required by the identity-provider endpoint (Ocp-Apim-Subscription-Key). */
  subscriptionKey?: string | undefined;
  /** Renew this many seconds before expiry (default 60; at most half the token lifetime). */
  refreshSkewSeconds?: number | undefined;
  /** Clock in ms since the epoch; injectable for tests (default Date.now). */
  now?: (() => number) | undefined;
}

/**
 * What a token provider is built from: checked values, and the token client it sends its requests with.
 * @internal
 */
export interface TokenProviderSettings {
  endpoint: TokenEndpoint;
  clientId: string;
  clientSecret: string;
  /** Set for the identity-provider endpoint. */
  scope: string | undefined;
  skewMs: number;
  now: () => number;
  client: TokenClient;
  secrets: Secrets;
}

export interface TokenInfo {
  accessToken: string;
  tokenType: string;
  /** Lifetime in seconds, from `expired_in` (service) or `expires_in` (identity provider). */
  expiresInSeconds: number;
  /** When the provider will fetch a new token (ms since the epoch). */
  refreshAt: number;
  /** When the token expires (ms since the epoch). */
  expiresAt: number;
}

export interface TokenProvider {
  /** A valid access token: cached, or fetched once for all concurrent callers. */
  getToken(): Promise<string>;
  /** The current token and its timing, fetching one if needed. */
  getTokenInfo(): Promise<TokenInfo>;
  /**
   * Drop the cached token. With a token, only when it is still the cached one (so a burst of 401s renews once).
   * A failed renewal ahead of expiry keeps the current token in use until it expires; invalidate ends that too.
   */
  invalidate(token?: string): void;
}

/** Seed 8: tokens live one hour; used when a response does not say. */
const DEFAULT_LIFETIME_SECONDS = 3600;
const FACTORY = 'createTokenProvider';

export function createTokenProvider(options: TokenProviderOptions): TokenProvider {
  return ownTokenProvider(FACTORY, options, new Secrets());
}

/**
 * A token provider with a token client of its own, for the one host its endpoint needs; options are reported under
 * `factory`'s name (createTokenProvider, or createCarriersClient when it makes one), errors scrubbed with `secrets`.
 * `transport`: when the caller already resolved the transport options, so they are checked once.
 * @internal
 */
export function ownTokenProvider(
  factory: string,
  options: TokenProviderOptions,
  secrets: Secrets,
  transport = resolveTransport(factory, options),
): TokenProvider {
  const checked = checkTokenProviderOptions(factory, options);
  secrets.add(options.subscriptionKey);
  const service = checked.endpoint === 'service';
  const client = buildTokenClient({
    baseUrl: service ? requireBaseUrl(factory, 'baseUrl', options.baseUrl) : undefined,
    authUrl: service ? undefined : requireBaseUrl(factory, 'authUrl', options.authUrl),
    subscriptionKey: options.subscriptionKey,
    transport,
    secrets,
    factory,
  });
  return buildTokenProvider({ ...checked, client, secrets });
}

/**
 * The token-provider options checked under `factory`'s name (the endpoint's hosts are checked by whoever builds the token
 * client): createTokenProvider and createLogisticsClient share it, so both report a bad option the same way.
 * @internal
 */
export function checkTokenProviderOptions(
  factory: string,
  options: Partial<Omit<TokenProviderOptions, keyof TransportOptions>>,
): Omit<TokenProviderSettings, 'client' | 'secrets'> {
  const endpoint = options.tokenEndpoint ?? 'service';
  if (endpoint !== 'service' && endpoint !== 'identity-provider')
    throw new TypeError(`${factory}: option "tokenEndpoint" must be 'service' or 'identity-provider'`);
  const clientId = requireString(factory, 'clientId', options.clientId);
  const clientSecret = requireString(factory, 'clientSecret', options.clientSecret);
  if (endpoint === 'service') requireString(factory, 'baseUrl', options.baseUrl);
  else {
    requireString(factory, 'authUrl', options.authUrl);
    requireString(factory, 'scope', options.scope);
    requireString(factory, 'subscriptionKey', options.subscriptionKey);
  }
  const skewMs = (options.refreshSkewSeconds ?? 60) * 1000;
  if (!Number.isFinite(skewMs) || skewMs < 0) throw new TypeError(`${factory}: option "refreshSkewSeconds" must be a non-negative number`);
  return { endpoint, clientId, clientSecret, scope: options.scope, skewMs, now: options.now ?? Date.now };
}

/**
 * A token provider over an existing token client. Its client-credentials requests are retried like idempotent calls
 * (the token client treats that grant as safe to repeat), whatever `retry.retryNonIdempotent` says.
 * @internal
 */
export function buildTokenProvider(settings: TokenProviderSettings): TokenProvider {
  const { now, secrets } = settings;
  secrets.add(settings.clientSecret);

  // Resolved promises are kept so that a cached call allocates nothing.
  let cached: CachedToken | undefined;
  let inFlight: Promise<TokenInfo> | undefined;

  function cache(info: TokenInfo): TokenInfo {
    cached = { info, promise: Promise.resolve(info), token: Promise.resolve(info.accessToken) };
    return info;
  }

  /** The cached token while it needs no renewal. */
  function fresh(): CachedToken | undefined {
    return cached && now() < cached.info.refreshAt ? cached : undefined;
  }

  function getTokenInfo(): Promise<TokenInfo> {
    const current = fresh();
    if (current) return current.promise;
    if (inFlight) return inFlight;
    const previous = cached;
    const pending = requestToken(settings).then(
      (info) => {
        // Stryker disable next-line ConditionalExpression: one token request is in flight at a time (getTokenInfo returns inFlight while set): it is this one
        if (inFlight === pending) {
          cache(info);
          inFlight = undefined;
        }
        return info;
      },
      (error: unknown) => {
        // Stryker disable next-line ConditionalExpression: one token request is in flight at a time (getTokenInfo returns inFlight while set): it is this one
        if (inFlight === pending) inFlight = undefined;
        // Only a token request without a valid token to fall back on fails the calls.
        const time = now();
        const kept = previous && cached === previous ? keptAfterFailedRenewal(previous.info, time) : undefined;
        if (kept) return cache(kept);
        throw error;
      },
    );
    inFlight = pending;
    return pending;
  }

  const provider: TokenProvider & TokenSource = {
    getTokenInfo,
    getToken: () => fresh()?.token ?? getTokenInfo().then(tokenOf),
    // Stryker disable next-line ArrowFunction: without it the authorizer awaits getToken, which returns the same cached token
    peekToken: () => fresh()?.info.accessToken,
    invalidate(token) {
      if (token === undefined || cached?.info.accessToken === token) cached = undefined;
    },
  };
  return provider;
}

/** A token and its resolved promises. */
interface CachedToken {
  info: TokenInfo;
  promise: Promise<TokenInfo>;
  token: Promise<string>;
}

/** One client-credentials token request, and the token's timing from its answer. */
async function requestToken(settings: TokenProviderSettings): Promise<TokenInfo> {
  const { endpoint, clientId, clientSecret, skewMs, now, client, secrets } = settings;
  const { data, response } =
    endpoint === 'service'
      ? await client.POST('/token', { body: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret } })
      : await client.POST('/oauth2/default/v1/token', {
          body: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, scope: settings.scope! },
        });
  requireAccessToken(data, response, endpoint === 'service' ? 'POST /token' : 'POST /oauth2/default/v1/token');
  const fields = data as { access_token: string; token_type?: unknown; expired_in?: unknown; expires_in?: unknown };
  secrets.addToken(fields.access_token);
  const lifetime = [fields.expired_in, fields.expires_in].find((v): v is number => Number.isFinite(v) && (v as number) > 0);
  const expiresInSeconds = lifetime ?? DEFAULT_LIFETIME_SECONDS;
  // A skew larger than half the lifetime would make every call fetch a new token.
  const expiresAt = now() + expiresInSeconds * 1000;
  const refreshAt = expiresAt - Math.min(skewMs, (expiresInSeconds * 1000) / 2);
  const tokenType = typeof fields.token_type === 'string' ? fields.token_type : 'Bearer';
  return { accessToken: fields.access_token, tokenType, expiresInSeconds, refreshAt, expiresAt };
}

/**
 * A renewal ahead of expiry failed, but the current token (`current`, still the cached one, not rejected by a 401) may
 * still be valid at `time`: then it stays in use, and the next try comes after a quarter of its remaining life (at
 * least a second). Undefined when it has expired.
 */
function keptAfterFailedRenewal(current: TokenInfo, time: number): TokenInfo | undefined {
  if (time >= current.expiresAt) return undefined;
  const retryAt = Math.min(current.expiresAt, time + Math.max(1000, (current.expiresAt - time) / 4));
  return { ...current, refreshAt: retryAt };
}

function tokenOf(info: TokenInfo): string {
  return info.accessToken;
}
