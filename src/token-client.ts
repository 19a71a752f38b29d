// The Token API client: POST {base_url}/token, and POST/GET {auth_url}/oauth2/... routed to the identity provider.
// Token requests are form-encoded; identity-provider calls carry the subscription key.
import type { Client, Middleware } from 'openapi-fetch';
import type { paths } from '../generated/token.js';
import { SUBSCRIPTION_KEY_HEADER } from './authorizer.js';
import { requireBaseUrl, type TransportOptions } from './client-options.js';
import { composeClient } from './compose-client.js';
import { ReplayableRequest } from './replayable-request.js';
import { Secrets } from './secrets.js';

export type TokenClient = Client<paths>;

export interface TokenClientOptions extends TransportOptions {
  /** {base_url}: the service, home of POST /token. */
  baseUrl?: string;
  /** {auth_url}: the identity provider, home of /oauth2/default/v1/*. */
  authUrl?: string;
  /** Sent as Ocp-Apim-Subscription-Key on identity-provider calls. */
  subscriptionKey?: string;
  /** @internal Shared by the clients of one createLogisticsClient, so every error is scrubbed of every credential. */
  secrets?: Secrets;
}

const IDENTITY_PROVIDER_PREFIX = '/oauth2/';
const FACTORY = 'createTokenClient';

export function createTokenClient(options: TokenClientOptions): TokenClient {
  if (!options.baseUrl && !options.authUrl) throw new TypeError(`${FACTORY}: option "baseUrl" or "authUrl" is required`);
  const baseUrl = options.baseUrl ? requireBaseUrl(FACTORY, 'baseUrl', options.baseUrl) : undefined;
  const authUrl = options.authUrl ? requireBaseUrl(FACTORY, 'authUrl', options.authUrl) : undefined;
  const secrets = options.secrets ?? new Secrets();
  secrets.add(options.subscriptionKey);
  return composeClient<paths>({
    ...options,
    // openapi-fetch needs one base URL; identity-provider paths are moved to authUrl by the routing middleware.
    baseUrl: (baseUrl ?? authUrl)!,
    secrets,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    routing: identityProviderRouting(authUrl, options.subscriptionKey),
  });
}

function identityProviderRouting(authUrl: string | undefined, subscriptionKey: string | undefined): Middleware {
  return {
    async onRequest({ request, schemaPath, options }) {
      if (!schemaPath.startsWith(IDENTITY_PROVIDER_PREFIX)) return undefined;
      if (!authUrl) throw new TypeError(`${FACTORY}: option "authUrl" is required to call ${schemaPath}`);
      const headers = new Headers(request.headers);
      if (subscriptionKey) headers.set(SUBSCRIPTION_KEY_HEADER, subscriptionKey);
      const pathAndQuery = request.url.slice(options.baseUrl.length);
      // The body is read as text: a form body is small, and a stream body would need chunked encoding.
      const body = request.body === null ? null : await request.text();
      return new ReplayableRequest(`${authUrl}${pathAndQuery}`, { method: request.method, headers, body, signal: request.signal, redirect: request.redirect });
    },
  };
}
