// The Fleet API client: the `API-Key` header on every call; list filters are sent as repeated query parameters.
import type { ApiClient } from './api-client.js';
import type { paths } from '../generated/fleet.js';
import { staticHeaderAuthorizer } from './authorizer.js';
import { requireBaseUrl, requireString, resolveTransport, type ResolvedTransport, type TransportOptions } from './client-options.js';
import { composeClient } from './compose-client.js';
import { FLEET_API_KEY_HEADER } from './headers.js';
import { Secrets } from './secrets.js';

export type FleetClient = ApiClient<paths>;

export interface FleetClientOptions extends TransportOptions {
  /** {fleet_base_url}, with any path prefix (e.g. https://host/gateway/fleet/v1). Required; `undefined` fails at once, naming it. */
  baseUrl: string | undefined;
  /** Required; `undefined` (an unset variable) fails at once, naming the option. */
  fleetApiKey: string | undefined;
}

/**
 * All the fleet client is given: its host, its key and the transport. No other credential reaches it.
 * @internal
 */
export interface FleetClientSettings {
  baseUrl: string;
  fleetApiKey: string;
  transport: ResolvedTransport;
  secrets: Secrets;
  /** The option the caller gave baseUrl as: `fleetBaseUrl` to createLogisticsClient (default `baseUrl`). */
  baseUrlOption?: string;
}

const FACTORY = 'createFleetClient';

export function createFleetClient(options: FleetClientOptions): FleetClient {
  const baseUrl = requireBaseUrl(FACTORY, 'baseUrl', options.baseUrl, 'LP_FLEET_BASE_URL');
  const fleetApiKey = requireString(FACTORY, 'fleetApiKey', options.fleetApiKey);
  const secrets = new Secrets();
  secrets.add(fleetApiKey);
  return buildFleetClient({ baseUrl, fleetApiKey, transport: resolveTransport(FACTORY, options), secrets });
}

/** @internal */
export function buildFleetClient(settings: FleetClientSettings): FleetClient {
  const { baseUrl, fleetApiKey, transport, secrets, baseUrlOption } = settings;
  return composeClient<paths>({
    baseUrl,
    ...(baseUrlOption ? { baseUrlOption } : {}),
    transport,
    secrets,
    authorizer: staticHeaderAuthorizer({ [FLEET_API_KEY_HEADER]: fleetApiKey }),
  });
}
