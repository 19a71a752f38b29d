// A fetch that gives up after a fixed time per attempt, while still honouring the caller's own signal.
// A request whose body is known is sent as (url, init): fetch then builds one Request instead of copying ours.
import { originOf } from './replayable-request.js';

export type FetchFunction = (input: Request | string, init?: RequestInit) => Promise<Response>;

export const DEFAULT_TIMEOUT_MS = 30_000;

export function timeoutFetch(fetchImpl: FetchFunction, timeoutMs: number): FetchFunction {
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new TypeError('option "timeoutMs" must be a positive number of milliseconds');
  return (input, init) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    if (typeof input === 'string') {
      const caller = init?.signal;
      return fetchImpl(input, { ...init, signal: caller ? AbortSignal.any([caller, timeout]) : timeout });
    }
    const origin = originOf(input);
    if (origin) {
      // Only the caller's signal can abort besides the timeout; the request's own signal merely follows it.
      const signal = origin.callerSignal ? AbortSignal.any([origin.callerSignal, timeout]) : timeout;
      return fetchImpl(input.url, { method: input.method, headers: input.headers, body: origin.body, redirect: input.redirect, signal });
    }
    return fetchImpl(input, { ...init, signal: AbortSignal.any([init?.signal ?? input.signal, timeout]) });
  };
}
