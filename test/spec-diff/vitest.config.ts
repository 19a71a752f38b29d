// Vitest project of the breaking-change check (tools/spec-diff.ts, scripts/spec-diff.ts).
import { defineProject } from 'vitest/config';
import { PROJECT_TIMEOUTS } from '../../config/test-waits.ts';
import { EXCLUDE_PROGRAM_TESTS } from '../../config/test-tiers.ts';

export default defineProject({
  test: {
    name: 'spec-diff',
    include: ['test/spec-diff/**/*.test.ts'],
    exclude: EXCLUDE_PROGRAM_TESTS,
    root: new URL('../..', import.meta.url).pathname,
    ...PROJECT_TIMEOUTS,
  },
});
