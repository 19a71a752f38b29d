// Skips a check with a printed reason and records the reason in the run's ledger for the coverage report.
import type { TestContext } from 'vitest';
import type { Run } from '../send/run.ts';

/** Skips the test when any reason is given; the first reason is printed and recorded in the run's ledger. */
export function skipIf(run: Run, context: TestContext, operationIds: string[], ...reasons: Array<string | undefined>): void {
  const reason = reasons.find((r): r is string => Boolean(r));
  if (!reason) return;
  run.ledger.record({ kind: 'skip', test: context.task.name, reason, operationIds });
  console.log(`skipped "${context.task.name}": ${reason}`);
  context.skip(reason);
}
