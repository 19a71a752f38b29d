// Runs the contract suite against one target: `mock` (starts Prism unless LP_BASE_URL points at a running one),
// `sandbox` (starts the sandbox), or `live` (LP_* variables, also read from .env). Exits non-zero on any contract
// violation; contradicted assumptions of the specs are listed at the end and fail the run only when strict (the mock
// and the sandbox always are). Ends with one verdict line.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../spec-core/apis.ts';
import { runSuite, strictByDefault } from '../contract-tests/runner/run-suite.ts';
import { verdictOfRun } from '../contract-tests/runner/verdict.ts';
import { MOCK_CREDENTIALS, startMock, startSandbox, type RunningServer } from '../contract-tests/runner/target-server.ts';
import { TARGET_NAMES, type TargetName } from '../contract-tests/support/target.ts';

const usage =
  'usage: tsx scripts/contract.ts [--target mock|sandbox|live] [--runs N] [--out DIR] [--mutation ID] [--strict-assumptions] [--fail-on-skip] [--min-coverage RATIO] [-- vitest args]';

function options() {
  try {
    const { values, positionals } = parseArgs({
      options: {
        target: { type: 'string', default: 'mock' },
        runs: { type: 'string' },
        out: { type: 'string', default: join(repoRoot, 'dist/contract') },
        mutation: { type: 'string' },
        'strict-assumptions': { type: 'boolean' },
        'fail-on-skip': { type: 'boolean' },
        'min-coverage': { type: 'string' },
      },
      allowPositionals: true,
    });
    if (!(TARGET_NAMES as readonly string[]).includes(values.target)) throw new Error(`--target must be one of ${TARGET_NAMES.join(', ')}, got "${values.target}"`);
    const runs = values.runs === undefined ? undefined : Number(values.runs);
    if (runs !== undefined && !(Number.isInteger(runs) && runs > 0)) throw new Error(`--runs must be a positive integer, got "${values.runs}"`);
    if (values.mutation && values.target !== 'sandbox') throw new Error('--mutation needs --target sandbox');
    // Real environments are configured by LP_* variables; a .env file fills in what the environment lacks (the CI
    // settings LP_STRICT_ASSUMPTIONS, LP_FAIL_ON_SKIP and LP_MIN_COVERAGE included, so it is read before them).
    const dotenv = join(repoRoot, '.env');
    if (values.target === 'live' && existsSync(dotenv)) process.loadEnvFile(dotenv);
    const rawCoverage = values['min-coverage'] ?? (process.env.LP_MIN_COVERAGE?.trim() || undefined);
    const minCoverage = rawCoverage === undefined ? undefined : Number(rawCoverage);
    if (minCoverage !== undefined && !(rawCoverage!.trim() !== '' && minCoverage >= 0 && minCoverage <= 1)) {
      throw new Error(`--min-coverage (or LP_MIN_COVERAGE) must be a ratio from 0 to 1, got "${rawCoverage}"`);
    }
    const target = values.target as TargetName;
    return {
      target,
      runs,
      out: values.out,
      mutation: values.mutation,
      vitestArgs: positionals,
      strict: values['strict-assumptions'] === true || strictByDefault(target),
      failOnSkip: values['fail-on-skip'] === true || process.env.LP_FAIL_ON_SKIP === '1',
      minCoverage,
    };
  } catch (error) {
    console.error(`contract: ${(error as Error).message}\n${usage}`);
    process.exit(2);
  }
}

/** Is something answering at this URL (any HTTP status counts)? */
async function answers(url: string | undefined): Promise<boolean> {
  if (!url) return false;
  try {
    await fetch(url, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<number> {
  const opts = options();
  let server: RunningServer | undefined;
  const stopServer = async () => {
    const running = server;
    server = undefined;
    await running?.stop();
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stopServer().then(() => process.exit(130)));

  let env: Record<string, string | undefined>;
  try {
    if (opts.target === 'live') {
      // A run with no address at all would skip every check and pass: refuse it instead.
      if (!['LP_BASE_URL', 'LP_AUTH_URL', 'LP_FLEET_BASE_URL'].some((name) => process.env[name]?.trim())) {
        console.error('contract: --target live needs at least one of LP_BASE_URL, LP_AUTH_URL, LP_FLEET_BASE_URL (in the environment or .env; see .env.example)');
        return 2;
      }
      env = {};
    } else if (opts.target === 'mock' && (await answers(process.env.LP_BASE_URL))) {
      console.log(`contract: using the mock already running at ${process.env.LP_BASE_URL}`);
      env = { ...MOCK_CREDENTIALS, LP_AUTH_URL: process.env.LP_BASE_URL, LP_FLEET_BASE_URL: process.env.LP_BASE_URL };
    } else {
      server = opts.target === 'mock' ? await startMock() : await startSandbox({ mutation: opts.mutation });
      env = server.env;
    }
    console.log(`contract: target ${opts.target}${opts.mutation ? ` (mutation ${opts.mutation})` : ''}, ${opts.strict ? 'strict: contradicted assumptions fail the run' : 'contradicted assumptions are reported, not failed (--strict-assumptions to fail them)'}`);
    const run = await runSuite({ target: opts.target, env, outputDir: opts.out, runs: opts.runs, echo: true, vitestArgs: opts.vitestArgs, strict: opts.strict });
    const verdict = verdictOfRun(run, opts.out, { failOnSkip: opts.failOnSkip, minCoverage: opts.minCoverage });
    if (verdict.contradictions) console.log(`\n${verdict.contradictions}`);
    console.log(`contract: target ${opts.target} took ${run.seconds.toFixed(1)} s wall time; reports in ${opts.out} (assumptions.md, coverage.md, junit.xml)`);
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
