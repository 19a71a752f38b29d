// Vitest project of the sandbox: its tests start the sandbox and the mock as real processes.
import { defineProject } from 'vitest/config';
import { PROJECT_TIMEOUTS } from '../../config/test-waits.ts';
import { EXCLUDE_PROGRAM_TESTS } from '../../config/test-tiers.ts';

export default defineProject({
  test: {
    name: 'sandbox',
    include: ['test/sandbox/**/*.test.ts'],
    exclude: EXCLUDE_PROGRAM_TESTS,
    root: new URL('../..', import.meta.url).pathname,
    ...PROJECT_TIMEOUTS,
    // Files share one module graph (no module-level state in the sandbox; each test builds its own sandbox), so
    // fastify, ajv and the bundles load once per run instead of once per file: about a third less CPU.
    isolate: false,
  },
});
