// `npm run pack:check`: the package as a consumer installs it, through a local registry (tools/release/pack-check.ts).
import { parseCommandLine } from '../config/cli.ts';
import { packCheck } from '../tools/release/pack-check.ts';
import { repoRoot } from '../spec-core/apis.ts';

parseCommandLine({
  command: 'npm run pack:check --',
  summary:
    'Stages the package as a release does, checks its files and README, runs publint and attw, publishes it to a throwaway local ' +
    'registry, installs it by name, compiles the consumers and the README samples strict, with the tsconfig of `tsc --init` and as ' +
    'CommonJS, runs them against the sandbox, follows the README\'s "Try it in five minutes" section as written in a new folder, ' +
    'and checks that publishing the same version again is refused.',
  options: {},
});
try {
  await packCheck(repoRoot);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
