// The end of a run: the contradicted assumptions in their own section, the checks that could not be judged in theirs,
// the CI gates (skips, coverage) and one verdict line with the counts, read from the reports the run wrote. Violations
// fail a run (exit 1); contradicted assumptions only when strict; a run with no violation in which some check could
// not be judged (unreachable, timed out, throttled past the tries, a write's unknown outcome, the suite's own error)
// ends with its own exit code, 2, never as a pass.
import { join } from 'node:path';
import { type FailedCheck, readFailedChecks } from '../judge/outcomes.ts';
import type { TransportStats } from '../send/transport.ts';
import { readJsonFile } from './run-files.ts';
import {
  type AssumptionReportRow,
  type CheckViolations,
  type CoverageRow,
  countOutcomes,
  type RetriedCheck,
  type SkipGroup,
  type SuiteCounts,
  type VerdictWord,
  type ViolationGroup,
} from './report-model.ts';
import { transportLine } from './transport-summary.ts';
import { contradictionsText } from './views/text.ts';

/** The exit codes of a contract run (README, "Exit codes"). */
export const EXIT_CODES = {
  /** No violation, nothing left unjudged, every gate passed. */
  pass: 0,
  /** A contract violation; in a strict run a contradicted assumption; a failed gate (--fail-on-skip, --min-coverage). */
  fail: 1,
  /** No violation, but the suite could not judge: a configuration error, credentials the target refuses, the target
   * unreachable, requests that kept timing out or stayed throttled, a write whose outcome is unknown, the suite's own error. */
  couldNotJudge: 2,
} as const;

export interface Gates {
  /** Fail when any check was skipped (LP_FAIL_ON_SKIP=1). */
  failOnSkip?: boolean;
  /** Fail when fewer than this share of the coverage table's rows were exercised (0..1). */
  minCoverage?: number;
}

export interface RunVerdict {
  exitCode: number;
  word: VerdictWord;
  violations: number;
  /** Checks that could not be judged. */
  unjudged: number;
  /** The could-not-judge section (empty when none). */
  unjudgedText: string;
  /** The checks that could not be judged, with why. */
  unjudgedChecks: FailedCheck[];
  /** What the requests met, one line (empty when the run wrote no transport report). */
  transport: string;
  contradicted: number;
  confirmed: number;
  passed: number;
  skipped: number;
  coverage: { exercised: number; total: number; rows: CoverageRow[] };
  /** The violations grouped by promise (violations.json). */
  violationGroups: ViolationGroup[];
  /** Each violating check's violations (violations.json's byCheck), for its JUnit failure. */
  violationsByCheck: CheckViolations[];
  /** Every failed check with its outcome (failed-checks.jsonl). */
  failedChecks: FailedCheck[];
  /** The checks whose requests were retried or throttled (transport.json), passed or not. */
  retriedChecks: RetriedCheck[];
  /** The contradicted assumptions section (empty when none). */
  contradictions: string;
  /** The contradicted assumptions, as the report has them (for the GitHub annotations and summary). */
  contradictedRows: AssumptionReportRow[];
  /** Why a gate failed the run, if one did. */
  gateFailures: string[];
  /** The skipped checks by reason, and the run's notes (coverage.json). */
  skips: SkipGroup[];
  notes: string[];
  line: string;
}

/** The verdict of a run, from the reports it wrote to `outputDir` (read here once: the run's report builds on this). */
export function verdictOfRun(run: SuiteCounts, outputDir: string, gates: Gates = {}): RunVerdict {
  const read = <T>(name: string): Partial<T> => readJsonFile<Partial<T>>(join(outputDir, name)) ?? {};
  const { assumptions = [] } = read<{ assumptions: AssumptionReportRow[] }>('assumptions.json');
  const {
    rows = [],
    skips = [],
    notesOnce: notes = [],
  } = read<{ rows: CoverageRow[]; skips: SkipGroup[]; notesOnce: string[] }>('coverage.json');
  const { strictFailures = [] } = read<{ strictFailures: string[] }>('strict-failures.json');
  const transport = read<{ stats: TransportStats; retriedChecks: RetriedCheck[] }>('transport.json');
  const { violations: groups = [], byCheck = [] } = read<{ violations: ViolationGroup[]; byCheck: CheckViolations[] }>('violations.json');
  const counts = countOutcomes(assumptions);
  const failedChecks = readFailedChecks(outputDir);
  const strict = new Set(strictFailures);
  // A failed check is a violation unless it failed only for a contradicted assumption (strict runs) or could not be
  // judged; a failure outside the checks (a broken hook) is classified the same way.
  // The ledger names a strict-only failure by the check's own name, the reporter by its full name ("describe > check").
  const failedOnContradictions = (c: FailedCheck) => strict.has(c.name.split(' > ').at(-1)!);
  const violating = failedChecks.filter((c) => c.outcome === 'violation');
  const violations = violating.filter((c) => !failedOnContradictions(c)).length;
  const unjudgedChecks = failedChecks.filter((c) => c.outcome === 'unjudged');
  // A run that failed with nothing classified (vitest could not start, a crash before any check) judged nothing.
  const crashed = run.exitCode !== 0 && failedChecks.length === 0;
  const unjudged = unjudgedChecks.length + (crashed ? 1 : 0);
  const coverage = { exercised: rows.filter((r) => r.exercised).length, total: rows.length, rows };
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
  const strictFailed = violating.some(failedOnContradictions);
  const exitCode =
    violations > 0 || strictFailed || gateFailures.length
      ? EXIT_CODES.fail
      : unjudged > 0
        ? EXIT_CODES.couldNotJudge
        : run.exitCode !== 0
          ? EXIT_CODES.fail
          : EXIT_CODES.pass;
  const word: VerdictWord = exitCode === EXIT_CODES.pass ? 'PASS' : exitCode === EXIT_CODES.fail ? 'FAIL' : 'COULD NOT JUDGE';
  const strictNote = strictFailures.length ? ` (${strictFailures.length} checks failed on them: strict run)` : '';
  const line =
    `contract verdict: ${word}: ${violations} violations${groups.length ? ` (${groups.length} broken promises)` : ''}, ${counts.contradicted} contradicted assumptions${strictNote}, ` +
    `${unjudged} checks could not be judged, ${counts.confirmed} confirmed assumptions, ${run.passed} checks passed, ${run.skipped} checks skipped` +
    (gateFailures.length ? `; ${gateFailures.join('; ')}` : '');
  return {
    exitCode,
    word,
    violations,
    unjudged,
    unjudgedText: unjudgedText(unjudgedChecks, crashed),
    unjudgedChecks: crashed
      ? [...unjudgedChecks, { name: '(the suite)', file: '', outcome: 'unjudged', reason: 'the suite stopped before any check reported' }]
      : unjudgedChecks,
    transport: transport.stats ? `contract: requests: ${transportLine(transport.stats)}` : '',
    contradicted: counts.contradicted,
    confirmed: counts.confirmed,
    passed: run.passed,
    skipped: run.skipped,
    coverage,
    violationGroups: groups,
    violationsByCheck: byCheck,
    failedChecks,
    retriedChecks: transport.retriedChecks ?? [],
    contradictions: contradictionsText(assumptions),
    contradictedRows: assumptions.filter((a) => a.outcome === 'contradicted'),
    gateFailures,
    skips,
    notes,
    line,
  };
}

/** The checks that could not be judged, each with why; these are neither violations nor passes. */
function unjudgedText(checks: FailedCheck[], crashed: boolean): string {
  if (!checks.length && !crashed) return '';
  const lines = [
    `Could not judge (${checks.length + (crashed ? 1 : 0)})`,
    '',
    'These checks got no answer the suite may judge. They are not violations and not passes: the run exits 2 unless a',
    'violation was found. Check the target address, its availability and the LP_* settings, or give slow or throttled',
    'targets more room (--timeout, --tries, --max-wait, --rate-limit, --idp-rate-limit).',
    '',
    ...checks.map((c, i) => `${i + 1}. ${c.name}\n   ${c.reason ?? ''}`),
    ...(crashed ? ['- the suite stopped before any check reported (the end of its output is above; all of it in suite-output.log)'] : []),
    '',
  ];
  return lines.join('\n');
}
