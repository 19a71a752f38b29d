// Vitest project of the contract suite: the same files run against the mock, the sandbox or a live target (the run's
// settings: send/run-settings.ts). The project's own options: support/project-config.ts.
import { configDefaults, defineProject } from 'vitest/config';
import { runSettingsOf } from './send/run-settings.ts';
import { projectConfig } from './support/project-config.ts';
import { RUNNER_MODE, runOptions } from './support/project-options.ts';

// A vitest started directly (npx vitest run --config contract-tests/vitest.config.ts, or the root config's projects)
// takes the run's settings from its LP_* variables: with none, the self-tests against the mock. The runner
// (runner/run-suite.ts) starts vitest without this file, with the project's options and those of its own settings
// (support/project-options.ts); were it given this file, in its own mode no variable is read here.
export default defineProject({
  plugins: [
    {
      name: 'contract-run-settings',
      config: (_config, { mode }) =>
        mode === RUNNER_MODE ? undefined : { test: runOptions(runSettingsOf(process.env), configDefaults.exclude) },
    },
  ],
  test: projectConfig(),
});
