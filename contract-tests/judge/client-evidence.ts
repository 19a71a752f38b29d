// What the published client did on the way, as evidence: a call it sent again (after a 401 with a renewed token, or a
// retry), and the token requests it made for it. The exchanges themselves are judged like every other (a token refused
// within its hour is a violation of token-lifetime, whoever absorbed it); this records the sequence, so the reports
// show which positive flows needed the client's help and why.
import type { Exchange } from '../send/fetch.ts';
import { record } from '../send/ledger.ts';
import { ROLES } from '../send/operations.ts';
import { operationIdOf } from './exchange-facts.ts';

/** The client's latest call per running check: method, URL and status, to see the next one repeat it. */
const latest = new Map<string, { key: string; status: number }>();
const MAX_CHECKS = 1000;

export function recordClientEvidence(seen: Exchange): void {
  if (!seen.meta.client) return;
  const operationId = operationIdOf(seen) ?? seen.request.method;
  const key = `${seen.request.method} ${seen.request.url}`;
  const before = latest.get(seen.test);
  if (before?.key === key)
    record({
      kind: 'note',
      operationId,
      dimension: 'client',
      text: `the published client sent ${operationId} again after it answered ${before.status}${before.status === 401 ? ' (it renewed its token and replayed the call)' : ' (a retry)'}; it answered ${seen.response.status} then`,
      test: seen.test,
    });
  // A token request in between is the client renewing its credential: the call before it stays the one to compare.
  if (!ROLES.tokenEndpoints.includes(operationId)) latest.set(seen.test, { key, status: seen.response.status });
  if (latest.size > MAX_CHECKS) latest.delete(latest.keys().next().value!);
}
