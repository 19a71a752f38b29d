// Runs the contract suite against one target: `mock` (starts Prism unless LP_BASE_URL points at a running one),
// `sandbox` (starts the sandbox), or `live` (LP_* variables, also read from .env). Exits non-zero on any contract
// violation; contradicted assumptions of the specs are listed at the end and fail the run only when strict (the mock
// and the sandbox always are). A live run then runs the documented flows as Arazzo workflows (--no-workflows leaves them
// out). Ends with one verdict line (two with the workflows).
import { resolve } from 'node:path';
import { repoRoot } from '../spec-core/apis.ts';
import { integerOption, parseCommandLine, usageError } from '../config/cli.ts';
import { flagVariable, loadDotenv, parseTargetName, readVariable, strictByDefault, type TargetName } from '../config/environment.ts';
import { type RunSettings, runSettingsOf } from '../contract-tests/send/run-settings.ts';
import { TARGET_CLI_OPTIONS } from '../tools/targets.ts';
import { unknownVitestOptions } from '../contract-tests/runner/vitest-options.ts';

const CLI = {
  command: 'npm run contract --',
  summary:
    'Runs the contract suite against a target. Exits 1 on any contract violation; contradicted assumptions of the specs are listed at the end and fail the run only when strict (the mock and the sandbox always are).',
  options: {
    target: TARGET_CLI_OPTIONS.target,
    runs: { type: 'string', value: 'N', description: 'Property-based runs per operation and kind (default 5).' },
    out: { type: 'string', value: 'DIR', description: 'Where the reports go (or LP_CONTRACT_OUT; default dist/contract).' },
    mutation: TARGET_CLI_OPTIONS.mutation,
    'strict-assumptions': { type: 'boolean', description: 'Contradicted assumptions fail the run too (or LP_STRICT_ASSUMPTIONS=1).' },
    'fail-on-skip': { type: 'boolean', description: 'Fail when any check was skipped (or LP_FAIL_ON_SKIP=1).' },
    'min-coverage': {
      type: 'string',
      value: 'RATIO',
      description: 'Fail below this share (0 to 1) of exercised coverage rows (or LP_MIN_COVERAGE).',
    },
    'rate-limit': {
      type: 'string',
      value: 'N',
      description: "Send at most N requests a second: a gateway's quota (or LP_CONTRACT_RATE_LIMIT). Default: adapt to the 429s met.",
    },
    'idp-rate-limit': {
      type: 'string',
      value: 'N',
      description:
        "Send the identity provider (LP_AUTH_URL) at most N requests a second, all workers together: a limit it shares with your users' sign-ins (or LP_CONTRACT_IDP_RATE_LIMIT). Default: paced by its rate-limit headers.",
    },
    concurrency: {
      type: 'string',
      value: 'N',
      description: 'Requests in flight at most, all workers together (or LP_CONTRACT_CONCURRENCY; default 128; below it they adapt).',
    },
    workers: {
      type: 'string',
      value: 'N',
      description:
        "Live runs: test files run side by side (or LP_CONTRACT_WORKERS; default from the preflight's round trip, 3 to 8, at most two per core, near one per core on fewer than 3, one core fewer for a target on this machine). The mock and sandbox run one at a time.",
    },
    timeout: {
      type: 'string',
      value: 'MS',
      description: 'Time one attempt of a request may take (or LP_CONTRACT_TIMEOUT_MS; default 15000).',
    },
    tries: {
      type: 'string',
      value: 'N',
      description: 'Attempts per request when throttled or after a transient fault (or LP_CONTRACT_TRIES; default 6).',
    },
    baseline: {
      type: 'string',
      value: 'DIR',
      description:
        "A previous run's report directory (or LP_CONTRACT_BASELINE): every report adds what is new since it and what it showed that this run did not.",
    },
    verbose: {
      type: 'boolean',
      description: "Keep vitest's assertion diffs and code frames of failed checks in the console (or LP_CONTRACT_VERBOSE=1).",
    },
    'no-workflows': {
      type: 'boolean',
      description:
        'Live runs: leave out the documented flows as Arazzo workflows, which otherwise run after the suite (npm run contract:workflows runs them alone, on any target).',
    },
    'max-wait': {
      type: 'string',
      value: 'S',
      description: 'The longest Retry-After waited out, in seconds (or LP_CONTRACT_MAX_WAIT_S; default 60).',
    },
  },
  positionals: '[-- vitest args]',
  notes: [
    'Exit codes: 0 pass; 1 a contract violation (or, when strict, a contradicted assumption; or a failed gate);',
    '2 could not judge: a configuration error, credentials the target refuses, the target unreachable, requests that',
    "kept timing out or stayed throttled, a write whose outcome is unknown, or the suite's own error.",
  ],
} as const;

/** The transport options as the LP_CONTRACT_* variables they stand for (an option wins over the variable), and the
 * option each variable comes from, for an error's message. */
function transportOptions(values: Record<string, string | boolean | undefined>): {
  env: Record<string, string>;
  optionOf: Map<string, string>;
} {
  const env: Record<string, string> = {};
  const optionOf = new Map<string, string>();
  const set = (option: string, variable: string) => {
    optionOf.set(variable, option);
    const value = values[option];
    if (typeof value === 'string') env[variable] = value;
  };
  set('rate-limit', 'LP_CONTRACT_RATE_LIMIT');
  set('idp-rate-limit', 'LP_CONTRACT_IDP_RATE_LIMIT');
  set('concurrency', 'LP_CONTRACT_CONCURRENCY');
  set('workers', 'LP_CONTRACT_WORKERS');
  set('timeout', 'LP_CONTRACT_TIMEOUT_MS');
  set('tries', 'LP_CONTRACT_TRIES');
  set('max-wait', 'LP_CONTRACT_MAX_WAIT_S');
  return { env, optionOf };
}

type Values = ReturnType<typeof parseCommandLine<(typeof CLI)['options']>>['values'];

/**
 * The run's settings from the options and the environment (LP_* variables; for live, .env fills in what the environment
 * lacks): the one place the runner reads its environment. Everything after takes the settings as a value, down to
 * vitest's workers (send/run-settings.ts).
 */
function settingsOf(values: Values, target: TargetName) {
  // Real environments are configured by LP_* variables; a .env file fills in what the environment lacks (the CI
  // settings LP_STRICT_ASSUMPTIONS, LP_FAIL_ON_SKIP and LP_MIN_COVERAGE included, so it is read before them).
  if (target === 'live') loadDotenv();
  const env = process.env;
  const transport = transportOptions(values);
  let settings: RunSettings;
  try {
    settings = runSettingsOf({ ...env, ...transport.env, LP_CONTRACT_TARGET: target });
  } catch (error) {
    const { optionOf } = transport;
    usageError(
      CLI,
      (error as Error).message.replace(/^LP_CONTRACT_\w+/, (name) => (optionOf.has(name) ? `--${optionOf.get(name)} (or ${name})` : name)),
    );
  }
  const runs = values.runs === undefined ? settings.runs : integerOption(CLI, 'runs', values.runs, 1, 10_000);
  const rawCoverage = values['min-coverage'] ?? readVariable('LP_MIN_COVERAGE', env);
  const minCoverage = rawCoverage === undefined ? undefined : Number(rawCoverage);
  if (minCoverage !== undefined && !(rawCoverage!.trim() !== '' && minCoverage >= 0 && minCoverage <= 1)) {
    usageError(CLI, `--min-coverage (or LP_MIN_COVERAGE) must be a ratio from 0 to 1, got "${rawCoverage}"`);
  }
  const baselineDir = values.baseline ?? readVariable('LP_CONTRACT_BASELINE', env);
  return {
    settings: {
      ...settings,
      outputDir: values.out === undefined ? settings.outputDir : resolve(repoRoot, values.out),
      strictAssumptions: values['strict-assumptions'] === true || strictByDefault(target, env),
      runs,
      verbose: values.verbose === true || settings.verbose,
    },
    workersNamed: transport.env.LP_CONTRACT_WORKERS !== undefined || readVariable('LP_CONTRACT_WORKERS', env) !== undefined,
    baselineDir: baselineDir === undefined || baselineDir === '' ? undefined : resolve(process.cwd(), baselineDir),
    failOnSkip: values['fail-on-skip'] === true || flagVariable('LP_FAIL_ON_SKIP', env),
    minCoverage,
  };
}

function options() {
  const { values, positionals } = parseCommandLine(CLI);
  let target: TargetName;
  try {
    target = parseTargetName(values.target ?? 'mock', '--target');
  } catch (error) {
    usageError(CLI, (error as Error).message);
  }
  if (values.mutation && target !== 'sandbox') usageError(CLI, '--mutation needs --target sandbox');
  const unknown = unknownVitestOptions(positionals);
  if (unknown.length)
    usageError(CLI, `vitest does not know the option${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (given after --)`);
  return {
    ...settingsOf(values, target),
    mutation: values.mutation,
    vitestArgs: positionals,
    workflows: target === 'live' && values['no-workflows'] !== true,
  };
}

/** The exit code of a run that could not judge (report/verdict-line.ts's EXIT_CODES.couldNotJudge), known before it loads. */
const COULD_NOT_JUDGE = 2;

async function main(): Promise<number> {
  const opts = options();
  // Loaded after the options: it reads the bundles (built on demand), which --help and a bad option never need.
  const { runContract } = await import('../contract-tests/runner/contract-run.ts');
  return runContract(opts);
}

process.exitCode = await main().catch((error: unknown) => {
  // The suite's own failure (a server that would not start, a broken install): nobody's verdict on the target.
  console.error(`contract: could not judge: ${(error as Error).message}`);
  return COULD_NOT_JUDGE;
});
