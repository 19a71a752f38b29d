// @ts-check
// Mutation testing of the published client (npm run test:mutation): StrykerJS changes src/ one mutant at a time and the
// client's own tests (test/client/vitest.mutation.config.ts) must fail. Reports go to dist/mutation/.
// The vitest runner runs the tests in worker threads, where a test cannot switch the time zone for itself (the asctime
// Retry-After test does in the client project's own processes): the whole run takes one far from UTC instead, so that a
// date read as local time rather than as GMT is 14 hours off. Its test runners inherit it.
process.env.TZ = 'Pacific/Kiritimati';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'test/client/vitest.mutation.config.ts' },
  mutate: ['src/**/*.ts'],
  coverageAnalysis: 'perTest',
  incremental: true,
  incrementalFile: 'dist/mutation/stryker-incremental.json',
  reporters: ['html', 'json', 'clear-text', 'progress'],
  htmlReporter: { fileName: 'dist/mutation/index.html' },
  jsonReporter: { fileName: 'dist/mutation/mutation.json' },
  thresholds: { high: 90, low: 85, break: 85 },
  concurrency: 2,
  timeoutMS: 10_000,
  timeoutFactor: 2,
  tempDirName: 'dist/.stryker-tmp',
  ignorePatterns: ['/dist', '/coverage'],
};
export default config;
