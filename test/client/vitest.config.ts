// Vitest project of the typed client (src/): behaviour tests against loopback servers, and type tests (*.test-d.ts).
import { defineProject } from 'vitest/config';
import { PROJECT_TIMEOUTS } from '../../config/test-waits.ts';
import { EXCLUDE_PROGRAM_TESTS } from '../../config/test-tiers.ts';
import { flagVariable } from '../../config/environment.ts';

export default defineProject({
  test: {
    name: 'client',
    include: ['test/client/**/*.test.ts'],
    exclude: EXCLUDE_PROGRAM_TESTS,
    root: new URL('../..', import.meta.url).pathname,
    ...PROJECT_TIMEOUTS,
    // Files share one module graph (src/ keeps no module-level state but its shared connection pools, which hold no
    // test's data; each test builds its own client): the client and openapi-fetch load once per run instead of per file.
    isolate: false,
    // npm test sets LP_TYPE_TESTS_IN_TYPECHECK=1: its typecheck step compiles these files already (scripts/test.ts).
    typecheck: {
      enabled: !flagVariable('LP_TYPE_TESTS_IN_TYPECHECK'),
      include: ['test/client/**/*.test-d.ts'],
      tsconfig: 'test/client/tsconfig.typecheck.json',
    },
  },
});
