// The report model: what every report of a run shows, as data (report.json is it, written as it is), and the rows its
// parts are made of. The builders (build.ts, verdict-line.ts, coverage.ts, ...) fill it; the views (views/) render it and
// import nothing of the report but this file (and each other).
import type { WorkflowsRun } from '../workflows/workflow-verdict.ts';
import type { AssumptionSource } from '../../spec-core/assumptions.ts';
import type { FailedCheck } from '../judge/outcomes.ts';
import type { Evidence } from '../send/evidence.ts';
import type { Observed } from '../send/ledger.ts';

export interface CoverageRow {
  operationId: string;
  status: string;
  scheme: string;
  exercised: number;
  whyNot?: string;
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
  /** Up to two, the plainest first. */
  examples: Evidence[];
  /** violations.json only: every exchange of the group (up to report/violations.ts MAX_OCCURRENCES), each with its own
   * message and evidence; the console and the other reports show the group once. */
  occurrences?: Array<{ test: string; message: string; evidence?: Evidence }>;
}

/** A failed check's violations: what the JUnit report's failure of that check carries. */
export interface CheckViolations {
  check: string;
  violations: Array<{ promise: string; sentence: string; evidence?: Evidence }>;
}

/** Checks skipped for one reason: how many, and up to three of them. */
export interface SkipGroup {
  reason: string;
  count: number;
  checks: string[];
}

/** The requests of the pairwise crossings (property/crossings.ts) per value of each dimension and per pair of values. */
export interface CrossingCoverage {
  requests: number;
  perDimension: Record<string, Record<string, number>>;
  perPair: Record<string, Record<string, number>>;
}

export interface DimensionRow {
  operationId: string;
  /** Requests by operator id, and by the dimensions above. */
  requests: Record<string, number>;
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

export interface UnjudgedRequest {
  request: string;
  reason: string;
  message: string;
  test: string;
}

export type VerdictWord = 'PASS' | 'FAIL' | 'COULD NOT JUDGE';

/** What a suite run counted, as the verdict reads it. */
export interface SuiteCounts {
  exitCode: number;
  passed: number;
  failed: number;
  skipped: number;
}

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
  /** The skipped checks by reason, the most frequent first (a report written before they were kept has none). */
  skips?: SkipGroup[];
  /** What the run noted and did not judge (a clause that is not a MUST today, a re-send of the client), each once. */
  notes?: string[];
  drift?: Drift;
  /** The documented flows as Arazzo workflows, run after the suite (contract:live): their own verdict and steps. */
  workflows?: WorkflowsRun;
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

/** Violating checks that no violation group names (a broken hook, a file that failed outside its checks). */
export function ungroupedViolations(report: RunReport): FailedCheck[] {
  const grouped = new Set(report.violations.flatMap((g) => g.checks));
  return report.violatingChecks.filter((c) => !grouped.has(c.name));
}

/** The negative space, per operation: the requests each operator sent (operators/), those of the authentication
 * matrix and of the filter combinations, and the refused answers judged for disclosure. */
export const DIMENSIONS = ['authentication', 'combinations', 'disclosure'] as const;
export type DimensionName = (typeof DIMENSIONS)[number];

/** The requests each operator sent over all operations (the columns of the table, in the order they were met). */
export const operatorTotals = (rows: DimensionRow[]): Record<string, number> => {
  const totals: Record<string, number> = {};
  for (const row of rows)
    for (const [key, n] of Object.entries(row.requests))
      if (!(DIMENSIONS as readonly string[]).includes(key)) totals[key] = (totals[key] ?? 0) + n;
  return totals;
};

const OUTCOMES: ReportOutcome[] = ['contradicted', 'confirmed', 'not exercised', 'not testable'];

export const countOutcomes = (rows: AssumptionReportRow[]) =>
  Object.fromEntries(OUTCOMES.map((o) => [o, rows.filter((r) => r.outcome === o).length])) as Record<ReportOutcome, number>;
