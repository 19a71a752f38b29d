// Vitest project of the breaking-change check (tools/spec-diff.ts, scripts/spec-diff.ts).
import { defineProject } from 'vitest/config';
import { PROJECT_TIMEOUTS } from '../../config/test-waits.ts';

export default defineProject({
  test: {
    name: 'spec-diff',
    include: ['test/spec-diff/**/*.test.ts'],
    root: new URL('../..', import.meta.url).pathname,
    ...PROJECT_TIMEOUTS,
  },
});
