// Builds one openapi-fetch client from the shared pieces: timeout transport, error, auth and resend middlewares.
import createClient, { createFinalURL, createQuerySerializer, defaultPathSerializer } from 'openapi-fetch';
import type { ApiClient } from './api-client.js';
import { authMiddleware, type RequestAuthorizer } from './authorizer.js';
import type { ResolvedTransport } from './client-options.js';
import { errorMiddleware, failureDescriber, type Attempts, type FailureContext, type FailureDescriber } from './error-middleware.js';
import { requestMaker, type RequestMaker } from './replayable-request.js';
import { sequence } from './middleware-sequence.js';
import { InvalidJson, parseJsonResult } from './response-body.js';
import { resendMiddleware } from './resend-middleware.js';
import type { Secrets } from './secrets.js';
import { settleTimeout, timeoutFetch, type FetchFunction } from './timeout-fetch.js';

/**
 * Already checked values only: the factories validate their options before they compose a client.
 * @internal
 */
export interface ComposeOptions {
  baseUrl: string;
  /** The option the caller gave baseUrl as, for the hints of errors (default 'baseUrl'). */
  baseUrlOption?: string;
  transport: ResolvedTransport;
  secrets: Secrets;
  authorizer?: RequestAuthorizer;
  headers?: Record<string, string>;
  /** Requests that may be sent again although their method is not idempotent (e.g. a client-credentials grant). */
  safeToRepeat?: (request: Request) => boolean;
}

const QUERY_SERIALIZER = createQuerySerializer();

/** The call methods of an openapi-fetch client. */
const HTTP_METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'] as const;

interface CallInit {
  baseUrl?: string;
  middleware?: unknown[];
  params?: { path?: Record<string, unknown>; query?: Record<string, unknown> };
  signal?: AbortSignal | null;
  fetch?: FetchFunction;
  parseAs?: string;
}

/**
 * The call surface of an openapi-fetch client: a method per HTTP verb, and `request(method, ...)` behind them.
 * @internal
 */
export type ClientCalls<Init = CallInit> = Record<(typeof HTTP_METHODS)[number], (path: string, init?: Init) => Promise<unknown>> & {
  request(method: string, path: string, init?: Init): Promise<unknown>;
};

/**
 * Points every verb method of `client` at its `request`, so that whatever `request` does, every call does.
 * @internal
 */
export function callThroughRequest<Init>(client: ClientCalls<Init>): void {
  for (const method of HTTP_METHODS) client[method] = (path, init) => client.request(method, path, init);
}

/**
 * `Paths` is an interface of the generated types; openapi-fetch constrains it to `{}`.
 * @internal
 */
export function composeClient<Paths extends {}>(options: ComposeOptions): ApiClient<Paths> {
  const { transport } = options;
  const requests = requestMaker();
  const client = createClient<Paths>({
    baseUrl: options.baseUrl,
    fetch: transport.fetch,
    Request: requests.Request,
    // A function is used as it is; options would make openapi-fetch build a serializer on every call.
    querySerializer: QUERY_SERIALIZER,
    ...(options.headers ? { headers: options.headers } : {}),
  });
  // The one way this client turns a failure without a usable response into an ApiError, wherever it is caught.
  const attempts: Attempts = new WeakMap();
  const context: FailureContext = {
    secrets: options.secrets,
    baseUrlOption: options.baseUrlOption ?? 'baseUrl',
    timeoutMs: transport.timeoutMs,
    attempts,
    proxyFor: transport.proxyFor,
  };
  const describe = failureDescriber(context);
  // A re-send on a new connection goes through the client's own connections; a fetch given for one call is used as it is.
  const newConnection = (fetch: unknown) => (fetch === transport.fetch ? transport.freshFetch : fetch);
  // Order matters: onRequest runs in this order, onResponse and onError in reverse. Run as one middleware, the client's
  // own cost openapi-fetch one await per hook on each call instead of one per hook of each of them.
  client.use(
    sequence(
      errorMiddleware(context, transport.maxResponseBytes, describe),
      ...(options.authorizer ? [authMiddleware(options.authorizer)] : []),
      resendMiddleware(transport.retry, describe, attempts, options.authorizer, options.safeToRepeat, newConnection, transport.onResend),
    ),
  );
  guardCalls(client as unknown as ClientCalls, options.baseUrl, describe, transport.timeoutMs, requests);
  // A caller's middleware reads real Requests (the client's own middlewares, added above, do not need them).
  const use = client.use;
  client.use = (...middleware) => {
    requests.useRealRequests();
    use(...middleware);
  };
  // The calls now throw ApiError on every outcome but a success: ApiClient types them so.
  return client as unknown as ApiClient<Paths>;
}

/**
 * Wraps each call method so that (1) a `fetch` given for one call gets the timeout too, (2) JSON is parsed here, so
 * that a body that is not JSON is an ApiError (openapi-fetch would throw a bare SyntaxError), and (3) a failure while
 * the response body is read (a timeout or a dropped connection after the status line arrived, a body over the limit),
 * which no middleware sees, still surfaces as an ApiError.
 */
function guardCalls(client: ClientCalls, baseUrl: string, describe: FailureDescriber, timeoutMs: number, requests: RequestMaker): void {
  const request = client.request;
  client.request = (method, path, init) => {
    const parseHere = init?.parseAs === undefined || init.parseAs === 'json';
    // 'stream' makes openapi-fetch hand over the unread body; parseJsonResult reads and parses it.
    const own: CallInit = parseHere ? { ...init, parseAs: 'stream' } : { ...init };
    if (init?.fetch) own.fetch = timeoutFetch(init.fetch, timeoutMs);
    // openapi-fetch builds the request before its first await, so only this call's request is a real one.
    const call = init?.middleware?.length ? requests.whileReal(() => request(method, path, own)) : request(method, path, own);
    // A body openapi-fetch read (text, blob, arrayBuffer) is done with; a stream is read by the caller, under the timeout.
    const settled = parseHere
      ? call.then(parseJsonResult as (result: unknown) => unknown)
      : // Stryker disable next-line OptionalChaining: this branch runs only when parseAs was given, so init is set
        init?.parseAs === 'stream'
        ? call
        : call.then(settleResult);
    return settled.catch((error: unknown) => {
      throw describeLateFailure(describe, error, method.toUpperCase(), path, baseUrl, init);
    });
  };
  callThroughRequest(client);
}

function settleResult(result: unknown): unknown {
  settleTimeout((result as { response: Response }).response);
  return result;
}

function describeLateFailure(
  describe: FailureDescriber,
  error: unknown,
  method: string,
  path: string,
  baseUrl: string,
  init: CallInit | undefined,
): unknown {
  // Only transport failures: a timeout, fetch's TypeError with a cause (undici's "terminated", "fetch failed"), a body
  // that is not JSON. Anything else (bad configuration, a caller's own error) passes through unchanged.
  const transport =
    error instanceof InvalidJson ||
    (error instanceof Error && (error.name === 'TimeoutError' || (error instanceof TypeError && error.cause !== undefined)));
  if (!transport) return error;
  let url: string;
  try {
    url = createFinalURL(path, {
      // Stryker disable next-line OptionalChaining: without init, the fallback below builds the same URL from baseUrl and path
      baseUrl: init?.baseUrl ?? baseUrl,
      // Stryker disable next-line OptionalChaining: without init, the fallback below builds the same URL from baseUrl and path
      params: init?.params ?? {},
      querySerializer: QUERY_SERIALIZER,
      pathSerializer: defaultPathSerializer,
    });
  } catch /* Stryker disable next-line BlockStatement: the call built this URL from the same options before it failed */ {
    // Stryker disable next-line StringLiteral: the call built this URL from the same options before it failed
    url = `${baseUrl}${path}`;
  }
  return describe(error, { method, url, signal: init?.signal ?? undefined }, path);
}
