// Vitest project of the sandbox: its tests start the sandbox and the mock as real processes.
import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'sandbox',
    include: ['test/sandbox/**/*.test.ts'],
    root: new URL('../..', import.meta.url).pathname,
    testTimeout: 30_000,
    hookTimeout: 90_000,
    // Files share one module graph (no module-level state in the sandbox; each test builds its own sandbox), so
    // fastify, ajv and the bundles load once per run instead of once per file: about a third less CPU.
    isolate: false,
  },
});
