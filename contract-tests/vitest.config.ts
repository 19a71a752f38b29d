// Vitest project of the contract suite: the same files run against the mock, the sandbox or a live target (LP_* variables).
import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'contract',
    include: ['contract-tests/**/*.test.ts'],
    root: new URL('..', import.meta.url).pathname,
    setupFiles: ['contract-tests/support/setup.ts'],
    globalSetup: ['contract-tests/support/global-setup.ts'],
    // Targets are remote servers: give slow staging environments room, but never hang forever.
    testTimeout: 30_000,
    // One file at a time: the expiry checks move the sandbox's clock, which must not expire another file's tokens.
    // It also keeps the load on a partner's staging environment low.
    fileParallelism: false,
    // Files share one module graph, so the bundles are parsed and the ajv validators compiled once per run.
    isolate: false,
    // Worker threads: a run's worker starts cheaper than a process (contract:mutation starts one per run, some 50).
    pool: 'threads',
    hookTimeout: 30_000,
  },
});
