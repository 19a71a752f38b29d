// The published client, built from the target's LP_* settings and sending through the contract fetch: positive
// flows go through it (we use what partners use). Retries are off so that every answer the target gives is seen.
import { createFleetClient, createLogisticsClient, createTokenProvider, type FleetClient, type LogisticsClient, type TokenProvider } from '../../src/index.ts';
import { contractFetch } from './contract-fetch.ts';
import { required, type Target } from './target.ts';

const transport = { fetch: contractFetch, retry: { attempts: 1 }, timeoutMs: 15_000 };

export function logisticsClient(target: Target): LogisticsClient {
  const env = target.env;
  return createLogisticsClient({
    ...transport,
    baseUrl: required(target, 'LP_BASE_URL'),
    authUrl: env.LP_AUTH_URL,
    fleetBaseUrl: env.LP_FLEET_BASE_URL,
    clientId: env.LP_CLIENT_ID,
    clientSecret: env.LP_CLIENT_SECRET,
    scope: env.LP_SCOPE,
    subscriptionKey: env.LP_SUBSCRIPTION_KEY,
    fleetApiKey: env.LP_FLEET_API_KEY,
  });
}

/** The fleet client alone: a partner may configure only the fleet settings. */
export function fleetClient(target: Target): FleetClient {
  return createFleetClient({ ...transport, baseUrl: required(target, 'LP_FLEET_BASE_URL'), fleetApiKey: required(target, 'LP_FLEET_API_KEY') });
}

/** A client-credentials token source for one endpoint; each call gives a provider with an empty cache (a fresh token). */
export function tokenProvider(target: Target, endpoint: 'service' | 'identity-provider'): TokenProvider {
  const env = target.env;
  return createTokenProvider({
    ...transport,
    tokenEndpoint: endpoint,
    baseUrl: env.LP_BASE_URL,
    authUrl: env.LP_AUTH_URL,
    clientId: required(target, 'LP_CLIENT_ID'),
    clientSecret: required(target, 'LP_CLIENT_SECRET'),
    scope: env.LP_SCOPE,
    subscriptionKey: env.LP_SUBSCRIPTION_KEY,
  });
}

export { transport as clientTransport };
