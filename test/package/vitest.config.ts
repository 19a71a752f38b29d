// Vitest project of the release tooling (tools/release/): the package's contents and README rules, the derived
// manifest, and the versioning policy with its CI check (release:check) run as a process in a throwaway git repo.
import { defineProject } from 'vitest/config';
import { PROJECT_TIMEOUTS } from '../../config/test-waits.ts';
import { EXCLUDE_PROGRAM_TESTS } from '../../config/test-tiers.ts';

export default defineProject({
  test: {
    name: 'package',
    include: ['test/package/**/*.test.ts'],
    exclude: EXCLUDE_PROGRAM_TESTS,
    root: new URL('../..', import.meta.url).pathname,
    ...PROJECT_TIMEOUTS,
  },
});
