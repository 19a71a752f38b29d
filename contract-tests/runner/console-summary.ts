// What a partner's terminal shows of a run, by default: the preflight, one line per phase with its counts, the broken
// promises once each, the skip reasons and notes grouped, the requests line, the verdicts and where the reports are.
// The suite's own output (vitest's) goes to <out>/suite-output.log, and to the terminal only with --verbose. In GitHub
// Actions the long parts fold into ::group:: blocks.
import type { SuiteRun } from './run-suite.ts';

/** A part of the console, folded in GitHub Actions (GITHUB_ACTIONS=true) under its first line. */
export function foldable(text: string, env: NodeJS.ProcessEnv = process.env): string {
  if (env.GITHUB_ACTIONS !== 'true' || !text.trim()) return text;
  const [title, ...rest] = text.replace(/^\n+/, '').split('\n');
  return `::group::${title}\n${rest.join('\n').replace(/\n+$/, '')}\n::endgroup::`;
}

/** The suite phase in one line, with its counts. */
export const suiteLine = (run: SuiteRun) =>
  `contract: suite: ${run.passed} checks passed, ${run.failed} failed, ${run.skipped} skipped (${run.seconds.toFixed(1)} s)`;

/** The end of the suite's own output, for a run that stopped before any check reported (it says why). */
export function outputTail(output: string, lines = 15): string {
  const kept = output.trimEnd().split('\n').slice(-lines);
  return ['The suite stopped before any check reported; the end of its output:', '', ...kept.map((l) => `  ${l}`), ''].join('\n');
}
