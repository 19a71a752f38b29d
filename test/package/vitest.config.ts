// Vitest project of the release tooling (tools/release/): the package's contents and README rules, the derived
// manifest, and the versioning policy with its CI check (release:check) run as a process in a throwaway git repo.
import { defineProject } from 'vitest/config';
import { PROJECT_TIMEOUTS } from '../../config/test-waits.ts';

export default defineProject({
  test: {
    name: 'package',
    include: ['test/package/**/*.test.ts'],
    root: new URL('../..', import.meta.url).pathname,
    ...PROJECT_TIMEOUTS,
  },
});
