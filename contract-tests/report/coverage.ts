// The coverage of a run, from its ledger: operation × documented status × security scheme, exercised or not and why
// not; and the negative space, the requests per operation and operator.
import { documentedResponseKey } from '../judge/conformance.ts';
import { CROSSING_DIMENSIONS, CROSSING_ID, crossingOf, type LedgerEntry } from '../send/ledger.ts';
import { type Operation, specOperations } from '../model/spec.ts';
import { type CoverageRow, type CrossingCoverage, DIMENSIONS, type DimensionRow } from './report-model.ts';

// Why a documented status is usually not provoked by a contract run; a recorded skip reason wins over these.
const DEFAULT_WHY_NOT: Record<string, string> = {
  '403': 'needs credentials that are valid but not approved for the product; no LP_* variable provides them',
  '404': 'answered only for a wrong base URL or an unknown resource that this operation does not address',
  '429': 'rate limiting is not provoked: a contract run must not flood the target',
  '500': 'a server failure cannot be provoked on purpose (and any 5xx fails the run)',
  '3XX': 'a redirect status other than 302: the range covers servers that pick another one',
  '4XX': 'a client error other than those listed: the range covers servers that pick another code',
};

const label = (requirement: Record<string, unknown>) => Object.keys(requirement).sort().join('+') || 'none';

const sortScheme = (s: string) => s.split('+').sort().join('+');

/** The exchanges of each operation, read once: the schemes seen (in the order first seen), and the exchanges of each
 * operation, scheme and documented status. */
function exchangesByOperation(entries: LedgerEntry[], ops: readonly Operation[]) {
  const byId = new Map(ops.map((op) => [op.operationId, op]));
  const observed = new Map<string, Set<string>>();
  const hits = new Map<string, number>();
  const key = (operationId: string, scheme: string, status: string) => `${operationId}\n${scheme}\n${status}`;
  for (const e of entries) {
    if (e.kind !== 'exchange') continue;
    const op = byId.get(e.operationId);
    if (!op) continue;
    const scheme = sortScheme(e.scheme);
    observed.set(op.operationId, (observed.get(op.operationId) ?? new Set()).add(scheme));
    const status = documentedResponseKey(op, e.status);
    if (status === undefined) continue;
    const at = key(op.operationId, scheme, status);
    hits.set(at, (hits.get(at) ?? 0) + 1);
  }
  return { observed, hitsOf: (operationId: string, scheme: string, status: string) => hits.get(key(operationId, scheme, status)) ?? 0 };
}

export function coverage(entries: LedgerEntry[], ops: readonly Operation[] = specOperations()): CoverageRow[] {
  const skips = entries.filter((e) => e.kind === 'skip');
  const { observed, hitsOf } = exchangesByOperation(entries, ops);
  const rows: CoverageRow[] = [];
  for (const op of ops) {
    const declared = op.security.length ? op.security.map(label) : ['none'];
    const schemes = [...new Set([...declared, ...(observed.get(op.operationId) ?? [])])];
    for (const status of Object.keys(op.responses)) {
      for (const scheme of schemes) {
        const hits = hitsOf(op.operationId, scheme, status);
        // Only declared schemes get a "not exercised" row; an undeclared one (a negative request) appears when seen.
        if (!hits && !declared.includes(scheme)) continue;
        const skip = skips.find((s) => s.operationIds.includes(op.operationId));
        rows.push({
          operationId: op.operationId,
          status,
          scheme,
          exercised: hits,
          ...(hits
            ? {}
            : {
                whyNot:
                  DEFAULT_WHY_NOT[status] ??
                  (skip ? `a check of this operation was skipped (${skip.reason})` : 'no check of this run provoked this status'),
              }),
        });
      }
    }
  }
  return rows;
}

export function dimensionCoverage(entries: LedgerEntry[], ops: readonly Operation[] = specOperations()): DimensionRow[] {
  const rows = new Map<string, DimensionRow>(
    [...new Set(ops.map((o) => o.operationId))].map((id) => [id, { operationId: id, requests: {} }]),
  );
  const add = (row: DimensionRow, key: string) => {
    row.requests[key] = (row.requests[key] ?? 0) + 1;
  };
  for (const entry of entries) {
    if (entry.kind !== 'exchange') continue;
    // "getVehicle (DELETE)": a method the path does not document counts for the path's operation.
    const row = rows.get(entry.operationId.split(' (')[0]!);
    if (!row) continue;
    if (entry.operator) add(row, crossingOf(entry.operator) ? CROSSING_ID : entry.operator);
    else if (entry.dimension && (DIMENSIONS as readonly string[]).includes(entry.dimension)) add(row, entry.dimension);
    // Every refused answer of a documented operation is judged for disclosure (judge/checks/refusal-disclosure.ts).
    if (entry.status >= 400 && entry.status < 500 && !entry.operationId.includes(' (')) add(row, 'disclosure');
  }
  return [...rows.values()];
}

export function crossingCoverage(entries: LedgerEntry[]): CrossingCoverage {
  const coverage: CrossingCoverage = { requests: 0, perDimension: {}, perPair: {} };
  const count = (table: Record<string, Record<string, number>>, key: string, value: string) => {
    table[key] ??= {};
    table[key][value] = (table[key][value] ?? 0) + 1;
  };
  for (const entry of entries) {
    const values = entry.kind === 'exchange' && entry.operator ? crossingOf(entry.operator) : undefined;
    if (!values) continue;
    coverage.requests += 1;
    values.forEach((value, i) => {
      count(coverage.perDimension, CROSSING_DIMENSIONS[i]!, value);
      for (let j = i + 1; j < values.length; j += 1)
        count(coverage.perPair, `${CROSSING_DIMENSIONS[i]} × ${CROSSING_DIMENSIONS[j]}`, `${value} × ${values[j]}`);
    });
  }
  return coverage;
}
