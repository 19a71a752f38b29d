// Which check a request, a finding or a problem belongs to. Vitest knows the running test while checks run one after
// another; checks that run side by side (describe.concurrent: property/operators.ts) name theirs with `inTest`, which
// holds across every await of the check (AsyncLocalStorage), so each exchange, its findings and its problems reach the
// check that sent it.
import { AsyncLocalStorage } from 'node:async_hooks';
import { expect } from 'vitest';

/** The name problems found outside any check go under (a beforeAll's requests): the next check reports them. */
export const OUTSIDE_A_TEST = '(outside a test)';

const scope = new AsyncLocalStorage<string>();

/** The running check's name as vitest writes it ("describe > check"). */
export const currentTest = (): string => scope.getStore() ?? expect.getState().currentTestName ?? OUTSIDE_A_TEST;

/** Runs `check` as the check `name`: what it sends and finds is that check's, even beside other checks. */
export const inTest = <T>(name: string, check: () => T): T => scope.run(name, check);

interface NamedTask {
  name: string;
  suite?: NamedTask | undefined;
  file?: unknown;
}

/** A task's name as vitest's currentTestName has it: its describe blocks and its own name, without the file. */
export function testNameOf(task: NamedTask): string {
  const names = [task.name];
  for (let suite = task.suite; suite && suite !== task.file; suite = suite.suite) names.unshift(suite.name);
  return names.join(' > ');
}
