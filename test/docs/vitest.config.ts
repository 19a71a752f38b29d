// Vitest project of the partner docs: the headless-Chromium browser test of dist/docs/.
import { defineProject } from 'vitest/config';
import { PROJECT_TIMEOUTS } from '../../config/test-waits.ts';

export default defineProject({
  test: {
    name: 'docs',
    include: ['test/docs/**/*.test.ts'],
    root: new URL('../..', import.meta.url).pathname,
    ...PROJECT_TIMEOUTS,
  },
});
