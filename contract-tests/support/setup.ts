// Runs in every test file: a test fails when any response it received broke the contract, even if its own
// assertions passed, so "every response the suite receives is checked" holds without each test repeating it.
// Problems found in a beforeAll hook are reported by the first test that runs after it; a skipped test leaves them
// pending (its failure would not count), and whatever is still pending when the file ends fails the file.
import { afterAll, afterEach, expect } from 'vitest';
import { reportProblems, takeProblems } from './ledger.ts';

afterEach((context) => {
  const problems = takeProblems();
  if (context.task.result?.state === 'skip' || context.task.mode === 'skip') {
    reportProblems(problems);
    return;
  }
  expect(problems, 'responses that break the contract').toEqual([]);
});

afterAll(() => {
  expect(takeProblems(), 'responses received outside a running test (e.g. in beforeAll) that break the contract').toEqual([]);
});
