import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'postman',
    include: ['test/postman/**/*.test.ts'],
    root: new URL('../..', import.meta.url).pathname,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
