// The outcome of every x-assumption of the specs in a run, from its ledger: confirmed, contradicted, not exercised or not
// testable, with the evidence and the spec place to change.
import { sourceOf } from '../../spec-core/assumptions.ts';
import type { LedgerEntry } from '../send/ledger.ts';
import { specAssumptions } from '../model/spec.ts';
import type { AssumptionReportRow } from './report-model.ts';

export function assumptionReport(entries: LedgerEntry[]): AssumptionReportRow[] {
  const outcomes = entries.filter((e) => e.kind === 'assumption');
  const rows = new Map<string, AssumptionReportRow>();
  for (const a of specAssumptions()) {
    // Shared components appear in every bundle; they are one decision.
    const key = `${a.pointer}\n${a.what}`;
    const row = rows.get(key);
    if (row) {
      row.apis.push(a.api);
      continue;
    }
    const seen = outcomes.filter((o) => o.pointer === a.pointer && a.what.includes(o.match));
    const contradicted = seen.filter((o) => o.outcome === 'contradicted');
    const shown = contradicted.length ? contradicted : seen;
    const observed = new Map(shown.flatMap((o) => (o.observed ? [[JSON.stringify(o.observed), o.observed] as const] : [])));
    const spec = sourceOf(a);
    rows.set(key, {
      apis: [a.api],
      pointer: a.pointer || '/',
      seed: a.seed,
      what: a.what.replace(/\s*\n\s*/g, ' '),
      outcome: contradicted.length ? 'contradicted' : seen.length ? 'confirmed' : a.untestable ? 'not testable' : 'not exercised',
      evidence: [...new Set(shown.map((o) => o.evidence))].slice(0, 3),
      observed: [...observed.values()].slice(0, 3),
      ...(spec ? { spec } : {}),
      ...(a.untestable ? { untestable: a.untestable } : {}),
    });
  }
  return [...rows.values()];
}
