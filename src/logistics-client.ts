// createLogisticsClient: the three API clients wired with auth from one set of options (the LP_* settings).
// Only the clients whose settings are present are usable; a missing setting fails at the first call with a clear error.
import type { TransportOptions } from './client-options.js';
import { createCarriersClient, type CarriersClient } from './carriers-client.js';
import { createFleetClient, type FleetClient } from './fleet-client.js';
import { Secrets } from './secrets.js';
import { createTokenClient, type TokenClient } from './token-client.js';
import { createTokenProvider, type TokenEndpoint, type TokenProvider } from './token-provider.js';

export interface LogisticsClientOptions extends TransportOptions {
  /** {base_url} (LP_BASE_URL): token service and carriers API. */
  baseUrl: string;
  /** {auth_url} (LP_AUTH_URL): identity provider. Needed for tokenEndpoint 'identity-provider' and /oauth2 calls. */
  authUrl?: string;
  /** {fleet_base_url} (LP_FLEET_BASE_URL). Needed for the fleet client. */
  fleetBaseUrl?: string;
  clientId?: string;
  clientSecret?: string;
  scope?: string;
  /** Ocp-Apim-Subscription-Key (LP_SUBSCRIPTION_KEY). */
  subscriptionKey?: string;
  /** Fleet API-Key (LP_FLEET_API_KEY). */
  fleetApiKey?: string;
  /** Default 'service'. */
  tokenEndpoint?: TokenEndpoint;
  /** Renew tokens this many seconds before expiry (default 60). */
  refreshSkewSeconds?: number;
  /** Clock for token expiry (ms since the epoch), injectable for tests. */
  now?: () => number;
}

export interface LogisticsClient {
  token: TokenClient;
  carriers: CarriersClient;
  fleet: FleetClient;
  /** The token source the carriers client uses (client credentials). */
  tokenProvider: TokenProvider;
}

export function createLogisticsClient(options: LogisticsClientOptions): LogisticsClient {
  const secrets = new Secrets();
  const token = createTokenClient({ ...options, secrets });
  // Clients whose settings are present are built now (so that bad values fail here); the others fail when used.
  const tokenProvider =
    options.clientId !== undefined || options.clientSecret !== undefined
      ? createTokenProvider({ ...options, clientId: options.clientId!, clientSecret: options.clientSecret!, secrets })
      : deferred<TokenProvider>(() => createTokenProvider({ ...options, clientId: options.clientId!, clientSecret: options.clientSecret!, secrets }));
  const carriers = createCarriersClient({ ...options, tokenProvider, secrets });
  const buildFleet = () => createFleetClient({ ...options, baseUrl: options.fleetBaseUrl!, fleetApiKey: options.fleetApiKey!, secrets });
  const fleet = options.fleetBaseUrl !== undefined ? buildFleet() : deferred<FleetClient>(buildFleet);
  return { token, carriers, fleet, tokenProvider };
}

/**
 * An object that builds the real one on first use, so that a consumer of one API need not configure the others,
 * and one who forgot a setting gets the factory's error (naming the option) at the first call.
 */
function deferred<T extends object>(build: () => T): T {
  let value: T | undefined;
  return new Proxy({} as T, {
    get: (_target, property) => {
      value ??= build();
      const member = Reflect.get(value, property);
      return typeof member === 'function' ? member.bind(value) : member;
    },
  });
}
