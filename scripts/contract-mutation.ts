// Proof that the contract suite can fail: runs the live suite (strict about assumptions) against the sandbox once per
// seeded contract violation (`sandbox/mutations.ts`) and prints which were caught. Every one must be.
//
// What keeps it fast without weakening the proof:
// - one sandbox process per lane, started with --mutations-switchable: between runs it is switched to the next
//   mutation, which rebuilds it with fresh state, instead of starting a process per mutant;
// - the unmutated baseline runs the whole suite first (it must pass) and its ledger tells which test files exercise
//   which operation; a mutant first runs only the files that exercise its operation, and the whole suite when those
//   miss it. A targeted run only counts once the same set of files has passed against the unmutated sandbox on its
//   own, so a file that depends on another one cannot fake a catch;
// - a run stops at its first failing test (--bail=1): one failure is the whole verdict.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../spec-core/apis.ts';
import { runSuite, type SuiteRun } from '../contract-tests/runner/run-suite.ts';
import { startSandbox, type RunningServer } from '../contract-tests/runner/target-server.ts';
import { MUTATIONS } from '../sandbox/mutations.ts';

type Mutation = (typeof MUTATIONS)[number];

const MIN_MUTATIONS = 20;
const OUTPUT_ROOT = join(repoRoot, 'dist/contract/mutations');
/** The mock and the sandbox implement every x-assumption of the specs, so a contradicted one is a failure here too. */
const STRICT_ENV = { LP_STRICT_ASSUMPTIONS: '1' };
/**
 * The suite's own self-checks do not talk to the target. The file-system module cache lets the many runs of the same
 * files reuse their transforms instead of redoing them each time.
 */
const SUITE_ARGS = ['--exclude', 'contract-tests/self/**', '--experimental.fsModuleCache'];
const SWITCH_TIMEOUT_MS = 15_000;

function options() {
  try {
    const { values } = parseArgs({
      options: { only: { type: 'string' }, concurrency: { type: 'string', default: '2' }, 'full-suite': { type: 'boolean', default: false } },
    });
    const concurrency = Number(values.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 8) throw new Error(`--concurrency must be 1..8, got "${values.concurrency}"`);
    const only = values.only?.split(',').filter(Boolean);
    const unknown = only?.filter((id) => !MUTATIONS.some((m) => m.id === id)) ?? [];
    if (unknown.length) throw new Error(`unknown mutation id(s) for --only: ${unknown.join(', ')}`);
    return { only, concurrency, fullSuite: values['full-suite'] };
  } catch (error) {
    console.error(`contract:mutation: ${(error as Error).message}\nusage: tsx scripts/contract-mutation.ts [--only ID,ID] [--concurrency N] [--full-suite]`);
    process.exit(2);
  }
}

const unescapeXml = (text: string) =>
  text.replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&gt;/g, '>').replace(/&lt;/g, '<').replace(/&amp;/g, '&');

/** The test cases of a run's JUnit file: file, full name and whether it failed. */
function testCases(outputDir: string): Array<{ file: string; name: string; failed: boolean }> {
  let xml: string;
  try {
    xml = readFileSync(join(outputDir, 'junit.xml'), 'utf8');
  } catch {
    return [];
  }
  return [...xml.matchAll(/<testcase\s+classname="([^"]*)"\s+name="([^"]*)"[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g)].map((m) => ({
    file: unescapeXml(m[1]!),
    name: unescapeXml(m[2]!),
    failed: /<failure/.test(m[4] ?? ''),
  }));
}

/**
 * Which test files exercise which operation or security scheme, read from a run's ledger (the suite records every
 * exchange with its operation, scheme and test) and JUnit file (test -> file). Exchanges made outside a test cannot
 * be placed; the fallback to the whole suite covers what this map misses.
 *
 * Files that exercise every operation (the property-based requests) are left out: they are the slowest, they run
 * anyway when a mutant falls back to the whole suite, and without them a targeted run is a file or two.
 */
function targetedFiles(outputDir: string): Map<string, Set<string>> {
  const fileOfTest = new Map<string, Set<string>>();
  for (const { file, name } of testCases(outputDir)) fileOfTest.set(name, (fileOfTest.get(name) ?? new Set()).add(file));
  const map = new Map<string, Set<string>>();
  const operationsOfFile = new Map<string, Set<string>>();
  const operations = new Set<string>();
  const ledgerDir = join(outputDir, '.ledger');
  if (!existsSync(ledgerDir)) return map;
  for (const name of readdirSync(ledgerDir)) {
    for (const line of readFileSync(join(ledgerDir, name), 'utf8').split('\n')) {
      let entry: { kind?: unknown; operationId?: unknown; scheme?: unknown; test?: unknown };
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        continue;
      }
      if (entry.kind !== 'exchange' || typeof entry.operationId !== 'string' || typeof entry.test !== 'string') continue;
      const files = fileOfTest.get(entry.test);
      if (!files) continue;
      const keys = [entry.operationId, ...(typeof entry.scheme === 'string' ? entry.scheme.split('+') : [])];
      operations.add(entry.operationId);
      for (const file of files) {
        operationsOfFile.set(file, (operationsOfFile.get(file) ?? new Set()).add(entry.operationId));
        for (const key of keys) map.set(key, (map.get(key) ?? new Set()).add(file));
      }
    }
  }
  const broad = [...operationsOfFile].filter(([, exercised]) => exercised.size === operations.size).map(([file]) => file);
  if (broad.length < operationsOfFile.size) for (const files of map.values()) for (const file of broad) files.delete(file);
  return map;
}

/** One sandbox process that the runs of one lane share; switched to each lane's next mutation. */
class Lane {
  private constructor(private readonly server: RunningServer) {}

  static async start(): Promise<Lane> {
    return new Lane(await startSandbox({ switchable: true }));
  }

  get env(): Record<string, string> {
    return { ...this.server.env, ...STRICT_ENV };
  }

  /** Switches the sandbox to `mutation` (null: the correct sandbox). Every switch starts from fresh state. */
  async switchTo(mutation: string | null): Promise<void> {
    const origin = new URL(this.server.env.LP_BASE_URL!).origin;
    const response = await fetch(`${origin}/_sandbox/mutation`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mutation }),
      signal: AbortSignal.timeout(SWITCH_TIMEOUT_MS),
    });
    if (response.status !== 200) throw new Error(`switching the sandbox to ${mutation ?? 'no mutation'} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  }

  /** Runs the suite (or only `files`) against the sandbox switched to `mutation`, with fresh sandbox state. */
  async run(label: string, mutation: string | null, { files = [], bail = false }: { files?: string[]; bail?: boolean } = {}): Promise<SuiteRun & { failures: string[] }> {
    // Every run switches first, even to the same mutation: the switch is what gives it fresh sandbox state.
    await this.switchTo(mutation);
    const outputDir = join(OUTPUT_ROOT, label);
    rmSync(outputDir, { recursive: true, force: true });
    // Target "sandbox": the live suite plus the one capability a real environment lacks (moving the clock for expiry checks).
    const vitestArgs = [...SUITE_ARGS, ...(bail ? ['--bail=1'] : []), ...files];
    const run = await runSuite({ target: 'sandbox', env: this.env, outputDir, vitestArgs });
    return { ...run, failures: testCases(outputDir).filter((c) => c.failed).map((c) => c.name) };
  }

  stop(): Promise<void> {
    return this.server.stop();
  }
}

type Result = { mutation: Mutation; caught: boolean; failures: string[]; how: string; error?: string };

async function main(): Promise<number> {
  const opts = options();
  const started = performance.now();
  const mutations = opts.only ? MUTATIONS.filter((m) => opts.only!.includes(m.id)) : [...MUTATIONS];
  const laneCount = Math.min(opts.concurrency, Math.max(1, mutations.length));
  const lanes = await Promise.all(Array.from({ length: laneCount }, () => Lane.start()));
  try {
    // A suite that fails against the unmutated sandbox would "catch" everything; check that first.
    const baseline = await lanes[0]!.run('baseline', null);
    if (baseline.exitCode !== 0) {
      console.error(`contract:mutation: the suite fails against the unmutated sandbox, so no mutation result means anything:\n${baseline.failures.join('\n')}\n${baseline.output.slice(-3000)}`);
      return 1;
    }
    console.log(`baseline (no mutation, strict): ${baseline.passed} passed, ${baseline.skipped} skipped, ${baseline.seconds.toFixed(1)} s`);
    const allFiles = [...new Set(testCases(join(OUTPUT_ROOT, 'baseline')).map((c) => c.file))].sort();
    const byOperation = opts.fullSuite ? new Map<string, Set<string>>() : targetedFiles(join(OUTPUT_ROOT, 'baseline'));
    if (!opts.fullSuite && byOperation.size === 0) console.log('contract:mutation: the baseline ledger names no operation; every mutant runs the whole suite');

    // Each distinct set of targeted files passes against the unmutated sandbox once before its failures count.
    const verified = new Map<string, Promise<boolean>>();
    const verify = (lane: Lane, files: string[]): Promise<boolean> => {
      const key = files.join(' ');
      let check = verified.get(key);
      if (!check) {
        check = lane.run(`baseline-subset-${verified.size + 1}`, null, { files }).then((run) => {
          if (run.exitCode !== 0) console.log(`note: ${files.join(', ')} fail(s) on their own against the unmutated sandbox; their mutants run the whole suite\n${run.failures.slice(0, 3).join('\n')}`);
          return run.exitCode === 0;
        });
        verified.set(key, check);
      }
      return check;
    };

    const evaluate = async (lane: Lane, mutation: Mutation): Promise<Result> => {
      const files = [...(byOperation.get(mutation.operation) ?? [])].sort();
      const targeted = files.length > 0 && files.length < allFiles.length;
      if (targeted && (await verify(lane, files))) {
        const run = await lane.run(mutation.id, mutation.id, { files, bail: true });
        if (run.exitCode !== 0) return { mutation, caught: true, failures: run.failures, how: `${files.length} of ${allFiles.length} files` };
      }
      const run = await lane.run(mutation.id, mutation.id, { bail: true });
      return { mutation, caught: run.exitCode !== 0, failures: run.failures, how: targeted ? 'whole suite, after the targeted files missed' : 'whole suite' };
    };

    const results: Result[] = [];
    const queue = [...mutations];
    await Promise.all(
      lanes.map(async (lane) => {
        for (let mutation = queue.shift(); mutation; mutation = queue.shift()) {
          const begin = performance.now();
          try {
            results.push(await evaluate(lane, mutation));
          } catch (error) {
            results.push({ mutation, caught: false, failures: [], how: 'error', error: (error as Error).message.split('\n')[0] });
          }
          const last = results.at(-1)!;
          const seconds = ((performance.now() - begin) / 1000).toFixed(1);
          console.log(`${last.caught ? 'caught  ' : 'MISSED  '} ${mutation.id.padEnd(40)} [${last.how}, ${seconds} s] ${last.error ?? last.failures[0] ?? '(no failing test)'}`);
        }
      }),
    );

    const caught = results.filter((r) => r.caught);
    const missed = results.filter((r) => !r.caught);
    const viaTargeted = caught.filter((r) => r.how.endsWith(' files')).length;
    console.log(
      `\ncontract:mutation: ${caught.length} of ${results.length} seeded contract violations caught (strict; ${viaTargeted} by the targeted files, ` +
        `${caught.length - viaTargeted} by the whole suite) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    for (const r of missed) console.log(`  missed: ${r.mutation.id} (${r.mutation.operation}): ${r.mutation.description}${r.error ? ` [${r.error}]` : ''}`);
    if (!opts.only && results.length < MIN_MUTATIONS) {
      console.error(`contract:mutation: only ${results.length} mutations; at least ${MIN_MUTATIONS} are needed`);
      return 1;
    }
    return missed.length === 0 ? 0 : 1;
  } finally {
    await Promise.all(lanes.map((lane) => lane.stop()));
  }
}

process.exitCode = await main().catch((error: unknown) => {
  console.error(`contract:mutation: ${(error as Error).message}`);
  return 1;
});
