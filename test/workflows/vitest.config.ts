// Vitest project of the Arazzo workflows: their catalog (every documented flow has a workflow, every operation exists,
// the lint can fail) and their runs with Redocly Respect against a real sandbox, the mock and broken targets.
import { defineProject } from 'vitest/config';
import { TIMEOUT_MS } from './settings.ts';

export default defineProject({
  test: {
    name: 'workflows',
    include: ['test/workflows/**/*.test.ts'],
    root: new URL('../..', import.meta.url).pathname,
    testTimeout: TIMEOUT_MS,
    hookTimeout: TIMEOUT_MS,
  },
});
