import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'spec', include: ['test/spec/**/*.test.ts'], root: new URL('../..', import.meta.url).pathname },
});
