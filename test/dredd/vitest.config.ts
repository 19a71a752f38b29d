// Vitest project of dredd against the sandbox (npm run test:dredd): dredd and Prism's validating proxies are whole
// programs started per run, so this runs with the end-to-end rehearsals (npm run test:end-to-end), not in npm test.
import { defineProject } from 'vitest/config';
import { PROJECT_TIMEOUTS } from '../../config/test-waits.ts';

export default defineProject({
  test: {
    name: 'dredd',
    include: ['test/dredd/**/*.test.ts'],
    root: new URL('../..', import.meta.url).pathname,
    ...PROJECT_TIMEOUTS,
  },
});
