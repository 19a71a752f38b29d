// Proof that the contract suite can fail: runs the live suite against the sandbox once per seeded contract violation
// (`sandbox/main.ts --mutation ID`), a couple at a time, and prints which violations were caught. Every one must be.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from './apis.ts';
import { runSuite, type SuiteRun } from '../contract-tests/runner/run-suite.ts';
import { startSandbox } from '../contract-tests/runner/target-server.ts';

interface Mutation {
  id: string;
  operation: string;
  description: string;
}

const MIN_MUTATIONS = 20;

function options() {
  try {
    const { values } = parseArgs({ options: { only: { type: 'string' }, concurrency: { type: 'string', default: '2' } } });
    const concurrency = Number(values.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 8) throw new Error(`--concurrency must be 1..8, got "${values.concurrency}"`);
    return { only: values.only?.split(',').filter(Boolean), concurrency };
  } catch (error) {
    console.error(`contract:mutation: ${(error as Error).message}\nusage: tsx scripts/contract-mutation.ts [--only ID,ID] [--concurrency N]`);
    process.exit(2);
  }
}

function listMutations(): Mutation[] {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'sandbox/main.ts', '--list-mutations'], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(`sandbox --list-mutations failed (${result.status}): ${result.stderr.slice(-1000)}`);
  const parsed = JSON.parse(result.stdout) as Mutation[];
  if (!Array.isArray(parsed) || parsed.some((m) => typeof m.id !== 'string')) throw new Error('sandbox --list-mutations did not print an array of {id, operation, description}');
  return parsed;
}

/** Names of the failed tests, read from the run's JUnit file. */
function failedTests(outputDir: string): string[] {
  try {
    const xml = readFileSync(join(outputDir, 'junit.xml'), 'utf8');
    return [...xml.matchAll(/<testcase[^>]*name="([^"]*)"[^>]*>\s*<failure/g)].map((m) => m[1]!.replace(/&quot;/g, '"').replace(/&gt;/g, '>').replace(/&amp;/g, '&'));
  } catch {
    return [];
  }
}

async function runAgainstSandbox(label: string, mutation?: string): Promise<SuiteRun & { failures: string[] }> {
  const outputDir = join(repoRoot, 'dist/contract/mutations', label);
  rmSync(outputDir, { recursive: true, force: true });
  const sandbox = await startSandbox({ mutation });
  try {
    // Target "sandbox": the live suite plus the one capability a real environment lacks (moving the clock for expiry checks).
    const run = await runSuite({ target: 'sandbox', env: sandbox.env, outputDir, vitestArgs: ['--exclude', 'contract-tests/self/**'] });
    return { ...run, failures: failedTests(outputDir) };
  } finally {
    await sandbox.stop();
  }
}

async function main(): Promise<number> {
  const opts = options();
  const started = performance.now();
  let mutations = listMutations();
  if (opts.only) mutations = mutations.filter((m) => opts.only!.includes(m.id));

  // A suite that fails against the unmutated sandbox would "catch" everything; check that first.
  const baseline = await runAgainstSandbox('baseline');
  if (baseline.exitCode !== 0) {
    console.error(`contract:mutation: the suite fails against the unmutated sandbox, so no mutation result means anything:\n${baseline.failures.join('\n')}\n${baseline.output.slice(-3000)}`);
    return 1;
  }
  console.log(`baseline (no mutation): ${baseline.passed} passed, ${baseline.skipped} skipped, ${baseline.seconds.toFixed(1)} s`);

  const results: Array<{ mutation: Mutation; caught: boolean; failures: string[]; seconds: number; error?: string }> = [];
  const queue = [...mutations];
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      for (let mutation = queue.shift(); mutation; mutation = queue.shift()) {
        try {
          const run = await runAgainstSandbox(mutation.id, mutation.id);
          results.push({ mutation, caught: run.exitCode !== 0, failures: run.failures, seconds: run.seconds });
        } catch (error) {
          results.push({ mutation, caught: false, failures: [], seconds: 0, error: (error as Error).message.split('\n')[0] });
        }
        const last = results.at(-1)!;
        console.log(`${last.caught ? 'caught  ' : 'MISSED  '} ${mutation.id.padEnd(40)} ${last.error ?? last.failures[0] ?? '(no failing test)'}`);
      }
    }),
  );

  const caught = results.filter((r) => r.caught);
  const missed = results.filter((r) => !r.caught);
  console.log(`\ncontract:mutation: ${caught.length} of ${results.length} seeded contract violations caught in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  for (const r of missed) console.log(`  missed: ${r.mutation.id} (${r.mutation.operation}): ${r.mutation.description}${r.error ? ` [${r.error}]` : ''}`);
  if (!opts.only && results.length < MIN_MUTATIONS) {
    console.error(`contract:mutation: only ${results.length} mutations; at least ${MIN_MUTATIONS} are needed`);
    return 1;
  }
  return missed.length === 0 ? 0 : 1;
}

process.exitCode = await main().catch((error: unknown) => {
  console.error(`contract:mutation: ${(error as Error).message}`);
  return 1;
});
