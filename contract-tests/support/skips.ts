// Skips a check with a printed reason and records the reason for the coverage report.
import type { TestContext } from 'vitest';
import { currentRun } from '../send/run.ts';

/** Skips the test when any reason is given; the first reason is printed and recorded. */
export function skipIf(context: TestContext, operationIds: string[], ...reasons: Array<string | undefined>): void {
  const reason = reasons.find((r): r is string => Boolean(r));
  if (!reason) return;
  currentRun().ledger.record({ kind: 'skip', test: context.task.name, reason, operationIds });
  console.log(`skipped "${context.task.name}": ${reason}`);
  context.skip(reason);
}
