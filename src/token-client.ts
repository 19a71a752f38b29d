// The Token API client: POST {base_url}/token, and POST/GET {auth_url}/oauth2/... at the identity provider.
// Token requests are form-encoded; identity-provider calls carry the subscription key.
import type { Middleware } from 'openapi-fetch';
import type { ApiClient } from './api-client.js';
import { ApiError, displayUrl } from './api-error.js';
import type { paths } from '../generated/token.js';
import { requireBaseUrl, resolveTransport, type ResolvedTransport, type TransportOptions } from './client-options.js';
import { callThroughRequest, composeClient, type ClientCalls } from './compose-client.js';
import { SUBSCRIPTION_KEY_HEADER } from './headers.js';
import { originOf } from './replayable-request.js';
import { Secrets } from './secrets.js';

export type TokenClient = ApiClient<paths>;

export interface TokenClientOptions extends TransportOptions {
  /** {base_url}: the service, home of POST /token. */
  baseUrl?: string | undefined;
  /** {auth_url}: the identity provider, home of /oauth2/default/v1/*. */
  authUrl?: string | undefined;
  /** Sent as Ocp-Apim-Subscription-Key on identity-provider calls. */
  subscriptionKey?: string | undefined;
}

/**
 * What the token client is built from: checked values (see createTokenClient and createLogisticsClient).
 * @internal
 */
export interface TokenClientSettings {
  baseUrl: string | undefined;
  authUrl: string | undefined;
  subscriptionKey: string | undefined;
  transport: ResolvedTransport;
  /** Shared by the clients of one createLogisticsClient, so every error is scrubbed of every credential. */
  secrets: Secrets;
  /** The public factory the caller used: a missing host is reported under its name. */
  factory: string;
}

const IDENTITY_PROVIDER_PREFIX = '/oauth2/';
const FACTORY = 'createTokenClient';
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

type AnyClient = ClientCalls<unknown> & {
  use(...middleware: Middleware[]): void;
  eject(...middleware: Middleware[]): void;
};

export function createTokenClient(options: TokenClientOptions): TokenClient {
  if (!options.baseUrl && !options.authUrl) throw new TypeError(`${FACTORY}: option "baseUrl" or "authUrl" is required`);
  const secrets = new Secrets();
  secrets.add(options.subscriptionKey);
  return buildTokenClient({
    baseUrl: options.baseUrl ? requireBaseUrl(FACTORY, 'baseUrl', options.baseUrl) : undefined,
    authUrl: options.authUrl ? requireBaseUrl(FACTORY, 'authUrl', options.authUrl) : undefined,
    subscriptionKey: options.subscriptionKey,
    transport: resolveTransport(FACTORY, options),
    secrets,
    factory: FACTORY,
  });
}

/**
 * One typed client over two hosts: paths under /oauth2/ go to the identity provider ({auth_url}), the others to the
 * service ({base_url}). Each host has its own openapi-fetch client, so each keeps its own base URL and path prefix.
 * @internal
 */
export function buildTokenClient(settings: TokenClientSettings): TokenClient {
  const { baseUrl, authUrl, subscriptionKey, transport, secrets, factory } = settings;
  const common = { transport, secrets, safeToRepeat: isClientCredentialsGrant };
  const service = baseUrl ? (composeClient<paths>({ ...common, baseUrl, headers: FORM }) as unknown as AnyClient) : undefined;
  const identityProvider = authUrl
    ? (composeClient<paths>({
        ...common,
        baseUrl: authUrl,
        baseUrlOption: 'authUrl',
        headers: subscriptionKey ? { ...FORM, [SUBSCRIPTION_KEY_HEADER]: subscriptionKey } : FORM,
      }) as unknown as AnyClient)
    : undefined;
  const clients = [service, identityProvider].filter((client): client is AnyClient => client !== undefined);

  function clientFor(path: string): AnyClient {
    if (path.startsWith(IDENTITY_PROVIDER_PREFIX)) {
      if (!identityProvider) throw new TypeError(`${factory}: option "authUrl" is required to call ${path}`);
      return identityProvider;
    }
    if (!service) throw new TypeError(`${factory}: option "baseUrl" is required to call ${path}`);
    return service;
  }

  const facade = {
    request: (method: string, path: string, init?: unknown) => {
      try {
        return clientFor(path).request(method, path, init);
      } catch (error) {
        return Promise.reject(error);
      }
    },
    use: (...middleware: Middleware[]) => {
      for (const client of clients) client.use(...middleware);
    },
    eject: (...middleware: Middleware[]) => {
      for (const client of clients) client.eject(...middleware);
    },
  } as AnyClient;
  callThroughRequest(facade);
  return facade as unknown as TokenClient;
}

/**
 * A client-credentials grant asks for a new token and changes nothing on the server, so it is retried like an idempotent
 * call (network errors, timeouts, 429, 502-504). An authorization-code exchange is not: a code is good for one use.
 */
function isClientCredentialsGrant(request: Request): boolean {
  if (request.method !== 'POST') return false;
  const body = originOf(request)?.body;
  // Stryker disable next-line ConditionalExpression: a body that is not a string has no grant_type either (the URLSearchParams of null or of nothing)
  if (typeof body !== 'string') return false;
  return new URLSearchParams(body).get('grant_type') === 'client_credentials';
}

/**
 * A token answer without a usable access_token (valid JSON, but not a token) as the ApiError every other unusable
 * answer is; the client-credentials provider and the authorization-code exchange both check their answer with it.
 * @internal
 */
export function requireAccessToken(data: unknown, response: Response, operation: string): asserts data is { access_token: string } {
  const token = (data as { access_token?: unknown } | null)?.access_token;
  if (typeof token === 'string' && token !== '') return;
  throw new ApiError({
    kind: 'invalid_response',
    status: response.status,
    operation,
    url: displayUrl(response.url || 'about:blank'),
    detail: 'the token response has no access_token',
  });
}
