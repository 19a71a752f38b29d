// The Fleet API client: the `API-Key` header on every call; list filters are sent as repeated query parameters.
import type { Client } from 'openapi-fetch';
import type { paths } from '../generated/fleet.js';
import { FLEET_API_KEY_HEADER, staticHeaderAuthorizer } from './authorizer.js';
import { requireBaseUrl, requireString, type TransportOptions } from './client-options.js';
import { composeClient } from './compose-client.js';
import { Secrets } from './secrets.js';

export type FleetClient = Client<paths>;

export interface FleetClientOptions extends TransportOptions {
  /** {fleet_base_url}, with any path prefix (e.g. https://host/gateway/fleet/v1). */
  baseUrl: string;
  fleetApiKey: string;
  /** @internal */
  secrets?: Secrets;
}

const FACTORY = 'createFleetClient';

export function createFleetClient(options: FleetClientOptions): FleetClient {
  const baseUrl = requireBaseUrl(FACTORY, 'baseUrl', options.baseUrl);
  const apiKey = requireString(FACTORY, 'fleetApiKey', options.fleetApiKey);
  const secrets = options.secrets ?? new Secrets();
  secrets.add(apiKey);
  return composeClient<paths>({ ...options, baseUrl, secrets, authorizer: staticHeaderAuthorizer({ [FLEET_API_KEY_HEADER]: apiKey }) });
}
