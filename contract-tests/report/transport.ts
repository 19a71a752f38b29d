// What a run's requests met on the way (from its ledger): sent, throttled, retried, timed out, waited; and the checks
// that passed only after retries.
import type { LedgerEntry } from '../send/ledger.ts';
import {
  addStats,
  emptyStats,
  paceLine,
  paceOf,
  type RequestPace,
  readTransportSettings,
  type RunPace,
  type TransportStats,
} from '../send/transport.ts';

/** What the run's requests met on the way: sent, throttled, retried, timed out, time waited; and the run's pace. */
export function transportSummary(entries: LedgerEntry[]): TransportStats & { pace?: RunPace } {
  const total = emptyStats();
  const notes: Partial<RequestPace>[] = [];
  for (const entry of entries) {
    if (entry.kind !== 'exchange' && entry.kind !== 'unjudged') continue;
    addStats(total, { requests: 1, attempts: 1, ...entry.transport });
    if (entry.transport) notes.push(entry.transport);
  }
  const pace = paceOf(notes, readTransportSettings().concurrency);
  return pace ? { ...total, pace } : total;
}

/** One line of the transport summary: requests, attempts, throttled, retried, timed out, failed connections, waits, pace. */
export function transportLine(stats: TransportStats & { pace?: RunPace }): string {
  return (
    `${stats.requests} requests (${stats.attempts} attempts): ${stats.throttled} throttled (429 or 503 with Retry-After), ` +
    `${stats.retried} retried, ${stats.timedOut} timed out, ${stats.dropped} connections failed, ` +
    (stats.reconnected ? `${stats.reconnected} sent again on a new connection (a kept-alive one had closed), ` : '') +
    `${(stats.waitedMs / 1000).toFixed(1)} s of waits for Retry-After, the rate and backoff (summed over requests)` +
    (stats.unjudged ? `, ${stats.unjudged} without an answer to judge` : '') +
    (stats.pace ? `; ${paceLine(stats.pace)}` : '')
  );
}

/** Checks whose requests were retried or waited out (throttled): a check among them that passed, passed after retries. */
export function retriedChecks(entries: LedgerEntry[]): Array<{ check: string; retried: number; throttled: number }> {
  const byCheck = new Map<string, { check: string; retried: number; throttled: number }>();
  for (const entry of entries) {
    if (entry.kind !== 'exchange' || !entry.transport) continue;
    const { retried = 0, throttled = 0 } = entry.transport;
    if (!retried && !throttled) continue;
    const check = byCheck.get(entry.test) ?? { check: entry.test, retried: 0, throttled: 0 };
    check.retried += retried;
    check.throttled += throttled;
    byCheck.set(entry.test, check);
  }
  return [...byCheck.values()];
}
