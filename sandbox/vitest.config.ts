// Vitest project of the sandbox: its tests start the sandbox and the mock as real processes.
import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'sandbox',
    include: ['sandbox/test/**/*.test.ts'],
    root: new URL('..', import.meta.url).pathname,
    testTimeout: 30_000,
    hookTimeout: 90_000,
  },
});
