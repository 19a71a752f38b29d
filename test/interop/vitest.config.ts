import { defineProject } from 'vitest/config';
import { PROJECT_TIMEOUTS } from '../../config/test-waits.ts';

export default defineProject({
  test: { name: 'interop', include: ['test/interop/**/*.test.ts'], root: new URL('../..', import.meta.url).pathname, ...PROJECT_TIMEOUTS },
});
