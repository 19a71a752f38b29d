// Checks side by side (describe.concurrent, as every file's checks run against a live target) each keep their own
// exchanges' problems: what one check finds never fails another, and a check's name is the one vitest gives it. The
// setup file names each check around its test (aroundEach), so no check names itself.
import { describe, expect, it } from 'vitest';
import { workerRun } from '../support/worker-run.ts';
import { currentTest, testNameOf } from '../send/test-scope.ts';

const { ledger } = workerRun();

describe('the test scope', () => {
  it("names a check as vitest's running test does", (ctx) => {
    expect(testNameOf(ctx.task)).toBe(expect.getState().currentTestName);
    expect(currentTest()).toBe("the test scope > names a check as vitest's running test does");
  });
});

/** A promise the other check resolves: the two checks take turns by these, not by pauses a busy machine may stretch. */
function turn(): { reached: Promise<void>; reach: () => void } {
  let reach = () => {};
  const reached = new Promise<void>((resolve) => {
    reach = resolve;
  });
  return { reached, reach };
}

describe.concurrent('checks side by side', () => {
  // Each reports a problem between awaits that interleave with the other's, then takes its own problems: the second
  // reports first, the first reports once it has, and each takes its problems only once both have reported.
  const reported = { first: turn(), second: turn() };
  it.for([
    ['first', 'second'],
    ['second', 'first'],
  ] as const)('%s keeps its own problems', async ([label, other], ctx) => {
    if (label === 'first') await reported.second.reached;
    ctx.expect(currentTest()).toBe(`checks side by side > ${label} keeps its own problems`);
    ledger.reportProblems([`found by ${label}`]);
    reported[label].reach();
    await reported[other].reached;
    ctx.expect(ledger.takeProblems(testNameOf(ctx.task)).violations).toEqual([`found by ${label}`]);
  });
});
