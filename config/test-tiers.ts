// Which test files start whole programs (a script through tsx, npm, Prism, newman, Redocly, a browser login, openssl)
// and take most of their time in them: they run in `npm run test:end-to-end` (the `programs` project, npm run
// test:programs), not in `npm test`, which keeps to what runs in-process and answers in under two minutes on two cores.
// A file's project excludes it here and test/programs/vitest.config.ts includes it: one list, two readers.
import { configDefaults } from 'vitest/config';

export const PROGRAM_TESTS = [
  // Every script's --help and its bad arguments, each a tsx process; npm's signals to a script's children.
  'test/tools/scripts-help.test.ts',
  'test/tools/scripts-cli.test.ts',
  'test/tools/cli.test.ts',
  'test/tools/npm-script-signals.test.ts',
  'test/tools/bundles-on-demand.test.ts',
  'test/tools/processes.test.ts',
  'test/spec-diff/cli.test.ts',
  // Redocly lint on broken copies of the specs; the release's version rules through git and npm.
  'test/spec/lint.test.ts',
  'test/package/versioning.test.ts',
  // The partner tools on the bundles, and newman against a sandbox.
  'test/interop/interop.test.ts',
  'test/postman/collection.test.ts',
  // The sandbox and the mock as processes: their start, their signals, their event file across restarts.
  'test/sandbox/startup.test.ts',
  'test/sandbox/durable-events.test.ts',
  'test/sandbox/mock.test.ts',
  // A sandbox process flooded with codes and tokens, its memory read from outside.
  'test/sandbox/memory-flood.test.ts',
  // The client's login through a browser program, and its connections through proxies with openssl's certificates.
  'test/client/login.test.ts',
  'test/client/connections.test.ts',
];

/** A project's exclude: vitest's defaults and the program tests. */
export const EXCLUDE_PROGRAM_TESTS = [...configDefaults.exclude, ...PROGRAM_TESTS];
