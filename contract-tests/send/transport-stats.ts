// What the transport's requests met (TransportStats, summed over the run) and how each went (RequestPace), and the run's
// pace from those notes: how long the requests took against the bound their round trip sets (the chain of awaited
// answers, or all of them at the ceiling in flight). transport.json and the console report them.

/** What the transport met: the run reports the sums. */
export interface TransportStats {
  /** Requests the suite asked to send (a retry is not a new one). */
  requests: number;
  /** Attempts that went out, retries included. */
  attempts: number;
  /** Answers 429 (and 503 with Retry-After) that paused the run. */
  throttled: number;
  /** Of those, the answers 429 (Too Many Requests): the origin's limit, which its pace is meant to keep them from. */
  limited: number;
  /** Attempts sent again after a transient fault. */
  retried: number;
  /** Attempts that timed out. */
  timedOut: number;
  /** Attempts whose connection failed or was dropped before an answer. */
  dropped: number;
  /** Time requests spent waiting for a Retry-After, the rate limit or a backoff, summed over requests (they wait side by side), in ms. */
  waitedMs: number;
  /** Requests sent once more on a new connection: their kept-alive one had been closed before any byte of the answer. */
  reconnected: number;
  /** Requests that ended without an answer to judge. */
  unjudged: number;
}

export const emptyStats = (): TransportStats => ({
  requests: 0,
  attempts: 0,
  throttled: 0,
  limited: 0,
  retried: 0,
  timedOut: 0,
  dropped: 0,
  waitedMs: 0,
  reconnected: 0,
  unjudged: 0,
});

export function addStats(into: TransportStats, from: Partial<TransportStats>): TransportStats {
  for (const key of Object.keys(into) as (keyof TransportStats)[]) into[key] += from[key] ?? 0;
  return into;
}

/**
 * When and how one request went, for the run's pace (paceOf). Not summed: the stats carry it beside their counts, and
 * the ledger keeps it with each exchange.
 */
export interface RequestPace {
  /** When its last attempt went out, in ms since the epoch. */
  sentAt: number;
  /** From its last attempt going out to its answer (the headers through fetch; the whole answer, read at once, through
   * send/direct-fetch.ts), in ms. */
  roundTripMs: number;
  /**
   * Answers its worker had waited for before it was asked for, plus one: the length of the chain it ends, counting as
   * dependent every request sent after another was answered (an estimate from above: it cannot see which it needed).
   */
  depth: number;
  /**
   * The API whose address it went to, as its place in API_VARIABLES counted from 1 (1 LP_BASE_URL, 2 LP_AUTH_URL,
   * 3 LP_FLEET_BASE_URL), 0 another address: a number, as every note of the ledger is, for the counts per origin.
   */
  api: number;
}

/** The base URL variables of the APIs, in the order RequestPace.api counts them from 1. */
export const API_VARIABLES = ['LP_BASE_URL', 'LP_AUTH_URL', 'LP_FLEET_BASE_URL'] as const;

/** The pace of a run, from the notes its requests left (RequestPace): what transport.json and the console report. */
export interface RunPace {
  /** The median round trip of the requests, in ms. */
  roundTripMs: number;
  /** From the first request out to the last answer, in ms. */
  spanMs: number;
  /** The most requests in flight at once (all workers together), and the mean while the run sent (round trips ÷ span). */
  mostInFlight: number;
  meanInFlight: number;
  /** The ceiling of requests in flight (--concurrency). */
  ceiling: number;
  /** The longest chain of requests each sent after an answer its worker awaited (over all the files the worker ran). */
  chain: number;
  /**
   * The least time these requests take at this round trip: the chain at one round trip a step, or all the requests at
   * the ceiling in flight, whichever is longer. The rest of the span is the suite's and the target's own work, and the
   * order vitest runs the checks in.
   */
  boundMs: number;
  /** spanMs ÷ boundMs: 1 is as fast as the round trip allows. */
  ratio: number;
}

/** The run's pace from its requests' notes; undefined when none carries one. */
export function paceOf(notes: Partial<RequestPace>[], ceiling: number): RunPace | undefined {
  const sent = notes.filter((n): n is Partial<RequestPace> & { sentAt: number } => typeof n.sentAt === 'number' && n.sentAt > 0);
  if (sent.length === 0) return undefined;
  const trips = sent.map((n) => n.roundTripMs ?? 0).sort((a, b) => a - b);
  const roundTripMs = trips[Math.floor(trips.length / 2)]!;
  const edges = sent.flatMap((n) => [
    [n.sentAt, 1],
    [n.sentAt + (n.roundTripMs ?? 0), -1],
  ]);
  edges.sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
  let inFlight = 0;
  let mostInFlight = 0;
  for (const [, step] of edges) {
    inFlight += step!;
    mostInFlight = Math.max(mostInFlight, inFlight);
  }
  // The workers' gates keep within the ceiling; the notes' times come from each worker thread's own clock, which may
  // differ from another's by a millisecond, so an overlap counted across workers is capped at the ceiling.
  mostInFlight = Math.min(mostInFlight, ceiling);
  const spanMs = Math.max(1, edges.at(-1)![0]! - edges[0]![0]!);
  const chain = Math.max(...sent.map((n) => n.depth ?? 1));
  const boundMs = Math.max(chain * roundTripMs, (sent.length * roundTripMs) / ceiling, 1);
  const meanInFlight = trips.reduce((sum, trip) => sum + trip, 0) / spanMs;
  return { roundTripMs, spanMs, mostInFlight, meanInFlight, ceiling, chain, boundMs, ratio: spanMs / boundMs };
}

/** The pace as one clause of the console's `contract: requests:` line. */
export function paceLine(pace: RunPace): string {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return (
    `round trip ${Math.round(pace.roundTripMs)} ms (median), up to ${pace.mostInFlight} in flight (${pace.meanInFlight.toFixed(1)} on average, ceiling ${pace.ceiling}); ` +
    `the longest chain of awaited answers is ${pace.chain}, so these requests need at least ${seconds(pace.boundMs)} at this round trip: ` +
    `they took ${seconds(pace.spanMs)}, ${pace.ratio.toFixed(2)}x that bound`
  );
}
