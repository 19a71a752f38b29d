// The transport of every client: a fetch that gives up after a fixed time per attempt (while still honouring the
// caller's own signal) and never follows a redirect.
// Redirects are not followed because fetch would carry our credential headers (API-Key, subscription key) and a form
// body with the client secret to whatever host the Location names, and would replay a 301/302/303'd POST as a GET whose
// 200 looks like success. The error middleware turns the 3xx it gets instead into an ApiError (kind 'redirect').
// A request whose body is known is sent as (url, init): fetch then builds one Request instead of copying ours.
import { originOf } from './replayable-request.js';

export type FetchFunction = (input: Request | string, init?: RequestInit) => Promise<Response>;

export const DEFAULT_TIMEOUT_MS = 30_000;

/** In Node (undici) the 3xx itself comes back, Location included; a browser gives an opaque redirect (status 0). */
const REDIRECT: RequestRedirect = 'manual';

export function timeoutFetch(fetchImpl: FetchFunction, timeoutMs: number): FetchFunction {
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new TypeError('option "timeoutMs" must be a positive number of milliseconds');
  return (input, init) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    if (typeof input === 'string') {
      const caller = init?.signal;
      return fetchImpl(input, { ...init, redirect: REDIRECT, signal: caller ? AbortSignal.any([caller, timeout]) : timeout });
    }
    const origin = originOf(input);
    if (origin) {
      // Only the caller's signal can abort besides the timeout; the request's own signal merely follows it.
      const signal = origin.callerSignal ? AbortSignal.any([origin.callerSignal, timeout]) : timeout;
      return fetchImpl(input.url, { method: input.method, headers: input.headers, body: origin.body, redirect: REDIRECT, signal });
    }
    return fetchImpl(input, { ...init, redirect: REDIRECT, signal: AbortSignal.any([init?.signal ?? input.signal, timeout]) });
  };
}
