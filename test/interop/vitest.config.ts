import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'interop', include: ['test/interop/**/*.test.ts'], root: new URL('../..', import.meta.url).pathname, testTimeout: 60_000 },
});
