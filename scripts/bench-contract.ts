// Benchmark, not a test: wall time of the contract suite per target (mock, sandbox), and dredd against the same
// sandbox in the same run, with checks per second of each. Goal: the whole suite under 30 s against the sandbox.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../spec-core/apis.ts';
import type { SuiteRun } from '../contract-tests/runner/run-suite.ts';
import { startMock, startSandbox, type TargetServer } from '../tools/targets.ts';
import type { TargetName } from '../contract-tests/send/target.ts';
import { parseCommandLine } from '../config/cli.ts';

const SANDBOX_GOAL_SECONDS = 30;

interface Row {
  tool: string;
  target: string;
  seconds: number;
  checks: number;
  responses?: number;
  failed: number;
}

async function withServer<T>(start: () => Promise<TargetServer>, body: (server: TargetServer) => Promise<T>): Promise<T> {
  const started = performance.now();
  const server = await start();
  console.log(`  (server up in ${((performance.now() - started) / 1000).toFixed(1)} s, not counted)`);
  try {
    return await body(server);
  } finally {
    await server.stop();
  }
}

/**
 * The suite's and dredd's runners, loaded after the options: their modules read the bundles as they load (building them
 * in a fresh clone), which --help need not wait for.
 */
const runners = async () => {
  const [{ dreddAgainst }, { runSuite }, { readLedger }] = await Promise.all([
    import('../contract-tests/dredd/run-dredd.ts'),
    import('../contract-tests/runner/run-suite.ts'),
    import('../contract-tests/report/ledger.ts'),
  ]);
  return { dreddAgainst, runSuite, readLedger };
};

async function suite(target: TargetName, server: TargetServer): Promise<Row> {
  const { runSuite, readLedger } = await runners();
  const outputDir = join(repoRoot, 'dist/contract/bench', target);
  rmSync(outputDir, { recursive: true, force: true });
  const run: SuiteRun = await runSuite({ target, env: server.env, outputDir, vitestArgs: ['--exclude', 'contract-tests/self/**'] });
  const responses = readLedger(join(outputDir, '.ledger')).filter((e) => e.kind === 'exchange').length;
  return { tool: 'vitest suite', target, seconds: run.seconds, checks: run.passed + run.failed, responses, failed: run.failed };
}

const CLI = {
  command: 'npm run bench:contract --',
  summary:
    'Benchmark, not a test: wall time of the contract suite against the mock and the sandbox, and of dredd against the same sandbox, with checks per second of each.',
  options: {},
} as const;

async function main(): Promise<number> {
  parseCommandLine(CLI);
  const rows: Row[] = [];
  console.log('mock:');
  rows.push(await withServer(startMock, (server) => suite('mock', server)));
  console.log('sandbox (suite and dredd against the same sandbox):');
  await withServer(
    () => startSandbox(),
    async (server) => {
      rows.push(await suite('sandbox', server));
      const { dreddAgainst } = await runners();
      const started = performance.now();
      const { results } = await dreddAgainst('sandbox', server.env);
      const ran = results.reduce((n, r) => n + r.passing + r.failing, 0);
      const failed = results.reduce((n, r) => n + r.failing + r.errors, 0);
      rows.push({ tool: 'dredd (via prism proxy)', target: 'sandbox', seconds: (performance.now() - started) / 1000, checks: ran, failed });
    },
  );

  console.log('\n| Tool | Target | Wall time | Checks run | Responses validated | Checks/s | Failed |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.tool} | ${r.target} | ${r.seconds.toFixed(1)} s | ${r.checks} | ${r.responses ?? r.checks} | ${(r.checks / r.seconds).toFixed(1)} | ${r.failed} |`,
    );
  }
  const sandboxSuite = rows.find((r) => r.tool === 'vitest suite' && r.target === 'sandbox')!;
  const dredd = rows.find((r) => r.tool.startsWith('dredd'))!;
  console.log(
    `\nsandbox suite: ${sandboxSuite.seconds.toFixed(1)} s (goal < ${SANDBOX_GOAL_SECONDS} s: ${sandboxSuite.seconds < SANDBOX_GOAL_SECONDS ? 'met' : 'NOT met'})`,
  );
  console.log(
    `checks per second, suite / dredd on the same sandbox: ${(sandboxSuite.checks / sandboxSuite.seconds / (dredd.checks / dredd.seconds)).toFixed(2)}x`,
  );
  console.log(
    `responses validated per second, suite / dredd: ${((sandboxSuite.responses ?? 0) / sandboxSuite.seconds / (dredd.checks / dredd.seconds)).toFixed(2)}x`,
  );
  return rows.some((r) => r.failed) ? 1 : 0;
}

process.exitCode = await main().catch((error: unknown) => {
  console.error(`bench:contract: ${(error as Error).message}`);
  return 1;
});
