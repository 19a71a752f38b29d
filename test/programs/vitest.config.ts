// Vitest project of the tests that start whole programs (config/test-tiers.ts): npm run test:programs, a step of
// npm run test:end-to-end. The files stay beside the code they test; their own projects exclude them.
import { defineProject } from 'vitest/config';
import { PROJECT_TIMEOUTS } from '../../config/test-waits.ts';
import { PROGRAM_TESTS } from '../../config/test-tiers.ts';

export default defineProject({
  test: {
    name: 'programs',
    include: PROGRAM_TESTS,
    root: new URL('../..', import.meta.url).pathname,
    ...PROJECT_TIMEOUTS,
    // The scripts under test read the bundles: built once before any test starts one (a fresh clone has none).
    globalSetup: ['test/tools/global-setup.ts'],
  },
});
