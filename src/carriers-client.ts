// The Carriers API client: bearer token from a token provider on every call (plus the subscription key when configured),
// one replay after a 401 with a renewed token, and no retry of the milestone POST unless the caller opts in.
import type { ApiClient } from './api-client.js';
import type { paths } from '../generated/carriers.js';
import { bearerTokenAuthorizer, type TokenSource } from './authorizer.js';
import { requireBaseUrl, resolveTransport, type ResolvedTransport, type TransportOptions } from './client-options.js';
import { composeClient } from './compose-client.js';
import { Secrets } from './secrets.js';
import { ownTokenProvider, type TokenProvider, type TokenProviderOptions } from './token-provider.js';

export type CarriersClient = ApiClient<paths>;

export interface CarriersClientOptions extends TransportOptions, Partial<Omit<TokenProviderOptions, 'baseUrl' | keyof TransportOptions>> {
  /** {base_url}: the service, with any path prefix. Required; `undefined` (an unset variable) fails at once, naming it. */
  baseUrl: string | undefined;
  /** Where tokens come from; when absent, one is made from clientId, clientSecret, tokenEndpoint, etc. */
  tokenProvider?: TokenProvider | undefined;
  /** Sent as Ocp-Apim-Subscription-Key alongside the bearer token when set. */
  subscriptionKey?: string | undefined;
}

/**
 * All the carriers client is given: its host, a token source, the subscription key and the transport.
 * @internal
 */
export interface CarriersClientSettings {
  baseUrl: string;
  tokens: TokenSource;
  subscriptionKey: string | undefined;
  transport: ResolvedTransport;
  secrets: Secrets;
}

const FACTORY = 'createCarriersClient';

export function createCarriersClient(options: CarriersClientOptions): CarriersClient {
  const baseUrl = requireBaseUrl(FACTORY, 'baseUrl', options.baseUrl);
  const secrets = new Secrets();
  secrets.add(options.subscriptionKey);
  const transport = resolveTransport(FACTORY, options);
  const tokens = options.tokenProvider ?? ownTokenProvider(FACTORY, { ...(options as TokenProviderOptions), baseUrl }, secrets, transport);
  return buildCarriersClient({ baseUrl, tokens, subscriptionKey: options.subscriptionKey, transport, secrets });
}

/** @internal */
export function buildCarriersClient(settings: CarriersClientSettings): CarriersClient {
  const { baseUrl, tokens, subscriptionKey, transport, secrets } = settings;
  return composeClient<paths>({ baseUrl, transport, secrets, authorizer: bearerTokenAuthorizer(tokens, secrets, subscriptionKey) });
}
