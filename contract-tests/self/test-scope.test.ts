// Checks side by side (describe.concurrent, as every file's checks run against a live target) each keep their own
// exchanges' problems: what one check finds never fails another, and a check's name is the one vitest gives it. The
// setup file names each check around its test (aroundEach), so no check names itself.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { reportProblems, takeProblems } from '../send/ledger.ts';
import { currentTest, testNameOf } from '../send/test-scope.ts';

describe('the test scope', () => {
  it("names a check as vitest's running test does", (ctx) => {
    expect(testNameOf(ctx.task)).toBe(expect.getState().currentTestName);
    expect(currentTest()).toBe("the test scope > names a check as vitest's running test does");
  });
});

describe.concurrent('checks side by side', () => {
  // Each reports a problem between awaits that interleave with the other's, then takes its own problems.
  it.for([
    ['first', 30],
    ['second', 5],
  ] as const)('%s keeps its own problems', async ([label, pause], ctx) => {
    await sleep(pause);
    ctx.expect(currentTest()).toBe(`checks side by side > ${label} keeps its own problems`);
    reportProblems([`found by ${label}`]);
    await sleep(40 - pause);
    ctx.expect(takeProblems(testNameOf(ctx.task)).violations).toEqual([`found by ${label}`]);
  });
});
