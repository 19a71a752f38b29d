// Middleware that sends a request again when that is safe: retries (network errors, timeouts, 429, 502-504) for
// idempotent calls, one replay after a 401 with a renewed credential (a 401 means the call was not recorded), and one
// re-send, of any call, on a new connection when a kept-alive connection turned out closed before any byte of the answer
// (the server closed it while idle and never saw the request: RFC 9112 section 9.3.1; browsers do the same). Each
// re-send is told to the caller's onResend right before it goes out (resend-event.ts).
import type { Middleware } from 'openapi-fetch';
import { displayUrl } from './api-error.js';
import type { RequestAuthorizer } from './authorizer.js';
import { isStaleConnection } from './connections.js';
import { isCallerAbort, type Attempts, type FailureDescriber } from './error-middleware.js';
import { replayOf } from './replayable-request.js';
import { notifyResend, type ResendListener, type ResendReason } from './resend-event.js';
import { backoffMs, mayRetry, retryAfterMs, RETRYABLE_STATUSES, type ResolvedRetryPolicy } from './retry-policy.js';
import { discardResponse } from './timeout-fetch.js';

type Fetch = (input: Request, init?: RequestInit) => Promise<Response>;
type Outcome = { response: Response; error?: undefined } | { response?: undefined; error: unknown };

/**
 * `describeFailure`: the client's one failure-to-ApiError function (the error middleware's onError uses it too).
 * `attempts`: where it records how often a request was sent, by its final response or error (an error object a caller's
 * fetch rejects with may come back in a later call: each call records its own count).
 * `safeToRepeat`: requests that may be retried although their method is not idempotent.
 * `newConnection`: the fetch that sends over a new connection, given the fetch a request was sent with.
 * `onResend`: the caller's listener, told of each re-send right before it goes out.
 * @internal
 */
export function resendMiddleware(
  policy: ResolvedRetryPolicy,
  describeFailure: FailureDescriber,
  attempts: Attempts,
  authorizer?: RequestAuthorizer,
  safeToRepeat?: (request: Request) => boolean,
  // Stryker disable next-line ArrowFunction: composeClient, the one caller, always passes newConnection
  newConnection: (fetch: unknown) => unknown = (fetch) => fetch,
  onResend?: ResendListener,
): Middleware {
  // Responses this middleware already settled (from onError) must not be settled again in onResponse.
  const settled = new WeakSet<Response>();
  const resender: Resender = {
    policy,
    attempts,
    authorizer,
    renewable: authorizer?.renew !== undefined,
    retryable: (request) => mayRetry(request.method, policy) || (safeToRepeat?.(request) ?? false),
    newConnection,
    onResend,
  };
  return {
    // Not async: the happy path returns at once instead of allocating a promise per call.
    onResponse({ request, response, options, schemaPath }) {
      if (response.ok || settled.has(response)) return undefined;
      return settle(resender, request, { response }, options.fetch as Fetch, schemaPath).then((outcome) => {
        if (outcome.response) return outcome.response;
        // A throw from onResponse skips the other middlewares, so describe the failure here.
        throw describeFailure(outcome.error, request, schemaPath);
      });
    },
    async onError({ request, error, options, schemaPath }) {
      const outcome = await settle(resender, request, { error }, options.fetch as Fetch, schemaPath);
      if (outcome.response) {
        settled.add(outcome.response);
        return outcome.response;
      }
      // Unchanged (e.g. the caller's own abort reason, which need not be an Error): let it through as it is.
      if (outcome.error === error) return undefined;
      return outcome.error instanceof Error ? outcome.error : new Error(String(outcome.error));
    },
  };
}

/** What one resend middleware re-sends with (see resendMiddleware). */
interface Resender {
  policy: ResolvedRetryPolicy;
  attempts: Attempts;
  authorizer: RequestAuthorizer | undefined;
  /** Whether the authorizer can renew a credential after a 401. */
  renewable: boolean;
  /** Whether `request` may be retried: an idempotent method, or safe to repeat. */
  retryable: (request: Request) => boolean;
  newConnection: (fetch: unknown) => unknown;
  onResend: ResendListener | undefined;
}

/** A copy to send: from the request's origin or the copy the transport kept of its body; a request without a body as it is. */
function copyOf(request: Request): Request {
  return replayOf(request) ?? new Request(request);
}

/** Sends `request` again; `announce` tells the caller right before it goes out (after any token renewal). */
async function resend(resender: Resender, request: Request, fetch: Fetch, announce: () => void): Promise<Outcome> {
  const next = copyOf(request);
  if (resender.authorizer) await resender.authorizer.authorize(next);
  announce();
  try {
    return { response: await fetch(next) };
  } catch (error) {
    return { error };
  }
}

/** The outcome, noted with how often the request was sent. */
function sentTimes(attempts: Attempts, outcome: Outcome, sent: number): Outcome {
  const key = outcome.response ?? outcome.error;
  if (typeof key === 'object' && key !== null) attempts.set(key, sent);
  return outcome;
}

/** What tells the caller of the re-send `reason` that `cause` (the outcome before it) led to, the send after `sent`. */
function announcing(
  onResend: ResendListener | undefined,
  request: Request,
  schemaPath: string,
  reason: ResendReason,
  cause: Outcome,
  sent: number,
): () => void {
  return () => {
    // Stryker disable next-line ConditionalExpression: without a listener, notifyResend would call undefined and drop the TypeError: the same outcome
    if (onResend === undefined) return;
    const { method } = request;
    const status = cause.response?.status ?? 0;
    notifyResend(onResend, {
      reason,
      operation: `${method} ${schemaPath}`,
      method,
      url: displayUrl(request.url),
      attempt: sent + 1,
      status,
    });
  };
}

/** The first outcome of `request` and its re-sends, until one is final: what the call ends with. */
async function settle(resender: Resender, request: Request, first: Outcome, fetch: Fetch, schemaPath: string): Promise<Outcome> {
  const { policy, attempts, onResend } = resender;
  let outcome = first;
  let replayedAfter401 = false;
  let reconnected = false;
  let sent = 1;
  const retryAllowed = resender.retryable(request);
  const announce = (reason: ResendReason, cause: Outcome) => announcing(onResend, request, schemaPath, reason, cause, sent);
  for (let attempt = 1; ; ) {
    if (outcome.error !== undefined && !reconnected && isStaleConnection(outcome.error) && !request.signal.aborted) {
      reconnected = true;
      outcome = await resend(resender, request, resender.newConnection(fetch) as Fetch, announce('new-connection', outcome));
      sent += 1;
      continue;
    }
    if (outcome.response?.status === 401 && resender.renewable && !replayedAfter401) {
      replayedAfter401 = true;
      await discardResponse(outcome.response);
      resender.authorizer!.renew!(request);
      outcome = await resend(resender, request, fetch, announce('renewed-credential', outcome));
      sent += 1;
      continue;
    }
    if (!retryAllowed || attempt >= policy.attempts) return sentTimes(attempts, outcome, sent);
    let wait: number;
    if (outcome.response) {
      if (!RETRYABLE_STATUSES.has(outcome.response.status)) return sentTimes(attempts, outcome, sent);
      const hinted = retryAfterMs(outcome.response.headers.get('retry-after'));
      // No hint is never too long (maxRetryAfterMs is not negative).
      if ((hinted ?? 0) > policy.maxRetryAfterMs) return sentTimes(attempts, outcome, sent);
      wait = hinted ?? backoffMs(attempt, policy);
      await discardResponse(outcome.response);
    } else {
      if (isCallerAbort(outcome.error, request.signal) || request.signal.aborted) return outcome;
      wait = backoffMs(attempt, policy);
    }
    await policy.sleep(wait, request.signal);
    attempt += 1;
    outcome = await resend(resender, request, fetch, announce('retry', outcome));
    sent += 1;
  }
}
