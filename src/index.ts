// Public surface of @logistics-partner/api: typed openapi-fetch clients for the token, carriers and fleet APIs, with auth.
// The API types themselves are at '@logistics-partner/api/token', '/carriers' and '/fleet'.
export { createLogisticsClient, type LogisticsClient, type LogisticsClientOptions } from './logistics-client.js';
export { createTokenClient, type TokenClient, type TokenClientOptions } from './token-client.js';
export { createCarriersClient, type CarriersClient, type CarriersClientOptions } from './carriers-client.js';
export { createFleetClient, type FleetClient, type FleetClientOptions } from './fleet-client.js';
export {
  createTokenProvider,
  type TokenEndpoint,
  type TokenInfo,
  type TokenProvider,
  type TokenProviderOptions,
} from './token-provider.js';
export {
  AuthorizationError,
  buildAuthorizationUrl,
  exchangeAuthorizationCode,
  parseAuthorizationCallback,
  type AuthorizationCallback,
  type AuthorizationRequest,
  type AuthorizationUrlOptions,
  type ExchangeAuthorizationCodeOptions,
  type IdentityProviderToken,
} from './authorization-code.js';
export { ApiError, type ApiErrorKind } from './api-error.js';
export type { ApiClient, CallOptions, CallResult, SuccessData } from './api-client.js';
export type { RetryOptions } from './retry-policy.js';
export type { TransportOptions } from './client-options.js';
export type { ResendEvent, ResendListener, ResendReason } from './resend-event.js';
