// Middleware that turns every unsuccessful outcome into an ApiError: an error status, a network failure, a timeout.
// Registered first, so it sees the final response after retries and 401 replays (openapi-fetch runs onResponse in reverse).
import type { Middleware } from 'openapi-fetch';
import { ApiError, displayUrl, requestIdsOf, summarizeBody } from './api-error.js';
import { errorCode, networkHint } from './network-hints.js';
import { redactionWindow } from './redact.js';
import { InvalidJson, limitResponse } from './response-body.js';
import type { Secrets } from './secrets.js';
import { discardResponse, settleTimeout } from './timeout-fetch.js';

// How much of an error body an ApiError keeps, and of a body that is not JSON; both are redacted before they are cut,
// with room for the longest spelling of a credential that starts inside what is kept.
const ERROR_BODY_CHARS = 64 * 1024;
const EXCERPT_CHARS = 200;

/** The first `chars` characters of `text`, redacted. */
function redactedStart(secrets: Secrets, text: string, chars: number): string {
  return secrets.redact(redactionWindow(text, chars)).slice(0, chars);
}

/**
 * Turns a failure without a usable response into the client's error (see describeFailure).
 * @internal
 */
export type FailureDescriber = (error: unknown, request: RequestSummary, schemaPath: string) => unknown;

/**
 * What one client's errors are told about it: its credentials (to redact), the option its base URL came from and the
 * per-attempt timeout (for the hints), and how often each request was sent (recorded by the resend middleware, keyed
 * by the final response or error).
 * @internal
 */
export interface FailureContext {
  secrets: Secrets;
  /** The option the caller gave the base URL as (`fleetBaseUrl` to createLogisticsClient, `baseUrl` to createFleetClient). */
  baseUrlOption: string;
  timeoutMs: number;
  attempts: Attempts;
  /** The proxy a request to a URL goes through, when the client chose the connections (undefined: direct or unknown). */
  proxyFor?: ((url: string) => string | undefined) | undefined;
}

/**
 * How often a request was sent, by its final response or error, when it was sent more than once.
 * @internal
 */
export type Attempts = WeakMap<object, number>;

/**
 * describeFailure bound to one client: the single function every failure path of that client uses.
 * @internal
 */
export function failureDescriber(context: FailureContext): FailureDescriber {
  return (error, request, schemaPath) => describeFailure(context, error, request, schemaPath);
}

/**
 * `maxResponseBytes`: the size limit for the final response's body (0: none); see limitResponse.
 * `describe`: the client's failureDescriber, shared with the resend middleware and the call guard.
 * @internal
 */
export function errorMiddleware(context: FailureContext, maxResponseBytes: number, describe: FailureDescriber): Middleware {
  return {
    // Not async: the happy path returns at once instead of allocating a promise per call.
    // It sees only the final response (after retries and replays), so only that one gets the size limit.
    onResponse({ request, response, schemaPath }) {
      const limited = limitResponse(response, maxResponseBytes, () =>
        tooLargeError(request, response.status, schemaPath, maxResponseBytes),
      );
      if (response.ok) return limited === response ? undefined : limited;
      return toApiError(context.secrets, request, limited, schemaPath, context.attempts.get(response));
    },
    onError({ request, error, schemaPath }) {
      const described = describe(error, request, schemaPath);
      return described instanceof Error ? described : undefined;
    },
  };
}

/** Rejects with the ApiError of an error response (body read, redacted and summarised) or of a redirect. */
async function toApiError(
  secrets: Secrets,
  request: Request,
  response: Response,
  schemaPath: string,
  attempts: number | undefined,
): Promise<never> {
  if (isRedirect(response)) {
    await discardResponse(response);
    throw new ApiError({
      kind: 'redirect',
      status: response.status,
      operation: `${request.method} ${schemaPath}`,
      url: displayUrl(request.url),
      requestIds: requestIdsOf(response.headers, secrets),
      redirectHost: locationHost(secrets, response, request.url),
    });
  }
  let raw: string;
  try {
    raw = await response.text();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    // Unreadable (timeout, dropped connection): the status is the news.
    raw = '';
  } finally {
    settleTimeout(response);
  }
  const text = redactedStart(secrets, raw, ERROR_BODY_CHARS);
  let body: unknown = text || undefined;
  // Stryker disable next-line StringLiteral: no Content-Type and a placeholder both say nothing of JSON
  if (text && (response.headers.get('content-type') ?? '').includes('json')) {
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON after all: keep the text.
    }
  }
  throw new ApiError({
    kind: 'http',
    status: response.status,
    operation: `${request.method} ${schemaPath}`,
    url: displayUrl(request.url),
    body,
    requestIds: requestIdsOf(response.headers, secrets),
    detail: summarizeBody(body),
    attempts,
  });
}

/** What a body over the limit fails with, wherever it is read (by the client, or by a caller who asked for a stream). */
function tooLargeError(request: Request, status: number, schemaPath: string, limit: number): ApiError {
  const detail = `${limit} bytes; the download was stopped`;
  return new ApiError({
    kind: 'response_too_large',
    status,
    operation: `${request.method} ${schemaPath}`,
    url: displayUrl(request.url),
    detail,
  });
}

/** A 3xx, or what a browser gives for one under redirect: 'manual' (an opaque redirect, status 0, no headers). */
function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}

/** Host and port of the Location (relative to the request): the rest of the URL may carry a credential. */
function locationHost(secrets: Secrets, response: Response, requestUrl: string): string | undefined {
  const location = response.headers.get('location');
  if (!location || !URL.canParse(location, requestUrl)) return undefined;
  return secrets.redact(new URL(location, requestUrl).host) || undefined;
}

/**
 * What describeFailure needs of a request: a Request, or the parts of one known when no Request is at hand.
 * @internal
 */
export interface RequestSummary {
  method: string;
  url: string;
  /** The caller's signal, or a signal that follows it (a Request's). */
  signal?: AbortSignal | undefined;
}

/**
 * A failure without a usable response (none, or a body that is not JSON) as an ApiError; the caller's own abort
 * and errors already described pass through.
 */
function describeFailure(context: FailureContext, error: unknown, request: RequestSummary, schemaPath: string): unknown {
  if (error instanceof ApiError || isCallerAbort(error, request.signal)) return error;
  const { secrets } = context;
  const operation = `${request.method} ${schemaPath}`;
  if (error instanceof InvalidJson) {
    // Redacted before it is cut, so that no part of a credential survives the cut.
    const excerpt = redactedStart(secrets, error.text, EXCERPT_CHARS);
    const detail = excerpt === '' ? 'the body is empty' : excerpt.replace(/\s+/g, ' ');
    return new ApiError({
      kind: 'invalid_response',
      status: error.status,
      operation,
      url: displayUrl(request.url),
      body: excerpt || undefined,
      detail,
    });
  }
  const timedOut = error instanceof Error && error.name === 'TimeoutError';
  const cause = error instanceof Error ? (error.cause ?? error) : error;
  const code = errorCode(cause);
  const url = displayUrl(request.url);
  // Stryker disable next-line ConditionalExpression,LogicalOperator: WeakMap.get of a primitive or null is undefined, as the guard gives
  const attempts = typeof error === 'object' && error !== null ? context.attempts.get(error) : undefined;
  if (timedOut) {
    const hint = `No answer within ${context.timeoutMs} ms (the option "timeoutMs", per attempt): raise it if the server is slow, or check that "${context.baseUrlOption}" names the right host.`;
    return new ApiError({ kind: 'timeout', status: 0, operation, url, attempts, hint: secrets.redact(hint) });
  }
  // OpenSSL's own text (library, function, source file and line) says nothing to a caller; its code does.
  const reason =
    cause instanceof Error ? secrets.redact(code?.startsWith('ERR_SSL_') ? code : `${code ?? cause.name}: ${cause.message}`) : undefined;
  const hint = networkHint(cause, request.url, context.baseUrlOption, context.proxyFor?.(request.url));
  return new ApiError({
    kind: 'network',
    status: 0,
    operation,
    url,
    detail: reason,
    attempts,
    hint: hint === undefined ? undefined : secrets.redact(hint),
  });
}

/**
 * The caller's own signal aborted the call: surface the caller's reason unchanged, whatever it is (an AbortError, the
 * TimeoutError of the caller's AbortSignal.timeout, or a custom reason).
 * @internal
 */
export function isCallerAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  if (signal?.aborted && error === signal.reason) return true;
  return error instanceof Error && error.name === 'AbortError';
}
