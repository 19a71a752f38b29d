// When and how long to wait before sending a request again: capped exponential backoff with full jitter, and Retry-After.

export interface RetryOptions {
  /** Total attempts for a retryable request, the first one included (default 3; 1 disables retries). */
  attempts?: number | undefined;
  /** First backoff step in ms (default 200); each retry doubles it. */
  baseDelayMs?: number | undefined;
  /** Cap of one backoff wait in ms (default 5000). */
  maxDelayMs?: number | undefined;
  /** A Retry-After longer than this (ms, default 30000) is not waited for: the response surfaces as an error. */
  maxRetryAfterMs?: number | undefined;
  /**
   * Retry non-idempotent calls (the milestone POST) after network errors, timeouts, 429 and 5xx too.
   * Off by default: a duplicate milestone event is worse than an error. A 401 replay happens regardless.
   */
  retryNonIdempotent?: boolean | undefined;
  /** Source of jitter in [0, 1); injectable for tests. */
  random?: (() => number) | undefined;
  /** How to wait; injectable for tests. Must reject when `signal` aborts. */
  sleep?: ((ms: number, signal: AbortSignal) => Promise<void>) | undefined;
}

/** @internal */
export type ResolvedRetryPolicy = { [Option in keyof RetryOptions]-?: Exclude<RetryOptions[Option], undefined> };

/** @internal */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);
const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** @internal */
export function resolveRetryPolicy(options: RetryOptions = {}): ResolvedRetryPolicy {
  const policy: ResolvedRetryPolicy = {
    attempts: options.attempts ?? 3,
    baseDelayMs: options.baseDelayMs ?? 200,
    maxDelayMs: options.maxDelayMs ?? 5_000,
    maxRetryAfterMs: options.maxRetryAfterMs ?? 30_000,
    retryNonIdempotent: options.retryNonIdempotent ?? false,
    random: options.random ?? Math.random,
    sleep: options.sleep ?? abortableSleep,
  };
  if (!Number.isInteger(policy.attempts) || policy.attempts < 1)
    throw new TypeError('option "retry.attempts" must be an integer of at least 1');
  for (const name of ['baseDelayMs', 'maxDelayMs', 'maxRetryAfterMs'] as const) {
    if (!Number.isFinite(policy[name]) || policy[name] < 0) throw new TypeError(`option "retry.${name}" must be a non-negative number`);
  }
  return policy;
}

/** @internal */
export function mayRetry(method: string, policy: ResolvedRetryPolicy): boolean {
  return IDEMPOTENT_METHODS.has(method) || policy.retryNonIdempotent;
}

/**
 * Backoff before retry number `retry` (1-based): a random wait up to min(cap, base * 2^(retry-1)).
 * @internal
 */
export function backoffMs(retry: number, policy: ResolvedRetryPolicy): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(policy.random() * ceiling);
}

// RFC 9110 section 10.2.3: Retry-After = HTTP-date / delay-seconds. An HTTP-date is an IMF-fixdate, or one of the two
// obsolete formats a recipient must still accept (RFC 850 and asctime).
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d{2}:\\d{2}:\\d{2}';
const HTTP_DATE = new RegExp(
  [
    `^${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT$`,
    `^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \\d{2}-${MONTH}-\\d{2} ${TIME} GMT$`,
    `^${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4}$`,
  ].join('|'),
);

/**
 * Retry-After in ms (delay-seconds or an HTTP-date), or undefined when absent or not in either form.
 * @internal
 */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  const value = header?.trim();
  // Stryker disable next-line ConditionalExpression: an empty or missing value passes neither format check below: undefined either way
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  if (!HTTP_DATE.test(value)) return undefined;
  // asctime has no zone; it is GMT.
  // Stryker disable next-line MethodExpression: Date.parse reads an IMF-fixdate or RFC 850 date with a second ' GMT' appended as the same instant
  const date = Date.parse(value.endsWith('GMT') ? value : `${value} GMT`);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
