// One run, as every report shows it: the verdict, the three outcomes apart (violations, contradicted assumptions, checks
// that could not be judged), the checks that passed only after retries, the coverage, and the drift since a baseline
// run. Written as dist/contract/report.json; the console, the job summary and report.html are views of it.
import type { AssumptionReportRow, CoverageRow, ViolationGroup } from '../support/reports.ts';
import type { FailedCheck } from './outcomes.ts';

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
