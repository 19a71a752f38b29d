// The requests in flight of all of a run's workers together, under one ceiling (--concurrency,
// LP_CONTRACT_CONCURRENCY), counted in memory that every thread of the process shares. The runner offers a pool before
// vitest starts its worker threads, and Node hands it to each of them (worker_threads' environment data, copied into
// every thread started after it is set), so every worker counts on the same one from its first request.
// Without a pool (vitest started directly, a self-test), each worker keeps a fixed share of the ceiling (gate.ts).
import { getEnvironmentData, setEnvironmentData } from 'node:worker_threads';

const KEY = 'lp-contract-flight-pool';
/** Requests in flight, all threads together; the ceiling; the threads whose requests wait for a slot below their share. */
const USED = 0;
const CEILING = 1;
const STARVING = 2;
const CELLS = 3;

export class FlightPool {
  private readonly cells: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer) {
    this.cells = new Int32Array(buffer);
  }

  /** A new pool of `ceiling` slots. */
  static of(ceiling: number): FlightPool {
    const pool = new FlightPool(new SharedArrayBuffer(CELLS * Int32Array.BYTES_PER_ELEMENT));
    Atomics.store(pool.cells, CEILING, ceiling);
    return pool;
  }

  get ceiling(): number {
    return Atomics.load(this.cells, CEILING);
  }

  /** Requests in flight now, all threads together. */
  get used(): number {
    return Atomics.load(this.cells, USED);
  }

  /** Takes a slot if one is free (true), or leaves the count as it was (false). */
  take(): boolean {
    if (Atomics.add(this.cells, USED, 1) < this.ceiling) return true;
    Atomics.sub(this.cells, USED, 1);
    return false;
  }

  /** Gives a slot back. */
  give(): void {
    Atomics.sub(this.cells, USED, 1);
  }

  /**
   * Says that this thread's requests wait below its share (true), or no longer (false): a busier thread leaves them the
   * slots that free up.
   */
  starve(starving: boolean): void {
    if (starving) Atomics.add(this.cells, STARVING, 1);
    else Atomics.sub(this.cells, STARVING, 1);
  }

  /** Threads whose requests wait below their share. */
  get starving(): number {
    return Atomics.load(this.cells, STARVING);
  }
}

/** Offers a new pool of `ceiling` slots to every thread started from now on (the runner, before vitest starts its workers). */
export function offerFlightPool(ceiling: number): FlightPool {
  const pool = FlightPool.of(ceiling);
  setEnvironmentData(KEY, pool.buffer);
  return pool;
}

/** Offers none to the threads started from now on (a self-test's own pool, once it is done). */
export function withdrawFlightPool(): void {
  setEnvironmentData(KEY, undefined);
}

/** The pool this thread's process offered, if any. */
export function offeredFlightPool(): FlightPool | undefined {
  const buffer = getEnvironmentData(KEY);
  return buffer instanceof SharedArrayBuffer ? new FlightPool(buffer) : undefined;
}
