// How the suite's one fetch reaches a real environment: a gate bounds the requests in flight and their rate, a
// throttled (429) or "not now" (503 with Retry-After) answer pauses every request for as long as the target asks, and
// an idempotent request is sent again after a dropped connection, a timeout, 502, 503 or 504, a bounded number of
// times with backoff and jitter. A transient answer is never handed on as the target's behaviour: either a later try
// gets a real answer, or the request ends in `CouldNotJudge` (the third outcome of a run: neither a violation nor a
// pass). A write (the milestone POST) is sent again only where the answer proves it was not processed (429, or 503
// with Retry-After); after anything else its outcome is unknown, and the run says so.
//
// No vitest here: the runner's preflight uses the same transport before the suite starts.
import { integerVariable, readVariable } from '../../config/environment.ts';

/** What ended a request without an answer the suite can judge; the kind decides the words, never the verdict. */
export type UnjudgedKind = 'unreachable' | 'timeout' | 'throttled' | 'outcome-unknown';

/** A request that got no answer the suite may judge: reported as "could not judge", never as a violation or a pass. */
export class CouldNotJudge extends Error {
  override readonly name = 'CouldNotJudge';
  /** What the request met before it gave up (set by the transport). */
  stats?: TransportStats;

  constructor(
    readonly kind: UnjudgedKind,
    message: string,
  ) {
    super(message);
    // The stack would point into this file: the failure is the target's (or the network's), not the suite's.
    this.stack = `${this.name}: ${message}`;
  }
}

/**
 * The CouldNotJudge behind an error: itself, or the published client's ApiError that wrapped it (a network failure
 * whose detail is "CouldNotJudge: ..."), so a check through the client is never judged on the transport's failure.
 */
export function couldNotJudgeOf(error: unknown): CouldNotJudge | undefined {
  if (error instanceof CouldNotJudge) return error;
  if (!(error instanceof Error) || error.name !== 'ApiError') return undefined;
  // ApiError's message: "<operation> <outcome>: CouldNotJudge: <message> [<url>]".
  const text = /CouldNotJudge: (.*?)(?: \[[^\]]*\])?$/s.exec(error.message)?.[1];
  if (text === undefined) return undefined;
  const kind: UnjudgedKind = /throttled/.test(text)
    ? 'throttled'
    : /not sent again/.test(text)
      ? 'outcome-unknown'
      : /no answer within/.test(text)
        ? 'timeout'
        : 'unreachable';
  return new CouldNotJudge(kind, text.trim());
}

export interface TransportSettings {
  /** Per attempt, in ms. */
  timeoutMs: number;
  /** Attempts per request, the first included. */
  tries: number;
  /** The longest single wait for a Retry-After, in ms; a target that asks for longer is "could not judge". */
  maxWaitMs: number;
  /** Requests per second at most (a gateway's known quota); undefined: adapt to the 429s met. */
  rateLimit: number | undefined;
  /** Requests in flight at most, over all workers. */
  concurrency: number;
  /** Worker threads of a live run (each has its own transport, with its share of the concurrency and the rate). */
  workers: number;
}

export const DEFAULT_TRANSPORT: TransportSettings = {
  timeoutMs: 15_000,
  tries: 6,
  maxWaitMs: 60_000,
  rateLimit: undefined,
  concurrency: 8,
  workers: 3,
};

/** The settings from LP_CONTRACT_* variables (the runner sets them from its options); an invalid value is an error naming it. */
export function readTransportSettings(source: NodeJS.ProcessEnv = process.env): TransportSettings {
  const rawRate = readVariable('LP_CONTRACT_RATE_LIMIT', source);
  const rateLimit = rawRate === undefined ? undefined : Number(rawRate);
  if (rateLimit !== undefined && !(Number.isFinite(rateLimit) && rateLimit > 0))
    throw new Error(`LP_CONTRACT_RATE_LIMIT must be a number of requests per second above 0, got "${rawRate}"`);
  return {
    workers: integerVariable('LP_CONTRACT_WORKERS', DEFAULT_TRANSPORT.workers, 1, source),
    timeoutMs: integerVariable('LP_CONTRACT_TIMEOUT_MS', DEFAULT_TRANSPORT.timeoutMs, 100, source),
    tries: integerVariable('LP_CONTRACT_TRIES', DEFAULT_TRANSPORT.tries, 1, source),
    maxWaitMs: integerVariable('LP_CONTRACT_MAX_WAIT_S', DEFAULT_TRANSPORT.maxWaitMs / 1000, 0, source) * 1000,
    rateLimit,
    concurrency: integerVariable('LP_CONTRACT_CONCURRENCY', DEFAULT_TRANSPORT.concurrency, 1, source),
  };
}

/** What the transport met: the run reports the sums. */
export interface TransportStats {
  /** Requests the suite asked to send (a retry is not a new one). */
  requests: number;
  /** Attempts that went out, retries included. */
  attempts: number;
  /** Answers 429 (and 503 with Retry-After) that paused the run. */
  throttled: number;
  /** Attempts sent again after a transient fault. */
  retried: number;
  /** Attempts that timed out. */
  timedOut: number;
  /** Attempts whose connection failed or was dropped before an answer. */
  dropped: number;
  /** Time requests spent waiting for a Retry-After, the rate limit or a backoff, summed over requests (they wait side by side), in ms. */
  waitedMs: number;
  /** Requests that ended without an answer to judge. */
  unjudged: number;
}

export const emptyStats = (): TransportStats => ({
  requests: 0,
  attempts: 0,
  throttled: 0,
  retried: 0,
  timedOut: 0,
  dropped: 0,
  waitedMs: 0,
  unjudged: 0,
});

export function addStats(into: TransportStats, from: Partial<TransportStats>): TransportStats {
  for (const key of Object.keys(into) as (keyof TransportStats)[]) into[key] += from[key] ?? 0;
  return into;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Bounds the requests in flight and their rate. Without a configured rate it learns one from the 429s it meets: the
 * answers accepted in the last second before a 429 (less a margin) become the rate, which then creeps up again.
 */
export class Gate {
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];
  private pausedUntil = 0;
  private nextSlot = 0;
  private learnedRate: number | undefined;
  private readonly accepted: number[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly rateLimit?: number,
  ) {}

  /** The rate in force: the configured one, or the learned one (undefined: unlimited). */
  get rate(): number | undefined {
    return this.rateLimit ?? this.learnedRate;
  }

  /**
   * Waits for a free slot, the end of a pause and the rate's next slot; resolves to the ms waited for the target's
   * sake (a pause or the rate), not for a slot among the suite's own requests.
   */
  async acquire(): Promise<number> {
    if (this.inFlight >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.inFlight++;
    const start = performance.now();
    for (;;) {
      const pause = this.pausedUntil - performance.now();
      if (pause <= 0) break;
      await sleep(pause);
    }
    const rate = this.rate;
    if (rate) {
      const now = performance.now();
      const slot = Math.max(this.nextSlot, now);
      this.nextSlot = slot + 1000 / rate;
      if (slot > now) await sleep(slot - now);
    }
    return performance.now() - start;
  }

  /** Frees the slot (handed straight to the next waiter, if any). */
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.inFlight--;
  }

  /** An answer that was not a throttle: counts toward the learned rate. */
  accept(): void {
    const now = performance.now();
    this.accepted.push(now);
    while (this.accepted.length && this.accepted[0]! < now - 1000) this.accepted.shift();
    // Creeps up again: 1% per answer (at 20 a second, a fifth faster after a second without a 429).
    if (this.learnedRate !== undefined && this.rateLimit === undefined) this.learnedRate *= 1.01;
  }

  /** A 429 (or a 503 with Retry-After): every request waits `waitMs`, and the learned rate drops below what was let through. */
  throttle(waitMs: number): void {
    const now = performance.now();
    // The requests already in flight when the first 429 came are answered 429 too: one pause, one cut of the rate.
    const sameEpisode = now < this.pausedUntil;
    this.pausedUntil = Math.max(this.pausedUntil, now + waitMs);
    this.nextSlot = Math.max(this.nextSlot, this.pausedUntil);
    if (this.rateLimit !== undefined || sameEpisode) return;
    const recent = this.accepted.length;
    const proposal = Math.max(1, Math.floor(recent * 0.8));
    this.learnedRate = this.learnedRate === undefined ? proposal : Math.max(1, Math.min(this.learnedRate / 2, proposal) || 1);
    this.accepted.length = 0;
  }
}

/** Seconds or an HTTP date, in ms; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with full jitter: up to 250 ms, 500 ms, 1 s, ... capped at 5 s. */
const backoffMs = (retry: number, random: () => number) => random() * Math.min(5000, 250 * 2 ** retry);

/**
 * Whether sending the request again is harmless when the first try's outcome is unknown: reads, and token requests
 * that obtain a new token (client credentials). An authorization code is single-use and a refresh token may rotate, so
 * their exchanges are not, nor is a milestone (a write).
 */
export async function isReplayable(request: Request): Promise<boolean> {
  if (['GET', 'HEAD', 'OPTIONS'].includes(request.method)) return true;
  if (request.method !== 'POST') return false;
  if (!(request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) return false;
  const grant = new URLSearchParams(await request.clone().text()).get('grant_type');
  return grant === 'client_credentials';
}

export interface Sent {
  response: Response;
  /** What this request met (one request's share of the stats). */
  stats: TransportStats;
}

const describe = (request: Request) => `${request.method} ${new URL(request.url).pathname}`;

/** A network failure as one line: the cause's code where undici gives one (ECONNREFUSED, ENOTFOUND, UND_ERR_SOCKET). */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

export class Transport {
  readonly gate: Gate;

  constructor(
    readonly settings: TransportSettings,
    private readonly fetchImpl: typeof fetch = fetch,
    private readonly random: () => number = Math.random,
  ) {
    // The suite's workers each have a transport: each takes its share, so together they keep within the bounds.
    const share = Math.max(1, settings.workers);
    this.gate = new Gate(Math.max(1, Math.ceil(settings.concurrency / share)), settings.rateLimit && settings.rateLimit / share);
  }

  /** Sends the request until it gets an answer to judge; throws CouldNotJudge when it cannot. */
  async send(request: Request): Promise<Sent> {
    const stats = emptyStats();
    stats.requests = 1;
    try {
      return { response: await this.attempt(request, stats), stats };
    } catch (error) {
      if (error instanceof CouldNotJudge) {
        stats.unjudged = 1;
        error.stats = stats;
      }
      throw error;
    }
  }

  private async attempt(request: Request, stats: TransportStats): Promise<Response> {
    const replayable = await isReplayable(request);
    const { tries, timeoutMs, maxWaitMs } = this.settings;
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= tries;
      stats.waitedMs += await this.gate.acquire();
      stats.attempts++;
      let response: Response;
      const timeout = AbortSignal.timeout(timeoutMs);
      try {
        response = await this.fetchImpl(new Request(request.clone(), { signal: AbortSignal.any([request.signal, timeout]) }));
      } catch (error) {
        this.gate.release();
        if (request.signal.aborted) throw error;
        const timedOut = timeout.aborted;
        if (timedOut) stats.timedOut++;
        else stats.dropped++;
        const what = timedOut
          ? `no answer within ${timeoutMs} ms (LP_CONTRACT_TIMEOUT_MS, --timeout)`
          : `the connection failed (${causeOf(error)})`;
        if (!replayable)
          throw new CouldNotJudge(
            'outcome-unknown',
            `${describe(request)}: ${what}; it is not sent again, since a second write could record twice, so whether the target processed it is unknown`,
          );
        if (last)
          throw new CouldNotJudge(
            timedOut ? 'timeout' : 'unreachable',
            `${describe(request)}: ${what}, ${attempt} ${attempt === 1 ? 'try' : 'tries'} (LP_CONTRACT_TRIES, --tries)`,
          );
        stats.retried++;
        stats.waitedMs += await this.pause(backoffMs(attempt - 1, this.random));
        continue;
      }
      this.gate.release();
      const asked = retryAfterMs(response.headers.get('retry-after'));
      // 429, and 503 with Retry-After: the target says it did not process the request now; any request may go again.
      const throttled = response.status === 429 || (response.status === 503 && asked !== undefined);
      const transient = !throttled && replayable && [502, 503, 504].includes(response.status);
      if (!throttled && !transient) {
        this.gate.accept();
        return response;
      }
      if (throttled) stats.throttled++;
      // A 5xx that persists after the tries is the target's answer, judged like any other (a violation); a 429 that
      // persists is the gateway's, and says nothing about the contract.
      if (last) {
        if (response.status !== 429) return response;
        await response.body?.cancel();
        throw new CouldNotJudge(
          'throttled',
          `${describe(request)}: still answered 429 (throttled) after ${attempt} tries (LP_CONTRACT_TRIES, --tries; or cap the rate with --rate-limit)`,
        );
      }
      await response.body?.cancel();
      stats.retried++;
      if (throttled) {
        const wait = asked ?? backoffMs(attempt, this.random) + 1000;
        if (wait > maxWaitMs)
          throw new CouldNotJudge(
            'throttled',
            `${describe(request)}: answered ${response.status} with Retry-After ${Math.ceil(wait / 1000)} s, longer than the suite waits (LP_CONTRACT_MAX_WAIT_S, --max-wait ${Math.round(maxWaitMs / 1000)} s)`,
          );
        // A 429 is the gateway's quota, shared by every request: all of them pause, and the rate drops (the next
        // acquire sits out the pause and counts it). A 503 is this request's: it alone waits.
        if (response.status === 429) this.gate.throttle(wait);
        else stats.waitedMs += await this.pause(wait);
      } else stats.waitedMs += await this.pause(backoffMs(attempt - 1, this.random));
    }
  }

  private async pause(ms: number): Promise<number> {
    await sleep(ms);
    return ms;
  }
}

/** Maps the items concurrently, keeping their order (the gate bounds what is in flight); once all have settled, rejects
 * with the first failure, preferring a check's own failure to a request that could not be judged. */
export async function mapConcurrently<T, R>(items: Iterable<T>, each: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = await Promise.allSettled([...items].map((item, index) => each(item, index)));
  const failures = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  if (failures.length) throw failures.find((f) => !(f instanceof CouldNotJudge)) ?? failures[0];
  return results.map((r) => (r as PromiseFulfilledResult<R>).value);
}

/** Runs `each` over the items concurrently, as `mapConcurrently` does. */
export async function forEachConcurrently<T>(items: Iterable<T>, each: (item: T, index: number) => Promise<void>): Promise<void> {
  await mapConcurrently(items, each);
}
