// Turns the run's ledger into the reports: coverage (operation × documented status × security scheme) and the
// x-assumption outcomes, as JSON and Markdown in dist/contract/.
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { sourceOf, type AssumptionSource } from '../../spec-core/assumptions.ts';
import type { LedgerEntry, Observed } from './ledger.ts';
import { operations, specAssumptions } from './spec.ts';
import { documentedResponseKey } from './conformance.ts';
import type { Evidence } from './evidence.ts';
import { clausesMarkdown, clauseTable } from './oauth-clauses.ts';
import {
  addStats,
  emptyStats,
  paceLine,
  paceOf,
  type RequestPace,
  readTransportSettings,
  type RunPace,
  type TransportStats,
} from './transport.ts';

/** A report file as data, or undefined when it is missing or not JSON (a run that did not get that far). */
export function readJsonFile<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

export function readLedger(dir: string): LedgerEntry[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  } catch {
    return [];
  }
  return files.flatMap((f) =>
    readFileSync(join(dir, f), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as LedgerEntry),
  );
}

export interface CoverageRow {
  operationId: string;
  status: string;
  scheme: string;
  exercised: number;
  whyNot?: string;
}

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

export function coverage(entries: LedgerEntry[]): CoverageRow[] {
  const exchanges = entries.filter((e) => e.kind === 'exchange');
  const skips = entries.filter((e) => e.kind === 'skip');
  const rows: CoverageRow[] = [];
  for (const op of operations) {
    const declared = op.security.length ? op.security.map(label) : ['none'];
    const sortScheme = (s: string) => s.split('+').sort().join('+');
    const observed = exchanges.filter((e) => e.operationId === op.operationId).map((e) => sortScheme(e.scheme));
    const schemes = [...new Set([...declared, ...observed])];
    for (const status of Object.keys(op.responses)) {
      for (const scheme of schemes) {
        const hits = exchanges.filter(
          (e) => e.operationId === op.operationId && sortScheme(e.scheme) === scheme && documentedResponseKey(op, e.status) === status,
        ).length;
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

/** One broken promise and what shows it: the checks that saw it, how often, and up to three examples. */
export interface ViolationGroup {
  /** The promise, in a partner's words: the documentation's section, an RFC rule or a security property. */
  promise: string;
  checks: string[];
  count: number;
  /** The distinct first lines of the failures, up to three. */
  messages: string[];
  /** Expected against got, in one sentence (from the first example). */
  sentence: string;
  examples: Evidence[];
}

/** A failed check's violations: what the JUnit report's failure of that check carries. */
export interface CheckViolations {
  check: string;
  violations: Array<{ promise: string; sentence: string; evidence?: Evidence }>;
}

/** An assertion's first line without vitest's jargon ("// Object.is equality"). */
const plainMessage = (message: string) => message.replace(/\s*\/\/ Object\.is equality$/, '').trim();

/** Expected against got, in one sentence: the check's own name is what it expects; the answer is what it got. */
export function sentenceOf(entry: { test: string; from?: 'check' | 'answer'; message: string; evidence?: Evidence }): string {
  const answer = entry.evidence?.answer;
  const got = answer ? `${answer.status} ${answer.contentType}` : 'no answer recorded';
  if (entry.from === 'answer') return `Expected an answer as documented; got ${plainMessage(entry.message)}.`;
  const expected = entry.test.split(' > ').at(-1) ?? entry.test;
  return `Expected: ${expected}. Got: ${got} (${plainMessage(entry.message)}).`;
}

/** The run's violations grouped by the promise they break (twenty failing requests of one cause are one group). */
export function violationGroups(entries: LedgerEntry[]): ViolationGroup[] {
  const groups = new Map<string, ViolationGroup>();
  for (const entry of entries) {
    if (entry.kind !== 'violation') continue;
    const group = groups.get(entry.promise) ?? {
      promise: entry.promise,
      checks: [],
      count: 0,
      messages: [],
      sentence: sentenceOf(entry),
      examples: [],
    };
    group.count++;
    if (!group.checks.includes(entry.test)) group.checks.push(entry.test);
    if (group.messages.length < 3 && !group.messages.includes(entry.message)) group.messages.push(entry.message);
    if (entry.evidence) {
      // The plainest request first (the shortest URL and body): the one a partner reproduces first.
      const first = group.examples[0];
      if (!first || weight(entry.evidence) < weight(first)) {
        group.examples.unshift(entry.evidence);
        group.sentence = sentenceOf(entry);
      } else group.examples.push(entry.evidence);
      group.examples.splice(3);
    }
    groups.set(entry.promise, group);
  }
  return [...groups.values()];
}

const weight = (evidence: Evidence) => evidence.request.url.length + (evidence.request.body?.length ?? 0);

/** Each check's violations (up to three), for its JUnit failure. */
export function violationsByCheck(entries: LedgerEntry[]): CheckViolations[] {
  const byCheck = new Map<string, CheckViolations>();
  for (const entry of entries) {
    if (entry.kind !== 'violation') continue;
    const check = byCheck.get(entry.test) ?? { check: entry.test, violations: [] };
    if (check.violations.length < 3 && !check.violations.some((v) => v.promise === entry.promise))
      check.violations.push({
        promise: entry.promise,
        sentence: sentenceOf(entry),
        ...(entry.evidence ? { evidence: entry.evidence } : {}),
      });
    byCheck.set(entry.test, check);
  }
  return [...byCheck.values()];
}

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

/** The negative space, per operation: how many requests each dimension sent (refusals judged, for disclosure). */
export const DIMENSIONS = ['authentication', 'disclosure', 'content types', 'methods', 'unicode', 'combinations'] as const;
export type DimensionName = (typeof DIMENSIONS)[number];
export interface DimensionRow {
  operationId: string;
  requests: Record<DimensionName, number>;
}

export function dimensionCoverage(entries: LedgerEntry[]): DimensionRow[] {
  const rows = new Map<string, DimensionRow>(
    [...new Set(operations.map((o) => o.operationId))].map((id) => [
      id,
      { operationId: id, requests: Object.fromEntries(DIMENSIONS.map((d) => [d, 0])) as Record<DimensionName, number> },
    ]),
  );
  for (const entry of entries) {
    if (entry.kind !== 'exchange') continue;
    // "getVehicle (DELETE)": a method the path does not document counts for the path's operation.
    const row = rows.get(entry.operationId.split(' (')[0]!);
    if (!row) continue;
    if (entry.dimension && (DIMENSIONS as readonly string[]).includes(entry.dimension)) row.requests[entry.dimension as DimensionName]++;
    // Every refused answer of a documented operation is judged for disclosure (support/disclosure.ts).
    if (entry.status >= 400 && entry.status < 500 && !entry.operationId.includes(' (')) row.requests.disclosure++;
  }
  return [...rows.values()];
}

export function dimensionsMarkdown(rows: DimensionRow[]): string {
  return [
    '## Negative space: requests per operation and dimension',
    '',
    'Authentication: the matrix of missing, wrong, near-miss and other-scheme credentials. Disclosure: refused answers checked for success properties and values seen in accepted answers. Content types, methods, Unicode: robustness requests generated from the spec. Combinations: filter pairs and filter × sort. A 0 is a dimension this run did not probe for that operation (skipped checks say why above).',
    '',
    `| Operation | ${DIMENSIONS.join(' | ')} |`,
    `|---|${DIMENSIONS.map(() => '---:').join('|')}|`,
    ...rows.map((r) => `| ${r.operationId} | ${DIMENSIONS.map((d) => r.requests[d]).join(' | ')} |`),
    '',
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

export type ReportOutcome = 'confirmed' | 'contradicted' | 'not exercised' | 'not testable';

export interface AssumptionReportRow {
  apis: string[];
  pointer: string;
  seed: string;
  what: string;
  outcome: ReportOutcome;
  evidence: string[];
  /** What the server did in the exchanges behind the outcome (redacted), up to three. */
  observed: Observed[];
  /** The spec file and the pointer of the x-assumption in it: what to change if the server's behaviour is the real one. */
  spec?: AssumptionSource;
  /** Why no request can test it (then the outcome is "not testable" unless a response happened to show it). */
  untestable?: string;
}

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

const OUTCOMES: ReportOutcome[] = ['contradicted', 'confirmed', 'not exercised', 'not testable'];

export const countOutcomes = (rows: AssumptionReportRow[]) =>
  Object.fromEntries(OUTCOMES.map((o) => [o, rows.filter((r) => r.outcome === o).length])) as Record<ReportOutcome, number>;

const describeObserved = (o: Observed) =>
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

export interface UnjudgedRequest {
  request: string;
  reason: string;
  message: string;
  test: string;
}

export function writeReports(dir: string, ledgerDir: string, targetName: string): { coverageRows: CoverageRow[]; md: string } {
  const entries = readLedger(ledgerDir);
  const unjudged: UnjudgedRequest[] = entries.flatMap((e) =>
    e.kind === 'unjudged' ? [{ request: e.request, reason: e.reason, message: e.message, test: e.test }] : [],
  );

  const coverageRows = coverage(entries);
  const assumptions = assumptionReport(entries);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'transport.json'),
    `${JSON.stringify({ target: targetName, stats: transportSummary(entries), unjudged, retriedChecks: retriedChecks(entries) }, null, 2)}\n`,
  );
  writeFileSync(
    join(dir, 'violations.json'),
    `${JSON.stringify({ target: targetName, violations: violationGroups(entries), byCheck: violationsByCheck(entries) }, null, 2)}\n`,
  );
  const dimensions = dimensionCoverage(entries);
  const clauses = clauseTable();
  writeFileSync(
    join(dir, 'coverage.json'),
    `${JSON.stringify({ target: targetName, rows: coverageRows, dimensions, clauses, notes: entries.filter((e) => e.kind === 'note') }, null, 2)}\n`,
  );
  const md = [coverageMarkdown(coverageRows, targetName), dimensionsMarkdown(dimensions), notesMarkdown(entries)]
    .filter(Boolean)
    .join('\n');
  const byCoverage = (state: string) => clauses.filter((c) => c.coverage === state).length;
  const clauseSection = [
    '## OAuth clauses (RFC 6749, RFC 6750, RFC 7636) and what covers each',
    '',
    `${clauses.length} clauses that bear on the flows of the published documentation: ${byCoverage('checked')} checked, ${byCoverage('untestable')} untestable, ${byCoverage('not applicable')} not applicable (contract-tests/support/oauth-clauses.ts).`,
    '',
    clausesMarkdown(clauses),
  ].join('\n');
  writeFileSync(join(dir, 'coverage.md'), [md, clauseSection].join('\n'));
  writeFileSync(join(dir, 'assumptions.json'), `${JSON.stringify({ target: targetName, assumptions }, null, 2)}\n`);
  writeFileSync(join(dir, 'assumptions.md'), assumptionsMarkdown(assumptions, targetName));
  // Checks that failed only for a contradicted assumption (strict runs): the verdict line does not count them as violations.
  const strictFailures = [...new Set(entries.flatMap((e) => (e.kind === 'strict-failure' ? [e.test] : [])))];
  writeFileSync(join(dir, 'strict-failures.json'), `${JSON.stringify({ target: targetName, strictFailures }, null, 2)}\n`);
  return { coverageRows, md };
}
