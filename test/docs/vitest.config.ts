// Vitest project of the partner docs: the headless-Chromium browser test of dist/docs/.
import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'docs',
    include: ['test/docs/**/*.test.ts'],
    root: new URL('../..', import.meta.url).pathname,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
