// How long a test waits on a process, a port or a browser: one setting for every such wait of every test project,
// LP_TEST_SLOWDOWN (default 1), how many times slower than the reference 2-core machine this one is. Each wait below
// (and each testWaitMs(...) in a test) is about three times what the reference machine needs, so a machine twice as
// slow, or one busy with another run, still passes; a slower one sets LP_TEST_SLOWDOWN=2 or more. No test's outcome
// depends on the machine's speed, only how long it may take to fail.
import { integerVariable } from './environment.ts';

/** LP_TEST_SLOWDOWN: an integer of at least 1. */
export const TEST_SLOWDOWN = integerVariable('LP_TEST_SLOWDOWN', 1, 1);

/** A test's wait on a process, a port or a browser: `ms` on the reference machine, times the slowdown. */
export const testWaitMs = (ms: number): number => ms * TEST_SLOWDOWN;

/** Every test project's default test and hook timeouts (vitest's own, 5 s and 10 s, are too short for a process). */
export const PROJECT_TIMEOUTS = { testTimeout: testWaitMs(60_000), hookTimeout: testWaitMs(120_000) } as const;
