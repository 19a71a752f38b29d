// What a run's requests met on the way (from its ledger): sent, throttled, retried, timed out, waited; and the checks
// that passed only after retries.
import type { LedgerEntry } from '../send/ledger.ts';
import { addStats, emptyStats, type TransportStats } from '../send/transport.ts';

/** What the run's requests met on the way: sent, throttled, retried, timed out, time waited. */
export function transportSummary(entries: LedgerEntry[]): TransportStats {
  const total = emptyStats();
  for (const entry of entries) {
    if (entry.kind !== 'exchange' && entry.kind !== 'unjudged') continue;
    addStats(total, { requests: 1, attempts: 1, ...entry.transport });
  }
  return total;
}

/** One line of the transport summary: requests, attempts, throttled, retried, timed out, failed connections, waits. */
export function transportLine(stats: TransportStats): string {
  return (
    `${stats.requests} requests (${stats.attempts} attempts): ${stats.throttled} throttled (429 or 503 with Retry-After), ` +
    `${stats.retried} retried, ${stats.timedOut} timed out, ${stats.dropped} connections failed, ${(stats.waitedMs / 1000).toFixed(1)} s of waits for Retry-After, the rate and backoff (summed over requests)` +
    (stats.unjudged ? `, ${stats.unjudged} without an answer to judge` : '')
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
