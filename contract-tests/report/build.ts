// The run's report, built from its verdict (which read the files the run wrote), and the drift since a baseline run.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { readFailedChecks } from '../judge/outcomes.ts';
import { readJsonFile } from './run-files.ts';
import {
  type AssumptionReportRow,
  type ContradictedRow,
  contradictedKey,
  type Drift,
  type DriftList,
  type OutcomeKeys,
  type RunReport,
  type VerdictWord,
  type ViolationGroup,
} from './report-model.ts';
import { lineOf } from './spec-lines.ts';
import type { RunVerdict } from './verdict-line.ts';
import type { WorkflowsRun } from '../workflows/workflow-verdict.ts';

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
  options: { target: string; strict: boolean; baseline?: { dir: string; keys: OutcomeKeys }; workflows?: WorkflowsRun },
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
    skips: verdict.skips,
    notes: verdict.notes,
  };
  if (options.baseline) report.drift = driftOf(report, options.baseline.keys, options.baseline.dir);
  if (options.workflows) report.workflows = options.workflows;
  return report;
}
