// `npm run contract:workflows`: runs the documented flows (the Arazzo workflows of openapi/workflows/) with Redocly
// Respect against one target: `mock` (starts Prism unless LP_BASE_URL points at a running one), `sandbox` (starts the
// sandbox, with --mutation ID an injected violation), or `live` (LP_* variables, also read from .env). Prints a line per
// workflow, then the violations (promise, request, answer, curl), what could not be judged and what was skipped, and a
// verdict line; outputs (Respect's JSON logs and HARs, all redacted) go to dist/contract/workflows/.
import { resolve } from 'node:path';
import { repoRoot } from '../spec-core/apis.ts';
import { loadWorkflows } from '../spec-core/workflows.ts';
import { integerOption, parseCommandLine, usageError } from '../config/cli.ts';
import { parseTargetName, type TargetName } from '../config/environment.ts';
import { freePort } from '../tools/free-port.ts';
import { TARGET_CLI_OPTIONS, withTarget } from '../tools/targets.ts';

const CLI = {
  command: 'npm run contract:workflows --',
  summary:
    'Runs the Arazzo workflows of the documented flows with Redocly Respect against a target, and judges each step: passed, a contract violation, could not judge, or skipped (with why).',
  options: {
    target: TARGET_CLI_OPTIONS.target,
    mutation: TARGET_CLI_OPTIONS.mutation,
    workflow: { type: 'string', multiple: true, value: 'ID', description: 'Run only this workflowId (repeatable).' },
    out: { type: 'string', value: 'DIR', default: 'dist/contract/workflows', description: 'Where the outputs go (emptied first).' },
    timeout: {
      type: 'string',
      value: 'MS',
      description: 'Time one request may take (or LP_CONTRACT_TIMEOUT_MS; default 15000); a workflow may take ten times as long.',
    },
  },
  notes: [
    'Exit codes: 0 pass; 1 a contract violation (a step broke a documented fact); 2 could not judge (a configuration',
    'error, the target unreachable, a timeout, throttling, an unmet precondition of the target, or a failure of the run).',
  ],
} as const;

function options() {
  const { values } = parseCommandLine(CLI);
  let target: TargetName;
  try {
    target = parseTargetName(values.target ?? 'mock', '--target');
  } catch (error) {
    usageError(CLI, (error as Error).message);
  }
  if (values.mutation && target !== 'sandbox') usageError(CLI, '--mutation needs --target sandbox');
  const ids = loadWorkflows().map((workflow) => workflow.workflowId);
  const unknown = (values.workflow ?? []).filter((id) => !ids.includes(id));
  if (unknown.length > 0) usageError(CLI, `no workflow ${unknown.join(', ')}; the workflows are ${ids.join(', ')}`);
  return {
    target,
    mutation: values.mutation,
    only: values.workflow,
    out: resolve(repoRoot, values.out ?? 'dist/contract/workflows'),
    timeoutMs: values.timeout === undefined ? undefined : integerOption(CLI, 'timeout', values.timeout, 1, 600_000),
  };
}

/** The exit code of a run that could not judge, known before anything loads. */
const COULD_NOT_JUDGE = 2;

async function main(): Promise<number> {
  const opts = options();
  // Loaded after the options: they read the bundles (built on demand), which --help and a bad option never need.
  const [{ runWorkflows }, { workflowLine, workflowsText }] = await Promise.all([
    import('../contract-tests/workflows/run-workflows.ts'),
    import('../contract-tests/workflows/report-text.ts'),
  ]);
  // The sandbox registers a redirect URI on a free port: the run receives the authorization code redirect there itself,
  // so two runs (or `npm run login`, on the default one) never share a port.
  const sandboxEnv = opts.target === 'sandbox' ? { LP_REDIRECT_URI: `http://127.0.0.1:${await freePort()}/callback` } : undefined;
  return withTarget(
    opts.target,
    { mutation: opts.mutation, reuseRunningMock: true, ...(sandboxEnv ? { sandboxEnv } : {}) },
    async (server) => {
      console.log(`contract:workflows: target ${opts.target}${opts.mutation ? ` (mutation ${opts.mutation})` : ''}: ${server.source}`);
      const run = await runWorkflows({
        target: opts.target,
        env: server.env,
        outputDir: opts.out,
        only: opts.only,
        requestTimeoutMs: opts.timeoutMs,
        onWorkflow: (result) => console.log(workflowLine(result)),
      });
      const sections = workflowsText(run);
      if (sections) console.log(`\n${sections}\n`);
      console.log(
        `contract:workflows: ${run.workflows.length} workflows against ${opts.target} in ${run.seconds.toFixed(1)} s wall time; outputs in ${opts.out} (workflows.json, and per workflow its Respect JSON log, HAR and console output)`,
      );
      console.log(run.line);
      return run.exitCode;
    },
    (error) => {
      console.error(`contract:workflows: could not judge: ${error.message}`);
      return COULD_NOT_JUDGE;
    },
  );
}

process.exitCode = await main().catch((error: unknown) => {
  // The run's own failure (a server that would not start, a broken install): nobody's verdict on the target.
  console.error(`contract:workflows: could not judge: ${(error as Error).message}`);
  return COULD_NOT_JUDGE;
});
