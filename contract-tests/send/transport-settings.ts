// How the suite's transport is set: its bounds and pace from the LP_CONTRACT_* variables (the runner sets them from its
// options), and how many test files a live run takes on at once. send/transport.ts re-exports all of it.
import { availableParallelism } from 'node:os';
import { integerVariable, readVariable } from '../../config/environment.ts';

export interface TransportSettings {
  /** Per attempt, in ms. */
  timeoutMs: number;
  /** Attempts per request, the first included. */
  tries: number;
  /** The longest single wait for a Retry-After, in ms; a target that asks for longer is "could not judge". */
  maxWaitMs: number;
  /** Requests per second at most (a gateway's known quota); undefined: adapt to the 429s met. */
  rateLimit: number | undefined;
  /**
   * Requests per second at most to the identity provider (LP_AUTH_URL's address), all workers together: a limit it
   * shares with the partner's own users. Undefined: paced by what its answers say.
   */
  idpRateLimit: number | undefined;
  /**
   * Requests in flight at most, over all workers: the ceiling. Below it the number adapts: it starts at 8, grows while
   * requests wait and the round trip holds, and shrinks when the round trip rises.
   */
  concurrency: number;
  /** Worker threads of a live run (each has its own transport, with its share of the concurrency and the rate). */
  workers: number;
}

export const DEFAULT_TRANSPORT: TransportSettings = {
  timeoutMs: 15_000,
  tries: 6,
  maxWaitMs: 60_000,
  rateLimit: undefined,
  idpRateLimit: undefined,
  concurrency: 128,
  workers: 3,
};

/** Requests in flight at the start of each worker, before the round trip says how many the target takes; a queue brings
 * them back to this many, all workers together. */
export const INITIAL_IN_FLIGHT = 8;
/** An idle connection is reused for at most this long when the server announced no keep-alive timeout. */
export const KEEP_ALIVE_MS = 1_000;

/** The settings from LP_CONTRACT_* variables (the runner sets them from its options); an invalid value is an error naming it. */
export function readTransportSettings(source: NodeJS.ProcessEnv): TransportSettings {
  const rateLimit = rateVariable('LP_CONTRACT_RATE_LIMIT', source);
  const idpRateLimit = rateVariable('LP_CONTRACT_IDP_RATE_LIMIT', source);
  return {
    workers: integerVariable('LP_CONTRACT_WORKERS', DEFAULT_TRANSPORT.workers, 1, source),
    timeoutMs: integerVariable('LP_CONTRACT_TIMEOUT_MS', DEFAULT_TRANSPORT.timeoutMs, 100, source),
    tries: integerVariable('LP_CONTRACT_TRIES', DEFAULT_TRANSPORT.tries, 1, source),
    maxWaitMs: integerVariable('LP_CONTRACT_MAX_WAIT_S', DEFAULT_TRANSPORT.maxWaitMs / 1000, 0, source) * 1000,
    rateLimit,
    idpRateLimit,
    concurrency: integerVariable('LP_CONTRACT_CONCURRENCY', DEFAULT_TRANSPORT.concurrency, 1, source),
  };
}

/** A rate in requests per second (a fraction allowed, e.g. 0.5), or undefined when unset; anything else an error naming it. */
function rateVariable(name: 'LP_CONTRACT_RATE_LIMIT' | 'LP_CONTRACT_IDP_RATE_LIMIT', source: NodeJS.ProcessEnv): number | undefined {
  const raw = readVariable(name, source);
  const rate = raw === undefined ? undefined : Number(raw);
  if (rate !== undefined && !(Number.isFinite(rate) && rate > 0))
    throw new Error(`${name} must be a number of requests per second above 0, got "${raw}"`);
  return rate;
}

/**
 * Test files a live run runs side by side, from the least round trip the preflight met: each file's checks run one
 * after another, so a far target is faster with more files at once (one more per 25 ms, at most 8), but each is a worker
 * thread that loads the suite and judges every answer, so at most two per core: on 2 cores 200 ms away, 8 workers took
 * 30 to 34 s and 4 or 5 took 22 to 24 s (measured side by side, 2,366 requests). Near, the run waits on the CPU, not on
 * the target: 3 workers, or one per core on fewer (on 2 cores, 3 workers cost 1.4 CPU-seconds more than 2, some 0.6 ms a
 * request, and took no less time). A target on this machine (`targetHere`: a sandbox or a proxy on a loopback address)
 * answers from the same cores, so near it the suite takes one core fewer: each worker warms up its own copy of the
 * suite's code, and on 2 cores at loopback 1 worker cost 1.1 to 1.5 CPU-seconds less than 2 (about 0.5 ms a request)
 * and took no longer (3 runs each, side by side).
 */
export function workersFor(roundTripMs: number, cores: number = availableParallelism(), targetHere = false): number {
  const near = Math.min(DEFAULT_TRANSPORT.workers, Math.max(1, cores - (targetHere ? 1 : 0)));
  return Math.min(8, 2 * Math.max(2, cores), Math.max(near, Math.ceil(roundTripMs / 25)));
}
