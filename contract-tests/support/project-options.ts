// The contract project's options that depend on the run's settings (send/run-settings.ts): which files run, how many at
// once, how long a check may take, the workers' CPU profiles, and the settings themselves for every worker (`provide`).
// contract-tests/vitest.config.ts takes them from a vitest started directly; the runner passes them inline, over the
// project's own options (support/project-config.ts).
import type { InlineConfig } from 'vitest/node';
import { PROJECT_TIMEOUTS } from '../../config/test-waits.ts';
import { cpuProfileFlags } from '../../config/environment.ts';
import type { RunSettings } from '../send/run-settings.ts';
import { HeaviestFirst } from './heaviest-first.ts';

/** The mode the runner starts vitest in: it passes the run's options itself, so the config reads no variable. */
export const RUNNER_MODE = 'contract-run';

export type RunOptions = Pick<
  InlineConfig,
  | 'include'
  | 'exclude'
  | 'testTimeout'
  | 'hookTimeout'
  | 'fileParallelism'
  | 'maxWorkers'
  | 'maxConcurrency'
  | 'sequence'
  | 'execArgv'
  | 'provide'
>;

/** The options of a run's settings; `defaultExclude` is vitest's own exclusions (its `configDefaults.exclude`), which
 * an `exclude` of the project's would otherwise replace: the caller has vitest loaded, this module does not load it. */
export function runOptions(settings: RunSettings, defaultExclude: readonly string[]): RunOptions {
  const live = settings.target === 'live' && !settings.selfTests;
  // A live target's clock is never moved, so its files may run side by side (LP_CONTRACT_WORKERS, default 3): a far
  // target then costs one round trip per step of the longest file, not of all of them. The transport divides
  // --concurrency and --rate-limit among the workers, so the target sees no more than the partner allowed.
  const workers = live ? settings.transport.workers : 1;
  // Against a live target a file's checks run side by side as well, up to 32 at once: one after another, a far target
  // cost a round trip per answer of every check in the file (fleet/vehicles.test.ts, 20 answers in a row; the token
  // operators, 80 checks, in waves of vitest's default 5). No check of the suite waits for another's (state comes from a
  // file's beforeAll), and each check's exchanges and problems stay its own (support/setup.ts names the check around
  // every test). The transport, not this, bounds the requests in flight. The mock and the sandbox: one after another,
  // since loopback has no round trip to save and contract:mutation's runs end at their first failure (bail), which
  // leaves checks cancelled side by side with no result.
  const checksAtOnce = live ? 32 : 5;
  return {
    // The self-tests that run whole contract:live runs against sandboxes behind proxies (self/end-to-end/) run apart, as
    // one of the end-to-end rehearsals (npm run contract:end-to-end, in npm run test:end-to-end): then only they run.
    include: settings.endToEnd ? ['contract-tests/self/end-to-end/**/*.test.ts'] : ['contract-tests/**/*.test.ts'],
    // The suite's tests of itself send nothing to the target: they run with the mock (the default target) and nowhere
    // else, so a live run's verdict line counts only checks of the target, and the sandbox runs (contract:sandbox,
    // contract:mutation) do not run them a second time.
    exclude: [
      ...defaultExclude,
      ...(settings.selfTests ? [] : ['contract-tests/self/**']),
      ...(settings.endToEnd ? [] : ['contract-tests/self/end-to-end/**']),
    ],
    // Targets are remote servers: give slow staging environments room, but never hang forever (the mock and the
    // sandbox: the project timeouts of config/test-waits.ts). Every request has its own deadline and bounded tries
    // (send/transport.ts); a live check may also sit out a gateway's Retry-After.
    testTimeout: live ? 600_000 : PROJECT_TIMEOUTS.testTimeout,
    hookTimeout: live ? 600_000 : PROJECT_TIMEOUTS.hookTimeout,
    // The mock and the sandbox: one file at a time, since the expiry checks move the sandbox's clock, which must not
    // expire another file's tokens.
    fileParallelism: workers > 1,
    maxWorkers: workers,
    maxConcurrency: checksAtOnce,
    // Files side by side: the heaviest first (support/heaviest-first.ts); one at a time, vitest's own order.
    sequence: { concurrent: live, ...(workers > 1 ? { sequencer: HeaviestFirst } : {}) },
    // LP_CONTRACT_CPU_PROF: each worker thread writes a CPU profile of its own (where the suite's CPU goes per exchange).
    execArgv: cpuProfileFlags(settings.cpuProfileDir),
    // The run as a value: the global setup, the reporters and every worker (send/run.ts) take the settings from here.
    provide: { run: settings },
  };
}
