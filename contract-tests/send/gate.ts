// The bound on the requests one worker has in flight, over every origin, adapted to the round trip, and the rate the
// partner configured for all of them (--rate-limit). Where the run's workers share one pool of the ceiling
// (flight-pool.ts), a worker also takes each request's slot from it. What one origin's limit asks (a 429's pause, a
// quota's pace) is that origin's alone: send/origin-pace.ts.

import type { FlightPool } from './flight-pool.ts';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Round trips against the least one seen. More requests may go out while the quickest of the latest answers came
 * within 1.5 times the least (the path holds none back: their time is distance); fewer go out once the median of the
 * latest passes twice the least (requests wait in a queue, the target's, or the suite's own busy worker's). The quickest
 * says the path is free, the median that a queue is: a worker busy with its own checks, a cold start or a new
 * connection delays some answers, never most of them.
 */
const ON_THE_WAY = 1.5;
const QUEUED = 2;
/** How many of the latest round trips the gate looks at; a queue is judged from half of them at least. */
const LATEST = 16;
/** How soon requests held back by the shared pool look again: a slot another worker frees tells this one nothing. */
const POLL_MS = 2;

/** The run's pool of the ceiling, and this worker's share of it (the ceiling ÷ the workers). */
export interface SharedCeiling {
  pool: FlightPool;
  share: number;
}

/**
 * Bounds the requests in flight and their rate. The number in flight starts at `start` and adapts between `least`
 * (default: the start) and `ceiling` to the round trip: while requests wait for a slot and the path holds none back, it
 * grows by one per answer (doubling every round trip), and after its first cut by one per round trip; once they queue,
 * it takes a quarter off, once per round trip, never below `least`. A far target's round trip is distance, which more
 * requests at once do not lengthen, so it gets many; a near or busy one's is queueing, so it keeps the few it answers as
 * fast.
 */
export class Gate {
  private inFlight = 0;
  private limit: number;
  private readonly floor: number;
  private growing = true;
  private least = Number.POSITIVE_INFINITY;
  private readonly latest: number[] = [];
  private lastCut = Number.NEGATIVE_INFINITY;
  private most = 0;
  private readonly waiting: (() => void)[] = [];
  private nextSlot = 0;
  /** Requests wait while this worker has fewer than its share in flight: the pool knows. */
  private starving = false;
  private looking: NodeJS.Timeout | undefined;

  /**
   * With `shared`, the workers' requests together stay within the pool's ceiling: a worker takes what the others leave,
   * up to `ceiling` (the whole), and past its share it leaves the slots that free up to any worker waiting below its
   * own. Without, a worker keeps within its own `ceiling`.
   */
  constructor(
    readonly ceiling: number,
    private readonly rateLimit?: number,
    start = ceiling,
    private readonly shared?: SharedCeiling,
    least = start,
  ) {
    this.floor = Math.max(1, Math.min(ceiling, least, start));
    this.limit = Math.max(this.floor, Math.min(ceiling, start));
  }

  /** The configured rate (undefined: unlimited). */
  get rate(): number | undefined {
    return this.rateLimit;
  }

  /** Requests allowed in flight now. */
  get concurrency(): number {
    return Math.floor(this.limit);
  }

  /** The most requests that were in flight at once. */
  get reached(): number {
    return this.most;
  }

  /** The least round trip of an answer so far, in ms (Infinity before the first). */
  get leastRoundTrip(): number {
    return this.least;
  }

  /** Waits for a free slot and the rate's next slot; resolves to the ms waited for the rate (not for a slot among the
   * suite's own requests). */
  async acquire(): Promise<number> {
    if (this.waiting.length === 0 && this.mayTake()) this.most = Math.max(this.most, ++this.inFlight);
    else
      await new Promise<void>((resolve) => {
        this.waiting.push(resolve);
        this.watchPool();
      });
    const start = performance.now();
    if (this.rateLimit) {
      const now = performance.now();
      const slot = Math.max(this.nextSlot, now);
      this.nextSlot = slot + 1000 / this.rateLimit;
      if (slot > now) await sleep(slot - now);
    }
    return performance.now() - start;
  }

  /** Frees the slot (handed straight to the next waiter, if the limit allows). */
  release(): void {
    this.inFlight--;
    this.shared?.pool.give();
    this.admit();
  }

  private admit(): void {
    while (this.waiting.length > 0 && this.mayTake()) {
      this.inFlight++;
      this.waiting.shift()!();
    }
    this.most = Math.max(this.most, this.inFlight);
    this.watchPool();
  }

  /** One more request may go: within this gate's limit, and a slot of the shared pool taken. */
  private mayTake(): boolean {
    if (this.inFlight >= this.concurrency) return false;
    const shared = this.shared;
    if (!shared) return true;
    // Past its share, a worker leaves the slots that free up to the workers waiting below theirs.
    if (this.inFlight >= shared.share && shared.pool.starving > (this.starving ? 1 : 0)) return false;
    return shared.pool.take();
  }

  /**
   * While the pool, not this gate's limit, holds requests back: tells the pool whether they wait below this worker's
   * share, and looks again shortly.
   */
  private watchPool(): void {
    const shared = this.shared;
    if (!shared) return;
    const held = this.waiting.length > 0 && this.inFlight < this.concurrency;
    const starving = held && this.inFlight < shared.share;
    if (starving !== this.starving) {
      this.starving = starving;
      shared.pool.starve(starving);
    }
    if (held && !this.looking)
      this.looking = setTimeout(() => {
        this.looking = undefined;
        this.admit();
      }, POLL_MS);
  }

  /** An answer that was not a throttle, `roundTripMs` after its attempt went out: counts toward the limit. */
  accept(roundTripMs?: number): void {
    if (roundTripMs !== undefined) this.adapt(roundTripMs, performance.now());
  }

  private adapt(roundTripMs: number, now: number): void {
    this.least = Math.min(this.least, roundTripMs);
    this.latest.push(roundTripMs);
    if (this.latest.length > LATEST) this.latest.shift();
    const sorted = [...this.latest].sort((a, b) => a - b);
    const typical = sorted[Math.floor(sorted.length / 2)]!;
    // A loopback answer may take no measurable time: a millisecond is the least that counts.
    const least = Math.max(this.least, 1);
    if (this.latest.length >= LATEST / 2 && typical > QUEUED * least) {
      // The answers of one burst are one sign: one cut per round trip.
      if (now - this.lastCut > typical && this.limit > this.floor) {
        this.lastCut = now;
        this.growing = false;
        this.limit = Math.max(this.floor, this.limit * 0.75);
      }
      return;
    }
    // Not held back by the gate, or the path holds some back already: no reason to allow more.
    if (this.waiting.length === 0 || sorted[0]! > ON_THE_WAY * least) return;
    this.limit = Math.min(this.ceiling, this.limit + (this.growing ? 1 : 1 / this.limit));
    this.admit();
  }
}
