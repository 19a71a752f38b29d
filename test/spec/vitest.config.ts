import { defineProject } from 'vitest/config';
import { PROJECT_TIMEOUTS } from '../../config/test-waits.ts';
import { EXCLUDE_PROGRAM_TESTS } from '../../config/test-tiers.ts';

export default defineProject({
  // isolate: false: files share one module graph, so the bundles and specs are parsed once per run, not once per file.
  test: {
    name: 'spec',
    include: ['test/spec/**/*.test.ts'],
    exclude: EXCLUDE_PROGRAM_TESTS,
    root: new URL('../..', import.meta.url).pathname,
    isolate: false,
    ...PROJECT_TIMEOUTS,
  },
});
