// The Carriers API client: bearer token from a token provider on every call (plus the subscription key when configured),
// one replay after a 401 with a renewed token, and no retry of the milestone POST unless the caller opts in.
import type { Client } from 'openapi-fetch';
import type { paths } from '../generated/carriers.js';
import { bearerTokenAuthorizer } from './authorizer.js';
import { requireBaseUrl, type TransportOptions } from './client-options.js';
import { composeClient } from './compose-client.js';
import { Secrets } from './secrets.js';
import { createTokenProvider, type TokenProvider, type TokenProviderOptions } from './token-provider.js';

export type CarriersClient = Client<paths>;

export interface CarriersClientOptions extends TransportOptions, Partial<Omit<TokenProviderOptions, 'baseUrl' | keyof TransportOptions | 'secrets'>> {
  /** {base_url}: the service, with any path prefix. */
  baseUrl: string;
  /** Where tokens come from; when absent, one is made from clientId, clientSecret, tokenEndpoint, etc. */
  tokenProvider?: TokenProvider;
  /** Sent as Ocp-Apim-Subscription-Key alongside the bearer token when set. */
  subscriptionKey?: string;
  /** @internal */
  secrets?: Secrets;
}

const FACTORY = 'createCarriersClient';

export function createCarriersClient(options: CarriersClientOptions): CarriersClient {
  const baseUrl = requireBaseUrl(FACTORY, 'baseUrl', options.baseUrl);
  const secrets = options.secrets ?? new Secrets();
  secrets.add(options.subscriptionKey);
  const tokens =
    options.tokenProvider ??
    createTokenProvider({ ...(options as TokenProviderOptions), baseUrl, secrets });
  return composeClient<paths>({
    ...options,
    baseUrl,
    secrets,
    authorizer: bearerTokenAuthorizer(tokens, secrets, options.subscriptionKey),
  });
}
