// createLogisticsClient: the three API clients wired with auth from one set of options (the LP_* settings).
// The options are checked once, here, under the names the caller used; each client is then given only what it needs.
// An API counts as used when its host is given (the fleet API also when fleetApiKey is): its other settings must then be
// present too, and a missing one fails here, naming it. The client of an API that is not used fails at its first call,
// naming the option it lacks.
import { buildCarriersClient, type CarriersClient } from './carriers-client.js';
import { requireBaseUrl, requireString, resolveTransport, type TransportOptions } from './client-options.js';
import { buildFleetClient, type FleetClient } from './fleet-client.js';
import { Secrets } from './secrets.js';
import { buildTokenClient, type TokenClient } from './token-client.js';
import { buildTokenProvider, checkTokenProviderOptions, type TokenEndpoint, type TokenInfo, type TokenProvider } from './token-provider.js';

export interface LogisticsClientOptions extends TransportOptions {
  /** {base_url} (LP_BASE_URL): token service and carriers API. Needed by the carriers API and the 'service' token endpoint. */
  baseUrl?: string | undefined;
  /** {auth_url} (LP_AUTH_URL): identity provider. Needed for tokenEndpoint 'identity-provider' and /oauth2 calls. */
  authUrl?: string | undefined;
  /** {fleet_base_url} (LP_FLEET_BASE_URL). Given with fleetApiKey or not at all: one without the other fails here, naming it. */
  fleetBaseUrl?: string | undefined;
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  scope?: string | undefined;
  /** Ocp-Apim-Subscription-Key (LP_SUBSCRIPTION_KEY). */
  subscriptionKey?: string | undefined;
  /** Fleet API-Key (LP_FLEET_API_KEY). */
  fleetApiKey?: string | undefined;
  /** Default 'service'. */
  tokenEndpoint?: TokenEndpoint | undefined;
  /** Renew tokens this many seconds before expiry (default 60). */
  refreshSkewSeconds?: number | undefined;
  /** Clock for token expiry (ms since the epoch), injectable for tests. */
  now?: (() => number) | undefined;
}

export interface LogisticsClient {
  token: TokenClient;
  carriers: CarriersClient;
  fleet: FleetClient;
  /** The token source the carriers client uses (client credentials). */
  tokenProvider: TokenProvider;
  /** The current access token and its timing (from the cache, or fetched with clientId and clientSecret, renewed ahead of expiry). */
  getToken(): Promise<TokenInfo>;
}

const FACTORY = 'createLogisticsClient';

export function createLogisticsClient(options: LogisticsClientOptions): LogisticsClient {
  const transport = resolveTransport(FACTORY, options);
  const baseUrl = options.baseUrl === undefined ? undefined : requireBaseUrl(FACTORY, 'baseUrl', options.baseUrl);
  // An empty LP_AUTH_URL means "no identity provider", as it always has.
  const authUrl = options.authUrl ? requireBaseUrl(FACTORY, 'authUrl', options.authUrl) : undefined;
  // One set of credentials for the redaction of every client's errors: an error of one API may echo another's key.
  const secrets = new Secrets();
  for (const credential of [options.clientSecret, options.subscriptionKey, options.fleetApiKey]) secrets.add(credential);
  const missing = (names: string, api: string, variables: string) => () => {
    throw new TypeError(`${FACTORY}: option ${names} is required for the ${api}; from the environment? set ${variables}`);
  };

  const token =
    baseUrl || authUrl
      ? buildTokenClient({ baseUrl, authUrl, subscriptionKey: options.subscriptionKey, transport, secrets, factory: FACTORY })
      : deferred<TokenClient>(missing('"baseUrl" or "authUrl"', 'token API', 'LP_BASE_URL or LP_AUTH_URL'));

  // The provider reuses the token client: one set of openapi-fetch clients per host.
  const buildProvider = () => buildTokenProvider({ ...checkTokenProviderOptions(FACTORY, options), client: token, secrets });
  const tokenProvider =
    options.clientId !== undefined || options.clientSecret !== undefined ? buildProvider() : deferred<TokenProvider>(buildProvider);

  const carriers = baseUrl
    ? buildCarriersClient({ baseUrl, tokens: tokenProvider, subscriptionKey: options.subscriptionKey, transport, secrets })
    : deferred<CarriersClient>(missing('"baseUrl"', 'carriers API', 'LP_BASE_URL'));

  // Either fleet setting means the fleet API is wanted: the other must be there too, checked now. (Empty values count as
  // absent, as for authUrl: an LP_* template with blank lines configures nothing.)
  const fleetUsed = Boolean(options.fleetBaseUrl || options.fleetApiKey);
  const fleet = fleetUsed
    ? buildFleetClient({
        baseUrl: requireBaseUrl(FACTORY, 'fleetBaseUrl', options.fleetBaseUrl),
        fleetApiKey: requireString(FACTORY, 'fleetApiKey', options.fleetApiKey),
        transport,
        secrets,
        baseUrlOption: 'fleetBaseUrl',
      })
    : deferred<FleetClient>(missing('"fleetBaseUrl"', 'fleet API (with "fleetApiKey")', 'LP_FLEET_BASE_URL and LP_FLEET_API_KEY'));

  return {
    token,
    carriers,
    fleet,
    tokenProvider,
    // async: a provider that cannot be built (no clientId) rejects like a failed token request instead of throwing.
    getToken: async () => tokenProvider.getTokenInfo(),
  };
}

/**
 * An object that builds the real one on first use, so that a consumer of one API need not configure the others,
 * and one who forgot a setting gets an error naming the option at the first call.
 */
function deferred<T extends object>(build: () => T): T {
  let value: T | undefined;
  return new Proxy({} as T, {
    get: (_target, property) => {
      value ??= build();
      const member = Reflect.get(value, property);
      // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: every deferred build throws (it stands for an API whose option is missing): no member is read
      return typeof member === 'function' ? member.bind(value) : member;
    },
  });
}
