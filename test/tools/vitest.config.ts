import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'tools',
    include: ['test/tools/**/*.test.ts'],
    root: new URL('../..', import.meta.url).pathname,
    globalSetup: ['test/tools/global-setup.ts'],
  },
});
