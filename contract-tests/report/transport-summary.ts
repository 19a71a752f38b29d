// What a run's requests met on the way (from its ledger): sent, throttled, retried, timed out, waited, and how many went
// to each origin and were answered 429 there; and the checks that passed only after retries.
import type { LedgerEntry } from '../send/ledger.ts';
import {
  API_VARIABLES,
  addStats,
  emptyStats,
  paceLine,
  paceOf,
  type RequestPace,
  DEFAULT_TRANSPORT,
  type RunPace,
  type TransportStats,
} from '../send/transport.ts';

/** The requests that went to one origin (one API's address, where APIs share an origin), and its answers 429. */
export interface OriginRequests {
  /** The base URL variable of the API, or of each API at that address ("another address" for a request under none). */
  api: string;
  /** The API's base URL, as configured (no credential is ever part of it). */
  address: string;
  requests: number;
  /** Answers 429 (Too Many Requests), retries included. */
  limited: number;
}

export type TransportSummary = TransportStats & { pace?: RunPace; origins?: OriginRequests[] };

/** A base URL as the transport keys its pace: origin and path, without a trailing slash. */
const addressOf = (base: string | undefined) =>
  base && URL.canParse(base) ? `${new URL(base).origin}${new URL(base).pathname.replace(/\/+$/, '')}` : undefined;

/** The requests per origin, the most first. */
function originsOf(entries: LedgerEntry[], env: Partial<Record<string, string>>): OriginRequests[] {
  const byApi = new Map<number, OriginRequests>();
  for (const entry of entries) {
    if (entry.kind !== 'exchange' && entry.kind !== 'unjudged') continue;
    const api = entry.transport?.api ?? 0;
    let row = byApi.get(api);
    if (!row) {
      const variable = API_VARIABLES[api - 1];
      const address = (variable && env[variable]) || '';
      // APIs at one address (the mock serves all three at one origin) are one origin: each is named.
      const sharing = API_VARIABLES.filter((name) => address && addressOf(env[name]) === addressOf(address));
      row = { api: variable ? sharing.join(', ') : 'another address', address, requests: 0, limited: 0 };
      byApi.set(api, row);
    }
    row.requests += 1;
    row.limited += entry.transport?.limited ?? 0;
  }
  return [...byApi.values()].sort((a, b) => b.requests - a.requests);
}

/** What the run's requests met on the way: sent, throttled, retried, timed out, time waited, per origin; and the run's pace. */
export function transportSummary(
  entries: LedgerEntry[],
  env: Partial<Record<string, string>>,
  concurrency = DEFAULT_TRANSPORT.concurrency,
): TransportSummary {
  const total = emptyStats();
  const notes: Partial<RequestPace>[] = [];
  for (const entry of entries) {
    if (entry.kind !== 'exchange' && entry.kind !== 'unjudged') continue;
    addStats(total, { requests: 1, attempts: 1, ...entry.transport });
    if (entry.transport) notes.push(entry.transport);
  }
  const pace = paceOf(notes, concurrency);
  const origins = originsOf(entries, env);
  return { ...total, ...(origins.length ? { origins } : {}), ...(pace ? { pace } : {}) };
}

/** The requests per origin as one clause: "LP_AUTH_URL (http://…/idp) 1283, 3 answered 429; …". */
export function originsLine(origins: OriginRequests[]): string {
  return origins.map((o) => `${o.api}${o.address ? ` (${o.address})` : ''} ${o.requests}, ${o.limited} answered 429`).join('; ');
}

/** One line of the transport summary: requests, attempts, throttled, retried, timed out, failed connections, waits, the
 * requests per origin, pace. */
export function transportLine(stats: TransportSummary): string {
  return (
    `${stats.requests} requests (${stats.attempts} attempts): ${stats.throttled} throttled (429 or 503 with Retry-After), ` +
    `${stats.retried} retried, ${stats.timedOut} timed out, ${stats.dropped} connections failed, ` +
    (stats.reconnected ? `${stats.reconnected} sent again on a new connection (a kept-alive one had closed), ` : '') +
    `${(stats.waitedMs / 1000).toFixed(1)} s of waits for Retry-After, the rate and backoff (summed over requests)` +
    (stats.unjudged ? `, ${stats.unjudged} without an answer to judge` : '') +
    (stats.origins?.length ? `; per origin: ${originsLine(stats.origins)}` : '') +
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
