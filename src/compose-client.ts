// Builds one openapi-fetch client from the shared pieces: timeout transport, error, auth and resend middlewares.
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { authMiddleware, type RequestAuthorizer } from './authorizer.js';
import type { TransportOptions } from './client-options.js';
import { describeFailure, errorMiddleware } from './error-middleware.js';
import { ReplayableRequest } from './replayable-request.js';
import { resendMiddleware } from './resend-middleware.js';
import { resolveRetryPolicy } from './retry-policy.js';
import type { Secrets } from './secrets.js';
import { DEFAULT_TIMEOUT_MS, timeoutFetch, type FetchFunction } from './timeout-fetch.js';

export interface ComposeOptions extends TransportOptions {
  baseUrl: string;
  secrets: Secrets;
  authorizer?: RequestAuthorizer;
  headers?: Record<string, string>;
  /** Middlewares that rewrite the request before it is authorized (e.g. routing to another host). */
  routing?: Middleware;
}

// `paths` is an interface of the generated types; openapi-fetch constrains it to `{}`.
export function composeClient<Paths extends {}>(options: ComposeOptions): Client<Paths> {
  const baseFetch = (options.fetch ?? globalThis.fetch) as FetchFunction;
  const client = createClient<Paths>({
    baseUrl: options.baseUrl,
    fetch: timeoutFetch(baseFetch, options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    Request: ReplayableRequest,
    ...(options.headers ? { headers: options.headers } : {}),
  });
  const policy = resolveRetryPolicy(options.retry);
  const secrets = options.secrets;
  // Order matters: onRequest runs in this order, onResponse and onError in reverse.
  client.use(errorMiddleware(secrets));
  if (options.routing) client.use(options.routing);
  if (options.authorizer) client.use(authMiddleware(options.authorizer));
  client.use(resendMiddleware(policy, (error, request, schemaPath) => describeFailure(secrets, error, request, schemaPath), options.authorizer));
  return client;
}
