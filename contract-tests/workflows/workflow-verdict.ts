// The result of a workflow run as data (workflows.json, and what runWorkflows returns), its counts and its verdict, in
// the contract suite's outcomes and exit codes: 0 pass, 1 a violation (a failed step), 2 could not judge; contradicted
// assumptions are counted apart, and fail a step only in a strict run.
import type { TargetName } from '../../config/environment.ts';
import type { StepOutcome, StepResult } from './results.ts';

export type WorkflowOutcome = 'passed' | 'failed' | 'unjudged' | 'skipped';

export interface WorkflowResult {
  workflowId: string;
  title: string;
  /** The published Arazzo file Respect ran, relative to the repository. */
  file: string;
  outcome: WorkflowOutcome;
  /** Why it was skipped or could not be judged as a whole. */
  reason?: string;
  seconds: number;
  steps: StepResult[];
  /** Its outputs, relative to the output directory: Respect's JSON log, the HAR, Respect's console output. */
  files: { json?: string; har?: string; log?: string };
  /** Why its HAR is not Respect's own, when it is not. */
  harNote?: string;
}

export type Counts<K extends string> = Record<K, number>;

export interface WorkflowsRun {
  version: 1;
  target: TargetName;
  /** Whether a contradicted assumption failed its step (as `--strict-assumptions` does in the suite); absent in the
   * results of a run before the workflows told contradicted assumptions apart. */
  strict?: boolean;
  seconds: number;
  exitCode: 0 | 1 | 2;
  /** `workflows verdict: PASS: ...`, the last line of contract:workflows. */
  line: string;
  /** `contradicted`: the x-assumptions the steps' answers contradicted, each counted once (absent as `strict` is). */
  counts: { workflows: Counts<WorkflowOutcome>; steps: Counts<StepOutcome>; contradicted?: number };
  workflows: WorkflowResult[];
}

function count<K extends string>(keys: readonly K[], values: K[]): Counts<K> {
  return Object.fromEntries(keys.map((key) => [key, values.filter((value) => value === key).length])) as Counts<K>;
}

const OUTCOMES = ['passed', 'failed', 'unjudged', 'skipped'] as const;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The verdict line, e.g. `workflows verdict: PASS: 4 workflows passed (9 steps), 0 failed (0 steps broke a promise), 0
 * could not be judged, 0 skipped`, and the contradicted assumptions when there are any. */
export function verdictLine(exitCode: 0 | 1 | 2, counts: WorkflowsRun['counts'], strict = false): string {
  const word = exitCode === 0 ? 'PASS' : exitCode === 1 ? 'FAIL' : 'COULD NOT JUDGE';
  const { workflows: w, steps: s } = counts;
  const contradicted = counts.contradicted
    ? `; ${plural(counts.contradicted, 'contradicted assumption')} (${strict ? 'a strict run: their steps failed' : 'reported, not failed: --strict-assumptions to fail them'})`
    : '';
  return (
    `workflows verdict: ${word}: ${plural(w.passed, 'workflow')} passed (${plural(s.passed, 'step')}), ${w.failed} failed ` +
    `(${plural(s.failed, 'step')} broke a promise), ${w.unjudged} could not be judged, ${w.skipped} skipped${contradicted}`
  );
}

/** The run as data, with its counts, exit code and verdict line. */
export function summarize(target: TargetName, workflows: WorkflowResult[], seconds: number, strict = false): WorkflowsRun {
  const steps = workflows.flatMap((w) => w.steps);
  const contradicted = new Set(steps.flatMap((s) => ('contradicted' in s ? (s.contradicted ?? []).map((c) => c.what) : [])));
  const counts = {
    workflows: count(
      OUTCOMES,
      workflows.map((w) => w.outcome),
    ),
    steps: count(
      OUTCOMES,
      steps.map((s) => s.outcome),
    ),
    contradicted: contradicted.size,
  };
  const exitCode = counts.workflows.failed > 0 ? 1 : counts.workflows.unjudged > 0 ? 2 : 0;
  return { version: 1, target, strict, seconds, exitCode, line: verdictLine(exitCode, counts, strict), counts, workflows };
}
