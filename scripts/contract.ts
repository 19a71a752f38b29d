// Runs the contract suite against one target: `mock` (starts Prism unless LP_BASE_URL points at a running one),
// `sandbox` (starts the sandbox), or `live` (LP_* variables, also read from .env). Exits non-zero on any contract
// violation; contradicted assumptions of the specs are listed at the end and fail the run only when strict (the mock
// and the sandbox always are). Ends with one verdict line.
import { join, resolve } from 'node:path';
import { repoRoot } from '../spec-core/apis.ts';
import { strictByDefault } from '../contract-tests/runner/run-suite.ts';
import { Redactor } from '../contract-tests/support/redact.ts';
import { SECRET_VARIABLES } from '../contract-tests/support/target.ts';
import { readTransportSettings, type TransportSettings } from '../contract-tests/support/transport.ts';
import { integerOption, parseCommandLine, usageError } from '../config/cli.ts';
import { flagVariable, loadDotenv, parseTargetName, readVariable, type TargetName } from '../config/environment.ts';
import { resolveTarget, TARGET_CLI_OPTIONS, type ResolvedTarget } from '../tools/targets.ts';

const CLI = {
  command: 'npm run contract --',
  summary:
    'Runs the contract suite against a target. Exits 1 on any contract violation; contradicted assumptions of the specs are listed at the end and fail the run only when strict (the mock and the sandbox always are).',
  options: {
    target: TARGET_CLI_OPTIONS.target,
    runs: { type: 'string', value: 'N', description: 'Property-based runs per operation and kind (default 5).' },
    out: { type: 'string', value: 'DIR', default: 'dist/contract', description: 'Where the reports go (or LP_CONTRACT_OUT).' },
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
    concurrency: {
      type: 'string',
      value: 'N',
      description: 'Requests in flight at most, all workers together (or LP_CONTRACT_CONCURRENCY; default 128; below it they adapt).',
    },
    workers: {
      type: 'string',
      value: 'N',
      description:
        "Live runs: test files run side by side (or LP_CONTRACT_WORKERS; default from the preflight's round trip, 3 to 8). The mock and sandbox run one at a time.",
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

/** The transport options as the LP_CONTRACT_* variables the suite's workers read (an option wins over the variable). */
function transportOptions(values: Record<string, string | boolean | undefined>): {
  env: Record<string, string>;
  settings: TransportSettings;
} {
  const env: Record<string, string> = {};
  const set = (option: string, variable: string) => {
    const value = values[option];
    if (typeof value === 'string') env[variable] = value;
  };
  set('rate-limit', 'LP_CONTRACT_RATE_LIMIT');
  set('concurrency', 'LP_CONTRACT_CONCURRENCY');
  set('workers', 'LP_CONTRACT_WORKERS');
  set('timeout', 'LP_CONTRACT_TIMEOUT_MS');
  set('tries', 'LP_CONTRACT_TRIES');
  set('max-wait', 'LP_CONTRACT_MAX_WAIT_S');
  try {
    return { env, settings: readTransportSettings({ ...process.env, ...env }) };
  } catch (error) {
    usageError(
      CLI,
      (error as Error).message.replace(/^LP_CONTRACT_(\w+)/, (name) => `${name} (or its option)`),
    );
  }
}

function options() {
  const { values, positionals } = parseCommandLine(CLI);
  let target: TargetName;
  try {
    target = parseTargetName(values.target ?? 'mock', '--target');
  } catch (error) {
    usageError(CLI, (error as Error).message);
  }
  const runs = values.runs === undefined ? undefined : integerOption(CLI, 'runs', values.runs, 1, 10_000);
  if (values.mutation && target !== 'sandbox') usageError(CLI, '--mutation needs --target sandbox');
  // Real environments are configured by LP_* variables; a .env file fills in what the environment lacks (the CI
  // settings LP_STRICT_ASSUMPTIONS, LP_FAIL_ON_SKIP and LP_MIN_COVERAGE included, so it is read before them).
  if (target === 'live') loadDotenv();
  const rawCoverage = values['min-coverage'] ?? readVariable('LP_MIN_COVERAGE');
  const minCoverage = rawCoverage === undefined ? undefined : Number(rawCoverage);
  if (minCoverage !== undefined && !(rawCoverage!.trim() !== '' && minCoverage >= 0 && minCoverage <= 1)) {
    usageError(CLI, `--min-coverage (or LP_MIN_COVERAGE) must be a ratio from 0 to 1, got "${rawCoverage}"`);
  }
  const baselineDir = values.baseline ?? readVariable('LP_CONTRACT_BASELINE');
  return {
    baselineDir: baselineDir === undefined || baselineDir === '' ? undefined : resolve(process.cwd(), baselineDir),
    verbose: values.verbose === true || flagVariable('LP_CONTRACT_VERBOSE'),
    transport: transportOptions(values),
    target,
    runs,
    out: resolve(repoRoot, values.out ?? readVariable('LP_CONTRACT_OUT') ?? 'dist/contract'),
    mutation: values.mutation,
    vitestArgs: positionals,
    strict: values['strict-assumptions'] === true || strictByDefault(target),
    failOnSkip: values['fail-on-skip'] === true || flagVariable('LP_FAIL_ON_SKIP'),
    minCoverage,
  };
}

/** The exit code of a run that could not judge (runner/verdict.ts's EXIT_CODES.couldNotJudge), known before it loads. */
const COULD_NOT_JUDGE = 2;

async function main(): Promise<number> {
  const opts = options();
  // Loaded after the options: they read the bundles (built on demand), which --help and a bad option never need.
  const [
    { runSuite },
    { preflight },
    { EXIT_CODES, verdictOfRun },
    { Transport },
    { githubReport, reportToGithub },
    { buildRunReport, driftText, readBaseline, retriesText, writeRunReport },
    { contradictionsText, violationsText },
    { rewriteJunit },
  ] = await Promise.all([
    import('../contract-tests/runner/run-suite.ts'),
    import('../contract-tests/runner/preflight.ts'),
    import('../contract-tests/runner/verdict.ts'),
    import('../contract-tests/support/transport.ts'),
    import('../contract-tests/runner/github.ts'),
    import('../contract-tests/runner/run-report.ts'),
    import('../contract-tests/support/reports.ts'),
    import('../contract-tests/runner/junit.ts'),
  ]);
  // Read before the run: the baseline may be the directory this run writes to.
  let baseline: { dir: string; keys: ReturnType<typeof readBaseline> } | undefined;
  if (opts.baselineDir) {
    try {
      baseline = { dir: opts.baselineDir, keys: readBaseline(opts.baselineDir) };
    } catch (error) {
      console.error(`contract: could not judge: ${(error as Error).message}`);
      return EXIT_CODES.couldNotJudge;
    }
  }
  let server: ResolvedTarget | undefined;
  const stopServer = async () => {
    const running = server;
    server = undefined;
    await running?.stop();
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stopServer().then(() => process.exit(130)));

  try {
    try {
      server = await resolveTarget(opts.target, { mutation: opts.mutation, reuseRunningMock: true });
    } catch (error) {
      if (opts.target !== 'live') throw error;
      // Live settings are the user's to fix: one line, exit 2 (could not judge).
      console.error(`contract: could not judge: ${(error as Error).message}`);
      return EXIT_CODES.couldNotJudge;
    }
    const env: Record<string, string | undefined> = opts.target === 'live' ? {} : server.env;
    if (opts.target === 'live') {
      // Does each configured API answer, and accept the partner's own credentials? If not, no check can judge it.
      const results = await preflight(server.env, new Transport({ ...opts.transport.settings, workers: 1 }), opts.transport.env);
      for (const result of results) console.log(`contract: preflight: ${result.line}`);
      if (results.some((r) => !r.ok)) {
        console.log(
          'contract verdict: COULD NOT JUDGE: the target refused the configured credentials or could not be reached (above); no check ran',
        );
        return EXIT_CODES.couldNotJudge;
      }
    }
    if (opts.target === 'mock') console.log(`contract: ${server.source}`);
    console.log(
      `contract: target ${opts.target}${opts.mutation ? ` (mutation ${opts.mutation})` : ''}, ${opts.strict ? 'strict: contradicted assumptions fail the run' : 'contradicted assumptions are reported, not failed (--strict-assumptions to fail them)'}`,
    );
    const run = await runSuite({
      target: opts.target,
      env: { ...env, ...opts.transport.env, ...(opts.verbose ? { LP_CONTRACT_VERBOSE: '1' } : {}) },
      outputDir: opts.out,
      runs: opts.runs,
      echo: true,
      vitestArgs: opts.vitestArgs,
      strict: opts.strict,
    });
    const verdict = verdictOfRun(run, opts.out, { failOnSkip: opts.failOnSkip, minCoverage: opts.minCoverage });
    const report = buildRunReport(verdict, { target: opts.target, strict: opts.strict, ...(baseline ? { baseline } : {}) });
    const secrets = new Redactor(SECRET_VARIABLES.map((name) => (opts.target === 'live' ? process.env[name] : server?.env[name])));
    const redact = (text: string) => secrets.redact(text);
    // The three outcomes apart, each in its own section, then what changed since the baseline.
    const sections = [
      violationsText(report.violations, report.drift?.violations),
      contradictionsText(verdict.contradictedRows),
      verdict.unjudgedText,
      retriesText(report),
      report.drift ? driftText(report.drift) : '',
    ];
    for (const section of sections) if (section) console.log(`\n${redact(section)}`);
    if (verdict.transport) console.log(verdict.transport);
    writeRunReport(opts.out, report, redact);
    rewriteJunit(join(opts.out, 'junit.xml'), report, verdict.violationsByCheck);
    console.log(
      `contract: target ${opts.target} took ${run.seconds.toFixed(1)} s wall time; reports in ${opts.out} (report.html, summary.md, violations.json, assumptions.md, coverage.md, junit.xml)`,
    );
    console.log(verdict.line);
    // In GitHub Actions: annotations (violations, contradicted assumptions at their spec line) and the job summary.
    reportToGithub(githubReport(report), redact);
    return verdict.exitCode;
  } finally {
    await stopServer();
  }
}

process.exitCode = await main().catch((error: unknown) => {
  // The suite's own failure (a server that would not start, a broken install): nobody's verdict on the target.
  console.error(`contract: could not judge: ${(error as Error).message}`);
  return COULD_NOT_JUDGE;
});
