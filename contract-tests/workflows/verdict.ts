// The result of a workflow run as data (workflows.json, and what runWorkflows returns), its counts and its verdict, in
// the contract suite's three outcomes and exit codes: 0 pass, 1 a violation (a failed step), 2 could not judge.
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
  seconds: number;
  exitCode: 0 | 1 | 2;
  /** `workflows verdict: PASS: ...`, the last line of contract:workflows. */
  line: string;
  counts: { workflows: Counts<WorkflowOutcome>; steps: Counts<StepOutcome> };
  workflows: WorkflowResult[];
}

function count<K extends string>(keys: readonly K[], values: K[]): Counts<K> {
  return Object.fromEntries(keys.map((key) => [key, values.filter((value) => value === key).length])) as Counts<K>;
}

const OUTCOMES = ['passed', 'failed', 'unjudged', 'skipped'] as const;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The verdict line, e.g. `workflows verdict: PASS: 4 workflows passed (9 steps), 0 failed, 0 could not be judged, 0 skipped`. */
export function verdictLine(exitCode: 0 | 1 | 2, counts: WorkflowsRun['counts']): string {
  const word = exitCode === 0 ? 'PASS' : exitCode === 1 ? 'FAIL' : 'COULD NOT JUDGE';
  const { workflows: w, steps: s } = counts;
  return (
    `workflows verdict: ${word}: ${plural(w.passed, 'workflow')} passed (${plural(s.passed, 'step')}), ${w.failed} failed ` +
    `(${plural(s.failed, 'step')} broke a promise), ${w.unjudged} could not be judged, ${w.skipped} skipped`
  );
}

/** The run as data, with its counts, exit code and verdict line. */
export function summarize(target: TargetName, workflows: WorkflowResult[], seconds: number): WorkflowsRun {
  const counts = {
    workflows: count(
      OUTCOMES,
      workflows.map((w) => w.outcome),
    ),
    steps: count(
      OUTCOMES,
      workflows.flatMap((w) => w.steps.map((s) => s.outcome)),
    ),
  };
  const exitCode = counts.workflows.failed > 0 ? 1 : counts.workflows.unjudged > 0 ? 2 : 0;
  return { version: 1, target, seconds, exitCode, line: verdictLine(exitCode, counts), counts, workflows };
}
