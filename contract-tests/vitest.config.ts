// Vitest project of the contract suite: the same files run against the mock, the sandbox or a live target (LP_* variables).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configDefaults, defineProject } from 'vitest/config';
import { cpuProfileOptions } from '../config/environment.ts';
import { PROJECT_TIMEOUTS } from '../config/test-waits.ts';
import { clauseTags } from './judge/oauth-clauses.ts';
import { configuredTargetName, currentTransportSettings, endToEndRun } from './send/run.ts';
import { HeaviestFirst } from './support/heaviest-first.ts';

const root = new URL('..', import.meta.url).pathname;
const lockFile = join(root, 'package-lock.json');
const moduleCachePath = join(
  root,
  'node_modules/.experimental-vitest-cache',
  existsSync(lockFile) ? createHash('sha1').update(readFileSync(lockFile)).digest('hex').slice(0, 12) : 'no-lock-file',
);

// The suite's tests of itself send nothing to the target: they run with the mock (the default target) and nowhere else,
// so a live run's verdict line counts only checks of the target, and the sandbox runs (contract:sandbox,
// contract:mutation) do not run them a second time.
// The run's settings come from the one place that reads them (send/run.ts), here before any worker starts.
const targetName = configuredTargetName();
const live = targetName === 'live';
const selfTests = (targetName ?? 'mock') === 'mock';
// The self-tests that run whole contract:live runs against sandboxes behind proxies (self/end-to-end/) run apart, as
// one of the end-to-end rehearsals (npm run contract:end-to-end, in npm run test:end-to-end): then only they run.
const endToEnd = endToEndRun();
// A live target's clock is never moved, so its files may run side by side (LP_CONTRACT_WORKERS, default 3): a far
// target then costs one round trip per step of the longest file, not of all of them. The transport divides
// --concurrency and --rate-limit among the workers, so the target sees no more than the partner allowed.
const workers = live ? currentTransportSettings().workers : 1;
// Against a live target a file's checks run side by side as well, up to 32 at once: one after another, a far target
// cost a round trip per answer of every check in the file (fleet/vehicles.test.ts, 20 answers in a row; the token
// operators, 80 checks, in waves of vitest's default 5). No check of the suite waits for another's (state comes from a
// file's beforeAll), and each check's exchanges and problems stay its own (support/setup.ts names the check around
// every test). The transport, not this, bounds the requests in flight. The mock and the sandbox: one after another,
// since loopback has no round trip to save and contract:mutation's runs end at their first failure (bail), which
// leaves checks cancelled side by side with no result.
const checksAtOnce = live ? 32 : 5;

export default defineProject({
  test: {
    name: 'contract',
    include: endToEnd ? ['contract-tests/self/end-to-end/**/*.test.ts'] : ['contract-tests/**/*.test.ts'],
    exclude: [
      ...configDefaults.exclude,
      ...(selfTests ? [] : ['contract-tests/self/**']),
      ...(endToEnd ? [] : ['contract-tests/self/end-to-end/**']),
    ],
    root,
    setupFiles: ['contract-tests/support/setup.ts'],
    globalSetup: ['contract-tests/support/global-setup.ts'],
    // A test that checks an OAuth clause declares the clause's id among its tags (judge/oauth-clauses.ts): one tag per
    // clause, so a test naming an id no clause has does not run, and `--tags-filter <id>` runs one clause's tests.
    tags: clauseTags(),
    // Targets are remote servers: give slow staging environments room, but never hang forever (the mock and the
    // sandbox: the project timeouts of config/test-waits.ts). Every request has its
    // own deadline and bounded tries (send/transport.ts); a live check may also sit out a gateway's Retry-After.
    testTimeout: live ? 600_000 : PROJECT_TIMEOUTS.testTimeout,
    // The mock and the sandbox: one file at a time, since the expiry checks move the sandbox's clock, which must not
    // expire another file's tokens.
    fileParallelism: workers > 1,
    maxWorkers: workers,
    maxConcurrency: checksAtOnce,
    // Files side by side: the heaviest first (support/heaviest-first.ts); one at a time, vitest's own order.
    sequence: { concurrent: live, ...(workers > 1 ? { sequencer: HeaviestFirst } : {}) },
    // Files share one module graph, so the bundles are parsed and the ajv validators compiled once per run.
    isolate: false,
    // Worker threads: a run's worker starts cheaper than a process (contract:mutation starts one per run, some 50).
    pool: 'threads',
    // LP_CONTRACT_CPU_PROF: each worker thread writes a CPU profile of its own (where the suite's CPU goes per exchange).
    execArgv: cpuProfileOptions(),
    // Vitest's transforms of the suite's modules kept on disk between runs (node_modules/.experimental-vitest-cache,
    // keyed by each file's content): a run's workers wait for the main thread to transform every module they load,
    // which took about 1.3 s of a live run's start on two cores.
    // Kept in a folder of its own per lock file: vitest clears its cache when the lock file changes, and that clearing
    // races the run's own first writes (the run after an `npm install` died with ENOENT on a .tmp file of the cache,
    // before any check); a new lock file now starts an empty folder, which nothing clears.
    experimental: { fsModuleCache: true, fsModuleCachePath: moduleCachePath },
    hookTimeout: live ? 600_000 : PROJECT_TIMEOUTS.hookTimeout,
    // A write whose answer never came has an unknown outcome (send/transport.ts says so in these words): that is
    // nobody's verdict yet, so the check runs once more, building a new event, before it counts as "could not judge".
    // Nothing else is retried (self/transport.test.ts holds the words and the config together).
    retry: { count: 1, condition: /it is not sent again, since a second write could record twice/ },
  },
});
