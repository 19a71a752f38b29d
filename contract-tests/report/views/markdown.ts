// The Markdown reports a run writes beside its data: coverage.md (coverage, the negative space, notes) and
// assumptions.md. Views of the report model (report/report-model.ts).
import type { LedgerEntry } from '../../send/ledger.ts';
import {
  type AssumptionReportRow,
  type CoverageRow,
  type CrossingCoverage,
  countOutcomes,
  DIMENSIONS,
  type DimensionRow,
  operatorTotals,
} from '../report-model.ts';
import { contradictionsText, describeObserved } from './text.ts';

export function dimensionsMarkdown(rows: DimensionRow[]): string {
  const columns = [...Object.keys(operatorTotals(rows)), ...DIMENSIONS];
  return [
    '## Negative space: requests per operation and operator',
    '',
    'Each operator of the negative space (contract-tests/operators/) changes one parameter or credential of a valid request, or the request as a whole; authentication is the matrix of no credential and other schemes; combinations the filter pairs and filter × sort; disclosure the refused answers judged for what they disclose. Every answer is judged by every exchange check. A 0 is one this run did not send for that operation (skipped checks say why above).',
    '',
    `| Operation | ${columns.join(' | ')} |`,
    `|---|${columns.map(() => '---:').join('|')}|`,
    ...rows.map((r) => `| ${r.operationId} | ${columns.map((c) => r.requests[c] ?? 0).join(' | ')} |`),
    '',
  ].join('\n');
}

/** The pairwise crossings' requests per dimension and per pair of values (empty when the run sent none). */
export function crossingsMarkdown(crossings: CrossingCoverage): string {
  if (!crossings.requests) return '';
  const table = (title: string, rows: Record<string, Record<string, number>>) =>
    Object.entries(rows).flatMap(([name, counts]) => [
      `### ${title}: ${name}`,
      '',
      '| Value | Requests |',
      '|---|---:|',
      ...Object.entries(counts)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([value, n]) => `| ${value} | ${n} |`),
      '',
    ]);
  return [
    '## Pairwise crossings: requests per dimension and per pair',
    '',
    `${crossings.requests} requests (contract-tests/property/crossings.ts). For each operation, a pairwise covering array of three dimensions (a security question or none, a class of parameter operators, a class of operation operators): every pair of values of two dimensions that applies to the operation is in at least one request, which also takes one value of the third. Every answer is judged by every exchange check.`,
    '',
    ...table('Per dimension', crossings.perDimension),
    ...table('Per pair', crossings.perPair),
  ].join('\n');
}

/** Notes of the run (e.g. a credential accepted in a place the spec does not document), grouped. */
export function notesMarkdown(entries: LedgerEntry[]): string {
  const notes = [...new Set(entries.flatMap((e) => (e.kind === 'note' ? [e.text] : [])))].sort();
  if (!notes.length) return '';
  return ['## Noted, not judged', '', ...notes.map((n) => `- ${n}`), ''].join('\n');
}

export function coverageMarkdown(rows: CoverageRow[], targetName: string): string {
  const done = rows.filter((r) => r.exercised).length;
  return [
    `# Contract coverage (target: ${targetName})`,
    '',
    `${done} of ${rows.length} operation × status × scheme combinations exercised. A scheme of "none" or one not declared by the operation is a negative request.`,
    '',
    '| Operation | Status | Security scheme | Exercised | Why not |',
    '|---|---|---|---|---|',
    ...rows.map(
      (r) => `| ${r.operationId} | ${r.status} | ${r.scheme} | ${r.exercised ? `yes (${r.exercised})` : 'no'} | ${r.whyNot ?? ''} |`,
    ),
    '',
  ].join('\n');
}

export function assumptionsMarkdown(rows: AssumptionReportRow[], targetName: string): string {
  const count = countOutcomes(rows);
  const cell = (t: string) => t.replace(/\|/g, '\\|');
  return [
    `# x-assumption outcomes (target: ${targetName})`,
    '',
    `${count.confirmed} confirmed, ${count.contradicted} contradicted, ${count['not exercised']} not exercised, ${count['not testable']} not testable.` +
      (targetName === 'mock' ? ' The mock answers from the spec itself, so it confirms nothing.' : ''),
    '',
    '| Outcome | API | Where | Seed § | Assumption | Evidence |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => {
      const evidence =
        r.outcome === 'not testable' ? (r.untestable ?? '') : [...r.evidence, ...r.observed.map(describeObserved)].join('; ');
      return `| ${r.outcome} | ${r.apis.join(', ')} | \`${r.pointer}\` | ${r.seed} | ${cell(r.what)} | ${cell(evidence)} |`;
    }),
    '',
    contradictionsText(rows, 'markdown'),
  ].join('\n');
}
