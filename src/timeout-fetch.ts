// The transport of every client: a fetch that gives up after a fixed time per attempt (while still honouring the
// caller's own signal) and never follows a redirect.
// Redirects are not followed because fetch would carry our credential headers (API-Key, subscription key) and a form
// body with the client secret to whatever host the Location names, and would replay a 301/302/303'd POST as a GET whose
// 200 looks like success. The error middleware turns the 3xx it gets instead into an ApiError (kind 'redirect').
// A request whose body is known is sent as (url, init): fetch then builds one Request instead of copying ours.
import type { Dispatcher } from './connections.js';
import { keepUnsentCopy, originOf } from './replayable-request.js';

export type FetchFunction = (input: Request | string, init?: RequestInit) => Promise<Response>;

/** @internal */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** In Node (undici) the 3xx itself comes back, Location included; a browser gives an opaque redirect (status 0). */
const REDIRECT: RequestRedirect = 'manual';

// Each attempt's timer, by the response it produced, until that response's body has been read. Clearing it then is
// what makes a plain AbortController and setTimeout cheaper than AbortSignal.timeout: Node tracks every
// AbortSignal.timeout signal for garbage collection, the largest single cost of a call (measured in Node 20: 23 µs per
// signal, against under 1 µs here), while a timer left pending would keep the whole exchange in memory until it fires.
const pendingTimers = new WeakMap<Response, unknown>();

/**
 * `dispatcher`: the connections to send over (fetch's undici option), when the client chose them or was given them.
 * @internal
 */
export function timeoutFetch(fetchImpl: FetchFunction, timeoutMs: number, dispatcher?: Dispatcher): FetchFunction {
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new TypeError('option "timeoutMs" must be a positive number of milliseconds');
  return (input, init) => {
    const controller = new AbortController();
    const timer: unknown = setTimeout(abortForTimeout, timeoutMs, controller);
    // In Node a pending timeout must not keep the process alive; in a browser the timer is a number, with nothing to unref.
    (timer as { unref?: () => void }).unref?.();
    return send(fetchImpl, input, init, controller.signal, dispatcher).then(
      (response) => {
        pendingTimers.set(response, timer);
        return response;
      },
      (error: unknown) => {
        clearTimeout(timer as number);
        throw error;
      },
    );
  };
}

/** fetch's init with undici's `dispatcher` option, which the DOM's RequestInit does not know. */
type SendInit = RequestInit & { dispatcher?: Dispatcher };

function send(
  fetchImpl: FetchFunction,
  input: Request | string,
  init: RequestInit | undefined,
  timeout: AbortSignal,
  dispatcher: Dispatcher | undefined,
): Promise<Response> {
  let sent: SendInit;
  // Stryker disable next-line ConditionalExpression,StringLiteral,BlockStatement: openapi-fetch hands the transport a Request (or a light request), never a string
  if (typeof input === 'string') {
    // Stryker disable next-line OptionalChaining: openapi-fetch hands the transport a Request (or a light request), never a string
    const caller = init?.signal;
    // Stryker disable next-line ObjectLiteral,ArrayDeclaration: openapi-fetch hands the transport a Request (or a light request), never a string
    sent = { ...init, redirect: REDIRECT, signal: caller ? AbortSignal.any([caller, timeout]) : timeout };
  } else {
    const origin = originOf(input);
    if (origin) {
      // Only the caller's signal can abort besides the timeout; the request's own signal merely follows it.
      const signal = origin.callerSignal ? AbortSignal.any([origin.callerSignal, timeout]) : timeout;
      sent = { method: input.method, headers: input.headers, body: origin.body, redirect: REDIRECT, signal };
      input = input.url;
    } else {
      // A Request without an origin (a caller's middleware returned it, or its body is not a string): its body can be
      // read once, so a replay or a retry needs a copy taken now.
      keepUnsentCopy(input);
      sent = { ...init, redirect: REDIRECT, signal: AbortSignal.any([init?.signal ?? input.signal, timeout]) };
    }
  }
  // Set only when there is one: a caller's fetch that is not undici's never sees the option.
  if (dispatcher) sent.dispatcher = dispatcher;
  return fetchImpl(input, sent);
}

/**
 * The body of `response` has been read or abandoned: its attempt's timeout is over. A response nobody settles (one a
 * caller reads as a stream) keeps its timeout running until it fires, which then ends a body still being read.
 * @internal
 */
export function settleTimeout(response: Response): void {
  const timer = pendingTimers.get(response);
  // Stryker disable next-line ConditionalExpression: with no timer kept, clearing and deleting nothing changes nothing
  if (timer === undefined) return;
  clearTimeout(timer as number);
  pendingTimers.delete(response);
}

/**
 * A response whose body is not wanted (a redirect, an answer sent again): the download stops, and its timeout with it.
 * @internal
 */
export async function discardResponse(response: Response): Promise<void> {
  // Its body may never end, and a failed cancel changes nothing for the caller.
  await response.body?.cancel().catch(() => undefined);
  settleTimeout(response);
}

/**
 * `copy` (a wrapper around the body of `response`) now carries its timeout.
 * @internal
 */
export function transferTimeout(response: Response, copy: Response): void {
  const timer = pendingTimers.get(response);
  // Stryker disable next-line ConditionalExpression: a copy carrying no timer is settled the same as one carrying none
  if (timer !== undefined) pendingTimers.set(copy, timer);
}

function abortForTimeout(controller: AbortController): void {
  controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
}
