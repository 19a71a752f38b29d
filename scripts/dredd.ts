// `npm run dredd`: dredd against a target through Prism's validating proxy (contract-tests/dredd/run-dredd.ts).
import { parseCommandLine, usageError } from '../config/cli.ts';
import { parseTargetName, type TargetName } from '../config/environment.ts';
import { TARGET_CLI_OPTIONS } from '../tools/targets.ts';

const CLI = {
  command: 'npm run dredd --',
  summary:
    "Runs dredd over every operation of the specs against a target, through Prism's validating proxy (any response that breaks the schema fails). Exits 1 on any failing transaction or error.",
  options: TARGET_CLI_OPTIONS,
} as const;

const { values } = parseCommandLine(CLI);
let target: TargetName = 'mock';
try {
  target = parseTargetName(values.target ?? 'mock', '--target');
} catch (error) {
  usageError(CLI, (error as Error).message);
}
if (values.mutation && target !== 'sandbox') usageError(CLI, '--mutation needs --target sandbox');

// The runner is loaded after the options: its modules read the bundles as they load (building them in a fresh clone),
// which --help and a refused option need not wait for.
process.exitCode = await import('../contract-tests/dredd/run-dredd.ts')
  .then(({ runDredd }) => runDredd({ target, mutation: values.mutation }))
  .then(({ exitCode, line }) => {
    console.log(line);
    return exitCode;
  })
  .catch((error: unknown) => {
    console.error(`dredd: ${(error as Error).message}`);
    return 1;
  });
