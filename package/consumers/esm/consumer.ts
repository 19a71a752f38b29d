// A strict ESM consumer of the published package (NodeNext resolution). pack:check installs the package by name from a
// local registry, compiles this file in a temp project and runs it against the sandbox; `npm run typecheck` compiles it
// against src/ (package/consumers/tsconfig.json maps the package name there).
import {
  ApiError,
  buildAuthorizationUrl,
  createCarriersClient,
  createFleetClient,
  createLogisticsClient,
  createTokenClient,
  createTokenProvider,
  exchangeAuthorizationCode,
  parseAuthorizationCallback,
} from '@logistics-partner/api';
import type { paths as CarriersPaths } from '@logistics-partner/api/carriers';
import type { components as FleetComponents, paths as FleetPaths } from '@logistics-partner/api/fleet';
import type { paths as TokenPaths } from '@logistics-partner/api/token';

type Vehicle = FleetComponents['schemas']['Vehicle'];
const surface = [
  createTokenProvider,
  buildAuthorizationUrl,
  parseAuthorizationCallback,
  exchangeAuthorizationCode,
  createTokenClient,
  createCarriersClient,
  createFleetClient,
];
const pathsSeen: Array<keyof FleetPaths | keyof TokenPaths | keyof CarriersPaths> = ['/vehicles', '/token', '/v1/load-milestone-events'];

const env = process.env;
const required = (name: string): string => {
  const value = env[name];
  if (!value) throw new Error(`consumer: ${name} is not set`);
  return value;
};
const lp = createLogisticsClient({
  baseUrl: env.LP_BASE_URL,
  authUrl: env.LP_AUTH_URL,
  fleetBaseUrl: env.LP_FLEET_BASE_URL,
  clientId: env.LP_CLIENT_ID,
  clientSecret: env.LP_CLIENT_SECRET,
  scope: env.LP_SCOPE,
  subscriptionKey: env.LP_SUBSCRIPTION_KEY,
  fleetApiKey: env.LP_FLEET_API_KEY,
  tokenEndpoint: 'service',
});
// Token API, both endpoints: the service's lifetime is spelled expired_in, the identity provider's expires_in.
const t = await lp.token.POST('/token', {
  body: { grant_type: 'client_credentials', client_id: required('LP_CLIENT_ID'), client_secret: required('LP_CLIENT_SECRET') },
});
const lifetime: number = t.data.expired_in;
if (typeof lifetime !== 'number') throw new Error('expected expired_in from the service token endpoint');
const idp = createTokenProvider({
  tokenEndpoint: 'identity-provider',
  authUrl: required('LP_AUTH_URL'),
  clientId: required('LP_CLIENT_ID'),
  clientSecret: required('LP_CLIENT_SECRET'),
  scope: required('LP_SCOPE'),
  subscriptionKey: required('LP_SUBSCRIPTION_KEY'),
});
if ((await idp.getTokenInfo()).expiresInSeconds <= 0) throw new Error('expected a lifetime from the identity provider');
// Carriers API with the bearer token the client fetched itself.
const loadId = required('LP_TEST_LOAD_ID');
const recorded = await lp.carriers.POST('/v1/load-milestone-events', {
  body: { load_id: loadId, milestone_type: 'ARRIVED_AT_PICKUP', event_time: new Date().toISOString().replace(/\.\d+Z$/, 'Z') },
});
if (!recorded.response.ok) throw new Error(`expected the milestone to be accepted, got ${recorded.response.status}`);
// Fleet API with the API-Key.
const { data } = await lp.fleet.GET('/vehicles', { params: { query: { sort: 'vehicleNumber asc' } } });
const vehicles: Vehicle[] = data;
const first = vehicles[0];
if (!first || typeof first.vehicleNumber !== 'string') throw new Error('expected a list of vehicles');
const one = await lp.fleet.GET('/vehicles/{vehicleNumber}', { params: { path: { vehicleNumber: first.vehicleNumber } } });
if (typeof one.data.vin !== 'string') throw new Error('expected one vehicle');
const missing = await lp.fleet
  .GET('/vehicles/{vehicleNumber}', { params: { path: { vehicleNumber: 'V-NOT-THERE' } } })
  .catch((error: unknown) => error);
if (!(missing instanceof ApiError) || missing.kind !== 'http' || missing.status !== 404)
  throw new Error('expected an ApiError of kind http with status 404');
const auth = await buildAuthorizationUrl({
  authUrl: required('LP_AUTH_URL'),
  clientId: 'c',
  redirectUri: 'http://127.0.0.1:1/cb',
  scope: 's',
  pkce: true,
});
if (!auth.codeVerifier) throw new Error('expected a PKCE verifier');
console.log(
  `consumer ok: service token (expired_in ${lifetime}), identity-provider token, milestone ${recorded.response.status} for ${loadId}, ` +
    `${vehicles.length} vehicles, first ${first.vehicleNumber}, 404 as ApiError; ${surface.length} functions, ${pathsSeen.length} paths`,
);
