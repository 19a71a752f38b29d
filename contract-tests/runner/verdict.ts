// The end of a run: the contradicted assumptions in their own section, the CI gates (skips, coverage) and one verdict
// line with the counts, read from the reports the run wrote. Violations fail a run; contradicted assumptions only
// when strict.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contradictionsText, countOutcomes, type AssumptionReportRow, type CoverageRow } from '../support/reports.ts';
import type { SuiteRun } from './run-suite.ts';

export interface Gates {
  /** Fail when any check was skipped (LP_FAIL_ON_SKIP=1). */
  failOnSkip?: boolean;
  /** Fail when fewer than this share of the coverage table's rows were exercised (0..1). */
  minCoverage?: number;
}

export interface RunVerdict {
  exitCode: number;
  violations: number;
  contradicted: number;
  confirmed: number;
  passed: number;
  skipped: number;
  coverage: { exercised: number; total: number };
  /** The contradicted assumptions section (empty when none). */
  contradictions: string;
  /** Why a gate failed the run, if one did. */
  gateFailures: string[];
  line: string;
}

function readJson<T>(file: string, fallback: T): T {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return fallback;
  }
}

export function verdictOfRun(run: SuiteRun, outputDir: string, gates: Gates = {}): RunVerdict {
  const { assumptions = [] } = readJson<{ assumptions?: AssumptionReportRow[] }>(join(outputDir, 'assumptions.json'), {});
  const { rows = [] } = readJson<{ rows?: CoverageRow[] }>(join(outputDir, 'coverage.json'), {});
  const { strictFailures = [] } = readJson<{ strictFailures?: string[] }>(join(outputDir, 'strict-failures.json'), {});
  const counts = countOutcomes(assumptions);
  // A failed check is a violation unless it failed only for a contradicted assumption; a file that failed outside
  // its checks (a broken hook) counts as one.
  const violations = Math.max(run.failed - strictFailures.length, run.exitCode !== 0 && run.failed === 0 ? 1 : 0);
  const coverage = { exercised: rows.filter((r) => r.exercised).length, total: rows.length };
  const gateFailures: string[] = [];
  if (gates.failOnSkip && run.skipped > 0)
    gateFailures.push(
      `${run.skipped} checks were skipped (--fail-on-skip); the skip reasons above name the LP_* variables or capabilities they need`,
    );
  if (gates.minCoverage !== undefined && coverage.total > 0 && coverage.exercised / coverage.total < gates.minCoverage) {
    gateFailures.push(
      `coverage ${coverage.exercised}/${coverage.total} (${(coverage.exercised / coverage.total).toFixed(2)}) is below --min-coverage ${gates.minCoverage}`,
    );
  }
  const exitCode = run.exitCode !== 0 || gateFailures.length ? 1 : 0;
  const strictNote = strictFailures.length ? ` (${strictFailures.length} checks failed on them: strict run)` : '';
  const line =
    `contract verdict: ${exitCode ? 'FAIL' : 'PASS'}: ${violations} violations, ${counts.contradicted} contradicted assumptions${strictNote}, ` +
    `${counts.confirmed} confirmed assumptions, ${run.passed} checks passed, ${run.skipped} checks skipped` +
    (gateFailures.length ? `; ${gateFailures.join('; ')}` : '');
  return {
    exitCode,
    violations,
    contradicted: counts.contradicted,
    confirmed: counts.confirmed,
    passed: run.passed,
    skipped: run.skipped,
    coverage,
    contradictions: contradictionsText(assumptions),
    gateFailures,
    line,
  };
}
