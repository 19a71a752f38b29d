// One run, as every report shows it: the verdict, the three outcomes apart (violations, contradicted assumptions, checks
// that could not be judged), the checks that passed only after retries, the coverage, and the drift since a baseline
// run. Written as dist/contract/report.json; the console, the job summary and report.html are views of it.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AssumptionReportRow, type CoverageRow, readJsonFile, type ViolationGroup } from './ledger-reports.ts';
import { lineOf } from './spec-lines.ts';
import { type FailedCheck, readFailedChecks } from '../judge/outcomes.ts';
import { htmlReport } from './views/html.ts';
import { summaryMarkdown } from './views/summary.ts';
import type { RunVerdict } from './verdict.ts';

export type VerdictWord = 'PASS' | 'FAIL' | 'COULD NOT JUDGE';

/** A contradicted assumption with the line of its x-assumption in the spec file (what to change). */
export type ContradictedRow = AssumptionReportRow & { line?: number };

/** A check that passed, but only because the transport retried or waited: its verdict stands, its path was bumpy. */
export interface RetriedCheck {
  check: string;
  /** Attempts beyond the first, over the check's requests. */
  retried: number;
  /** Of which after a 429 or a 503 with Retry-After. */
  throttled: number;
}

/** What changed since the baseline run, per outcome, by key (a violation's promise, an assumption's spec pointer and text). */
export interface DriftList {
  /** Seen now, not in the baseline. */
  new: string[];
  /** In the baseline, not seen now. */
  gone: string[];
  /** In both. */
  still: number;
}

export interface Drift {
  /** The baseline directory as given. */
  baseline: string;
  /** The baseline's verdict word, when it had a report.json. */
  baselineVerdict?: VerdictWord;
  violations: DriftList;
  contradicted: DriftList;
  unjudged: DriftList;
}

export interface RunReport {
  /** The shape's version: bumped when a field changes meaning. */
  version: 1;
  target: string;
  /** ISO time the report was written. */
  generatedAt: string;
  verdict: { word: VerdictWord; exitCode: number; line: string; strict: boolean };
  counts: {
    violations: number;
    contradicted: number;
    unjudged: number;
    confirmed: number;
    passed: number;
    passedAfterRetries: number;
    skipped: number;
  };
  violations: ViolationGroup[];
  /** The failed checks that were violations (a group can span several; a check can fail on several groups). */
  violatingChecks: FailedCheck[];
  contradicted: ContradictedRow[];
  unjudged: FailedCheck[];
  passedAfterRetries: RetriedCheck[];
  coverage: { exercised: number; total: number; rows: CoverageRow[] };
  /** What the requests met, one line. */
  transport: string;
  gateFailures: string[];
  drift?: Drift;
}

/** A contradicted assumption as drift compares and the reports tag it: what the spec guessed. */
export const contradictedKey = (row: AssumptionReportRow) => row.what;

/** What a run showed, by key: each outcome's keys as drift compares them. */
export interface OutcomeKeys {
  verdict?: VerdictWord;
  violations: string[];
  contradicted: string[];
  unjudged: string[];
}

const keysOf = (
  report: Pick<RunReport, 'violations' | 'contradicted' | 'unjudged'> & { verdict?: { word: VerdictWord } },
): OutcomeKeys => ({
  ...(report.verdict ? { verdict: report.verdict.word } : {}),
  violations: report.violations.map((g) => g.promise),
  contradicted: report.contradicted.map(contradictedKey),
  unjudged: report.unjudged.map((c) => c.name),
});

/**
 * The outcomes of a previous run, from its report directory: its report.json, or (a run of an older kit) its
 * violations.json, assumptions.json and failed-checks.jsonl. Throws an error naming the directory when it has none.
 */
export function readBaseline(dir: string): OutcomeKeys {
  if (!existsSync(dir)) throw new Error(`--baseline ${dir}: no such directory (give the previous run's report directory)`);
  const report = readJsonFile<RunReport>(join(dir, 'report.json'));
  if (report?.version === 1) return keysOf(report);
  const violations = readJsonFile<{ violations?: ViolationGroup[] }>(join(dir, 'violations.json'));
  const assumptions = readJsonFile<{ assumptions?: AssumptionReportRow[] }>(join(dir, 'assumptions.json'));
  if (!violations && !assumptions)
    throw new Error(
      `--baseline ${dir}: no report.json, violations.json or assumptions.json in it (give the directory a previous run wrote its reports to)`,
    );
  return keysOf({
    violations: violations?.violations ?? [],
    contradicted: (assumptions?.assumptions ?? []).filter((a) => a.outcome === 'contradicted'),
    unjudged: readFailedChecks(dir).filter((c) => c.outcome === 'unjudged'),
  });
}

function driftList(now: string[], before: string[]): DriftList {
  const was = new Set(before);
  const is = new Set(now);
  return {
    new: [...is].filter((key) => !was.has(key)),
    gone: [...was].filter((key) => !is.has(key)),
    still: [...is].filter((key) => was.has(key)).length,
  };
}

export function driftOf(report: Pick<RunReport, 'violations' | 'contradicted' | 'unjudged'>, baseline: OutcomeKeys, dir: string): Drift {
  const now = keysOf(report);
  return {
    baseline: dir,
    ...(baseline.verdict ? { baselineVerdict: baseline.verdict } : {}),
    violations: driftList(now.violations, baseline.violations),
    contradicted: driftList(now.contradicted, baseline.contradicted),
    unjudged: driftList(now.unjudged, baseline.unjudged),
  };
}

/** The run's report, from its verdict (which read the files the run wrote). */
export function buildRunReport(
  verdict: RunVerdict,
  options: { target: string; strict: boolean; baseline?: { dir: string; keys: OutcomeKeys } },
): RunReport {
  const failedNames = new Set(verdict.failedChecks.map((c) => c.name));
  const passedAfterRetries = verdict.retriedChecks.filter((c) => !failedNames.has(c.check));
  const contradicted: ContradictedRow[] = verdict.contradictedRows.map((row) => {
    const line = row.spec ? lineOf(row.spec.file, row.spec.pointer) : undefined;
    return line ? { ...row, line } : row;
  });
  const report: RunReport = {
    version: 1,
    target: options.target,
    generatedAt: new Date().toISOString(),
    verdict: { word: verdict.word, exitCode: verdict.exitCode, line: verdict.line, strict: options.strict },
    counts: {
      violations: verdict.violations,
      contradicted: verdict.contradicted,
      unjudged: verdict.unjudged,
      confirmed: verdict.confirmed,
      passed: verdict.passed,
      passedAfterRetries: passedAfterRetries.length,
      skipped: verdict.skipped,
    },
    violations: verdict.violationGroups,
    violatingChecks: verdict.failedChecks.filter((c) => c.outcome === 'violation'),
    contradicted,
    unjudged: verdict.unjudgedChecks,
    passedAfterRetries,
    coverage: verdict.coverage,
    transport: verdict.transport,
    gateFailures: verdict.gateFailures,
  };
  if (options.baseline) report.drift = driftOf(report, options.baseline.keys, options.baseline.dir);
  return report;
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

/** Violating checks that no violation group names (a broken hook, a file that failed outside its checks). */
export function ungroupedViolations(report: RunReport): FailedCheck[] {
  const grouped = new Set(report.violations.flatMap((g) => g.checks));
  return report.violatingChecks.filter((c) => !grouped.has(c.name));
}

/**
 * Writes the run's own reports into `outputDir`: report.json, summary.md, report.html, and the drift (when a baseline was given)
 * into violations.json and assumptions.json as well, so every report says what is new. `redact` is the last line of
 * defence: what is written was built from redacted data.
 */
export function writeRunReport(outputDir: string, report: RunReport, redact: (text: string) => string): void {
  mkdirSync(outputDir, { recursive: true });
  writeFileSync(join(outputDir, 'report.json'), redact(`${JSON.stringify(report, null, 2)}\n`));
  writeFileSync(join(outputDir, 'summary.md'), redact(`${summaryMarkdown(report)}\n`));
  writeFileSync(join(outputDir, 'report.html'), redact(htmlReport(report)));
  if (!report.drift) return;
  const { drift } = report;
  const patch = (file: string, change: (data: Record<string, unknown>) => void) => {
    const data = readJsonFile<Record<string, unknown>>(join(outputDir, file));
    if (!data) return;
    change(data);
    writeFileSync(join(outputDir, file), redact(`${JSON.stringify(data, null, 2)}\n`));
  };
  patch('violations.json', (data) => {
    for (const group of (data.violations as Array<ViolationGroup & { sinceBaseline?: string }>) ?? [])
      group.sinceBaseline = drift.violations.new.includes(group.promise) ? 'new' : 'still seen';
    data.noLongerSeen = drift.violations.gone;
    data.baseline = drift.baseline;
  });
  patch('assumptions.json', (data) => {
    for (const row of (data.assumptions as Array<AssumptionReportRow & { sinceBaseline?: string }>) ?? [])
      if (row.outcome === 'contradicted') row.sinceBaseline = drift.contradicted.new.includes(contradictedKey(row)) ? 'new' : 'still seen';
    data.contradictedNoLongerSeen = drift.contradicted.gone;
    data.baseline = drift.baseline;
  });
}
