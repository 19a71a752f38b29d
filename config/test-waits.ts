// How long a test waits on a process, a port or a browser: one setting for every such wait of every test project,
// LP_TEST_SLOWDOWN (default 1), how many times slower than the reference 2-core machine this one is. Each wait below
// (and each testWaitMs(...) in a test) is about three times what the reference machine needs, so a machine twice as
// slow, or one busy with another run, still passes; a slower one sets LP_TEST_SLOWDOWN=2 or more. No test's outcome
// depends on the machine's speed, only how long it may take to fail: a test waits for the event itself (the server saw
// the request, the port is free, the line was printed), and these bounds only say that it did not hang.
import { integerVariable } from './environment.ts';

/** LP_TEST_SLOWDOWN: an integer of at least 1. */
export const TEST_SLOWDOWN = integerVariable('LP_TEST_SLOWDOWN', 1, 1);

/** A test's wait on a process, a port or a browser: `ms` on the reference machine, times the slowdown. */
export const testWaitMs = (ms: number): number => ms * TEST_SLOWDOWN;

/**
 * expect.poll's options for an event a test can only look for again and again (a counter, a file, a free port):
 * every 20 ms, until testWaitMs(10 s). vitest's own default, 1 s, is a guess at the machine's speed.
 */
export const POLL = { timeout: testWaitMs(10_000), interval: 20 } as const;

/** Every test project's default test and hook timeouts (vitest's own, 5 s and 10 s, are too short for a process), and expect.poll's. */
export const PROJECT_TIMEOUTS = {
  testTimeout: testWaitMs(60_000),
  hookTimeout: testWaitMs(120_000),
  expect: { poll: POLL },
} as const;
