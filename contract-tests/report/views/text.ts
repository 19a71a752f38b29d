// The report as console text: an example's request, answer and curl; the violations; the contradicted assumptions; the
// drift since a baseline; the checks that passed only after retries. Views of the report model (report/report-model.ts).
import type { Evidence } from '../../send/evidence.ts';
import type { Observed } from '../../send/ledger.ts';
import type { AssumptionReportRow, Drift, DriftList, RunReport, SkipGroup, ViolationGroup } from '../report-model.ts';

/** One example's request, answer and reproduction, as text (the console and the JUnit failures). */
export function evidenceText(example: Evidence, indent = '   '): string[] {
  const { request, answer } = example;
  const lines = [`${indent}Request: ${request.method} ${request.url}`];
  for (const [name, value] of Object.entries(request.headers)) lines.push(`${indent}         ${name}: ${value}`);
  if (request.body) lines.push(`${indent}         ${request.body}`);
  lines.push(`${indent}Answer: ${answer.status} ${answer.contentType}${answer.body ? `: ${answer.body}` : ' (empty body)'}`);
  lines.push(`${indent}Reproduce:`, example.curl.replace(/^/gm, `${indent}  `));
  return lines;
}

/** The violations as the console shows them: the promise, expected against got, an example's request and answer, and its curl. */
export function violationsText(groups: ViolationGroup[], drift?: { new: string[] }): string {
  if (!groups.length) return '';
  const lines = [`Violations (${groups.length} broken promises)`, ''];
  groups.forEach((group, index) => {
    const isNew = drift?.new.includes(group.promise) ? ' [new since the last run]' : '';
    lines.push(`${index + 1}. ${group.promise}${isNew}`);
    lines.push(`   ${group.sentence}`);
    if (group.count > 1 || group.checks.length > 1)
      lines.push(
        `   Seen ${group.count} times, in ${group.checks.length} checks: ${group.checks.slice(0, 3).join('; ')}${group.checks.length > 3 ? '; …' : ''}`,
      );
    const example = group.examples[0];
    if (example) lines.push(...evidenceText(example));
    lines.push('');
  });
  return lines.join('\n');
}

export const describeObserved = (o: Observed) =>
  `${o.request} answered ${o.status} ${o.contentType}${o.body ? `: ${JSON.stringify(o.body)}` : ' (empty body)'}`;

/** The contradicted assumptions, each with what the spec guessed, what the server did and where to change the spec. */
export function contradictionsText(rows: AssumptionReportRow[], style: 'text' | 'markdown' = 'text'): string {
  const contradicted = rows.filter((r) => r.outcome === 'contradicted');
  if (!contradicted.length) return '';
  const code = (t: string) => (style === 'markdown' ? `\`${t}\`` : t);
  const lines = [
    style === 'markdown' ? `## Contradicted assumptions (${contradicted.length})` : `Contradicted assumptions (${contradicted.length})`,
    '',
    'This server differs from what the specs guessed where the seed says "not shown". These are not contract violations:',
    'they fail the run only with --strict-assumptions (LP_STRICT_ASSUMPTIONS=1). If the server is right, change the spec.',
    '',
  ];
  contradicted.forEach((r, i) => {
    lines.push(`${i + 1}. The spec guessed (seed section ${r.seed} leaves it open): ${r.what}`);
    for (const o of r.observed) lines.push(`   This server: ${describeObserved(o)}`);
    for (const e of r.evidence) lines.push(`   Differs: ${e}`);
    lines.push(
      `   To change: ${r.spec ? `${code(r.spec.file)} at ${code(r.spec.pointer)}` : '(source not found)'} (bundle: ${r.apis.join(', ')}#${code(r.pointer)})`,
    );
    lines.push('');
  });
  return lines.join('\n');
}

/** The drift as text (the console): what is new since the baseline run and what it showed that this run did not. */
export function driftText(drift: Drift): string {
  const lines = [`Since the last run (baseline ${drift.baseline}${drift.baselineVerdict ? `, verdict ${drift.baselineVerdict}` : ''})`, ''];
  const section = (title: string, list: DriftList) => {
    lines.push(`${title}: ${list.new.length} new, ${list.gone.length} no longer seen, ${list.still} still seen`);
    for (const key of list.new) lines.push(`  + new: ${key}`);
    for (const key of list.gone) lines.push(`  - no longer seen: ${key}`);
  };
  section('Violations', drift.violations);
  section('Contradicted assumptions', drift.contradicted);
  section('Could not judge', drift.unjudged);
  lines.push('');
  return lines.join('\n');
}

/** The checks that passed only after retries, as text (the console); empty when there are none. */
export function retriesText(report: RunReport): string {
  if (!report.passedAfterRetries.length) return '';
  return [
    `Passed only after retries (${report.passedAfterRetries.length})`,
    '',
    ...report.passedAfterRetries.map((c) => `- ${c.check}: ${c.retried} retries${c.throttled ? `, ${c.throttled} throttled` : ''}`),
    '',
  ].join('\n');
}

/** The skipped checks by reason, the most frequent first: at most `limit` reasons, the rest counted (coverage.md and
 * report.json have them all). */
export function skipsText(groups: SkipGroup[], limit = 8): string {
  if (!groups.length) return '';
  const total = groups.reduce((sum, g) => sum + g.count, 0);
  const lines = [`Skipped (${total} checks, ${groups.length} reasons)`, ''];
  for (const group of groups.slice(0, limit)) lines.push(`- ${group.count} × ${group.reason}`);
  if (groups.length > limit) lines.push(`- … ${groups.length - limit} more reasons (report.json, "skips")`);
  lines.push('');
  return lines.join('\n');
}

/** What the run noted and did not judge, each once: at most `limit`, the rest counted (coverage.md has them all). */
export function notesText(notes: string[], limit = 6): string {
  if (!notes.length) return '';
  const lines = [`Noted, not judged (${notes.length})`, '', ...notes.slice(0, limit).map((n) => `- ${n}`)];
  if (notes.length > limit) lines.push(`- … ${notes.length - limit} more (coverage.md, "Noted, not judged")`);
  lines.push('');
  return lines.join('\n');
}
