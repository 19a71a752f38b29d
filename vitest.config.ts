// Root vitest config: each area of the kit owns a project config next to its tests.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['test/*/vitest.config.ts', '*/vitest.config.ts'],
  },
});
