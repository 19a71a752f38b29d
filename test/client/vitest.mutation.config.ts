// The client project as StrykerJS runs it (stryker.config.mjs): the same tests, without the type tests (no mutant
// reaches a type), and each test file in a module graph of its own, so a mutant that only runs while a module loads is
// loaded anew for every run.
import { mergeConfig } from 'vitest/config';
import client from './vitest.config.ts';

export default mergeConfig(client, {
  test: {
    isolate: true,
    typecheck: { enabled: false },
  },
});
