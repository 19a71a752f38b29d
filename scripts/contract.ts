// Runs the contract suite against one target: `mock` (starts Prism unless LP_BASE_URL points at a running one),
// `sandbox` (starts the sandbox), or `live` (LP_* variables, also read from .env). Exits non-zero on any contract
// violation; contradicted assumptions of the specs are listed at the end and fail the run only when strict (the mock
// and the sandbox always are). Ends with one verdict line.
import { resolve } from 'node:path';
import { repoRoot } from '../spec-core/apis.ts';
import { runSuite, strictByDefault } from '../contract-tests/runner/run-suite.ts';
import { verdictOfRun } from '../contract-tests/runner/verdict.ts';
import { integerOption, parseCommandLine, usageError } from '../tools/cli.ts';
import { flagVariable, loadDotenv, parseTargetName, readVariable, type TargetName } from '../tools/environment.ts';
import { resolveTarget, TARGET_CLI_OPTIONS, type ResolvedTarget } from '../tools/targets.ts';

const CLI = {
  command: 'npm run contract --',
  summary:
    'Runs the contract suite against a target. Exits 1 on any contract violation; contradicted assumptions of the specs are listed at the end and fail the run only when strict (the mock and the sandbox always are).',
  options: {
    target: TARGET_CLI_OPTIONS.target,
    runs: { type: 'string', value: 'N', description: 'Property-based runs per operation and kind (default 5).' },
    out: { type: 'string', value: 'DIR', default: 'dist/contract', description: 'Where the reports go.' },
    mutation: TARGET_CLI_OPTIONS.mutation,
    'strict-assumptions': { type: 'boolean', description: 'Contradicted assumptions fail the run too (or LP_STRICT_ASSUMPTIONS=1).' },
    'fail-on-skip': { type: 'boolean', description: 'Fail when any check was skipped (or LP_FAIL_ON_SKIP=1).' },
    'min-coverage': {
      type: 'string',
      value: 'RATIO',
      description: 'Fail below this share (0 to 1) of exercised coverage rows (or LP_MIN_COVERAGE).',
    },
  },
  positionals: '[-- vitest args]',
} as const;

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
  return {
    target,
    runs,
    out: resolve(repoRoot, values.out ?? 'dist/contract'),
    mutation: values.mutation,
    vitestArgs: positionals,
    strict: values['strict-assumptions'] === true || strictByDefault(target),
    failOnSkip: values['fail-on-skip'] === true || flagVariable('LP_FAIL_ON_SKIP'),
    minCoverage,
  };
}

async function main(): Promise<number> {
  const opts = options();
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
      // Live settings are the user's to fix: one line, exit 2.
      console.error(`contract: ${(error as Error).message}`);
      return 2;
    }
    const env: Record<string, string | undefined> = opts.target === 'live' ? {} : server.env;
    if (opts.target === 'mock') console.log(`contract: ${server.source}`);
    console.log(
      `contract: target ${opts.target}${opts.mutation ? ` (mutation ${opts.mutation})` : ''}, ${opts.strict ? 'strict: contradicted assumptions fail the run' : 'contradicted assumptions are reported, not failed (--strict-assumptions to fail them)'}`,
    );
    const run = await runSuite({
      target: opts.target,
      env,
      outputDir: opts.out,
      runs: opts.runs,
      echo: true,
      vitestArgs: opts.vitestArgs,
      strict: opts.strict,
    });
    const verdict = verdictOfRun(run, opts.out, { failOnSkip: opts.failOnSkip, minCoverage: opts.minCoverage });
    if (verdict.contradictions) console.log(`\n${verdict.contradictions}`);
    console.log(
      `contract: target ${opts.target} took ${run.seconds.toFixed(1)} s wall time; reports in ${opts.out} (assumptions.md, coverage.md, junit.xml)`,
    );
    console.log(verdict.line);
    return verdict.exitCode;
  } finally {
    await stopServer();
  }
}

process.exitCode = await main().catch((error: unknown) => {
  console.error(`contract: ${(error as Error).message}`);
  return 1;
});
