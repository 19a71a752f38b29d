// Which check a request, a finding or a problem belongs to. The setup file runs every check as itself (`inTest`, around
// each test), which holds across every await of the check (AsyncLocalStorage): checks that run side by side (a live
// run's) each keep their own exchanges, findings and problems. Outside a check (a file's beforeAll) it is nobody's.
import { AsyncLocalStorage } from 'node:async_hooks';

/** The name problems found outside any check go under (a beforeAll's requests): the next check reports them. */
export const OUTSIDE_A_TEST = '(outside a test)';

const scope = new AsyncLocalStorage<string>();

/** The running check's name as vitest writes it ("describe > check"). */
export const currentTest = (): string => scope.getStore() ?? OUTSIDE_A_TEST;

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
