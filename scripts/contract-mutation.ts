// Proof that the contract suite can fail: runs the live suite (strict about assumptions) against the sandbox once per
// injected contract violation (`sandbox/mutations.ts`) and prints which were caught. Every one must be.
//
// What keeps it fast without weakening the proof:
// - one sandbox process per lane, started with --mutations-switchable: between runs it is switched to the next
//   mutation, which rebuilds it with fresh state, instead of starting a process per mutant;
// - the unmutated baseline runs the whole suite first (it must pass) and its ledger tells which test files exercise
//   which operation; a mutant first runs only the files that exercise its operation, and the whole suite when those
//   miss it. A targeted run only counts once the same set of files has passed against the unmutated sandbox on its
//   own, so a file that depends on another one cannot fake a catch;
// - a run stops at its first failing test (bail 1): one failure is the whole verdict;
// - each lane keeps one vitest loaded (contract-tests/runner/suite-session.ts) and runs every file set of its mutants
//   through it, instead of starting vitest for each run (about 1.7 CPU-s each, some 50 times).
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../spec-core/apis.ts';
import type { SessionRun, SuiteSession } from '../contract-tests/runner/suite-session.ts';
import { startSandbox, type TargetServer } from '../tools/targets.ts';
import { MUTATIONS } from '../sandbox/mutations.ts';
import { integerOption, parseCommandLine, usageError } from '../tools/cli.ts';

const MIN_MUTATIONS = 20;
const OUTPUT_ROOT = join(repoRoot, 'dist/contract/mutations');
/** The suite's own self-checks do not talk to the target. */
const EXCLUDE = ['contract-tests/self/**'];
const SWITCH_TIMEOUT_MS = 15_000;

const CLI = {
  command: 'npm run contract:mutation --',
  summary:
    'Proves the contract suite can fail: runs it (strict about assumptions) against the sandbox switched to each injected contract violation of sandbox/mutations.ts; every one must be caught.',
  options: {
    only: { type: 'string', value: 'ID,ID', description: 'Run only these mutation ids (npm run sandbox -- --list-mutations lists them).' },
    concurrency: {
      type: 'string',
      value: 'N',
      default: '2',
      description: 'Lanes (a sandbox and a loaded suite each) running side by side, 1 to 8.',
    },
    'full-suite': {
      type: 'boolean',
      description: 'Run the whole suite for every mutant, not first the files that exercise its operation.',
    },
  },
} as const;

function options() {
  const { values } = parseCommandLine(CLI);
  const concurrency = integerOption(CLI, 'concurrency', values.concurrency ?? '2', 1, 8);
  const only = values.only?.split(',').filter(Boolean);
  const unknown = only?.filter((id) => !MUTATIONS.some((m) => m.id === id)) ?? [];
  if (unknown.length) usageError(CLI, `unknown mutation id(s) for --only: ${unknown.join(', ')}`);
  return { only, concurrency, fullSuite: values['full-suite'] === true };
}

/**
 * Which test files exercise which operation or security scheme, read from the baseline's ledger (the suite records
 * every exchange with its operation, scheme and test) and its tests (test -> file). Exchanges made outside a test
 * cannot be placed; the fallback to the whole suite covers what this map misses.
 *
 * Files that exercise every operation (the property-based requests) are left out: they are the slowest, they run
 * anyway when a mutant falls back to the whole suite, and without them a targeted run is a file or two.
 */
function targetedFiles(ledgerDir: string, fileOfTest: Map<string, Set<string>>): Map<string, Set<string>> {
  const map = new Map<string, Set<string>>();
  const operationsOfFile = new Map<string, Set<string>>();
  const operations = new Set<string>();
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

/** One sandbox process and one loaded suite that the runs of one lane share; switched to each lane's next mutation. */
class Lane {
  private constructor(
    private readonly server: TargetServer,
    private readonly session: SuiteSession,
    /** LP_CONTRACT_OUT of the lane's runs: the ledger of its latest run. */
    readonly outputDir: string,
  ) {}

  static async start(index: number): Promise<Lane> {
    const server = await startSandbox({ switchable: true });
    const outputDir = join(OUTPUT_ROOT, `lane-${index + 1}`);
    try {
      // Strict: the sandbox implements every x-assumption of the specs, so a contradicted one is a failure here too.
      // Target "sandbox": the live suite plus the one capability a real environment lacks (moving the clock for expiry checks).
      // Loaded here, not with the script: vitest's node API costs more to load than the rest of it, and --help needs none.
      const { SuiteSession: Session } = await import('../contract-tests/runner/suite-session.ts');
      const session = await Session.open({ target: 'sandbox', env: server.env, outputDir, exclude: EXCLUDE, strict: true });
      return new Lane(server, session, outputDir);
    } catch (error) {
      await server.stop();
      throw error;
    }
  }

  get files(): string[] {
    return this.session.files;
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
    if (response.status !== 200)
      throw new Error(
        `switching the sandbox to ${mutation ?? 'no mutation'} answered ${response.status}: ${(await response.text()).slice(0, 300)}`,
      );
  }

  /** Runs the suite (or only `files`) against the sandbox switched to `mutation`, with fresh sandbox state. */
  async run(mutation: string | null, files?: string[]): Promise<SessionRun> {
    // Every run switches first, even to the same mutation: the switch is what gives it fresh sandbox state.
    await this.switchTo(mutation);
    // The ledger keeps only the latest run (each run's workers append to new files).
    rmSync(join(this.outputDir, '.ledger'), { recursive: true, force: true });
    const run = await this.session.run(files);
    // Neither a pass nor a catch: a failure of the run itself (reported as an error, so never counted as caught).
    if (run.notRun.length > 0) throw new Error(`no result from ${run.notRun.join(', ')}`);
    return run;
  }

  async stop(): Promise<void> {
    await this.session.close();
    await this.server.stop();
  }
}

type Mutation = (typeof MUTATIONS)[number];
type Result = { mutation: Mutation; caught: boolean; failures: string[]; how: string; error?: string };

async function main(): Promise<number> {
  const opts = options();
  const started = performance.now();
  const mutations = opts.only ? MUTATIONS.filter((m) => opts.only!.includes(m.id)) : [...MUTATIONS];
  const laneCount = Math.min(opts.concurrency, Math.max(1, mutations.length));
  rmSync(OUTPUT_ROOT, { recursive: true, force: true });
  const starting = Array.from({ length: laneCount }, (_, index) => Lane.start(index));
  const lanes = (await Promise.allSettled(starting)).flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  try {
    if (lanes.length < laneCount) throw (await Promise.allSettled(starting)).find((s) => s.status === 'rejected')!.reason;
    // A suite that fails against the unmutated sandbox would "catch" everything; check that first.
    const first = lanes[0]!;
    const baseline = await first.run(null);
    if (baseline.exitCode !== 0) {
      const lines = baseline.failures.map((f) => `${f.name}: ${f.message}`);
      console.error(
        `contract:mutation: the suite fails against the unmutated sandbox, so no mutation result means anything:\n${lines.join('\n')}`,
      );
      return 1;
    }
    console.log(
      `baseline (no mutation, strict; the check of contract:sandbox less the self-checks): ${baseline.passed} passed, ${baseline.skipped} skipped, ${baseline.seconds.toFixed(1)} s`,
    );
    const allFiles = first.files;
    const byOperation = opts.fullSuite
      ? new Map<string, Set<string>>()
      : targetedFiles(join(first.outputDir, '.ledger'), baseline.filesOfTest);
    if (!opts.fullSuite && byOperation.size === 0)
      console.log('contract:mutation: the baseline ledger names no operation; every mutant runs the whole suite');

    // Each distinct set of targeted files passes against the unmutated sandbox once before its failures count.
    const verified = new Map<string, Promise<boolean>>();
    const verify = (lane: Lane, files: string[]): Promise<boolean> => {
      const key = files.join(' ');
      let check = verified.get(key);
      if (!check) {
        check = lane.run(null, files).then((run) => {
          if (run.exitCode !== 0)
            console.log(
              `note: ${files.join(', ')} fail(s) on their own against the unmutated sandbox; their mutants run the whole suite\n${run.failures
                .slice(0, 3)
                .map((f) => f.name)
                .join('\n')}`,
            );
          return run.exitCode === 0;
        });
        verified.set(key, check);
      }
      return check;
    };

    // Caught only by a violation: a check the suite could not judge (runner/outcomes.ts) proves nothing about the suite.
    const violated = (run: SessionRun) => run.failures.some((f) => f.outcome === 'violation');
    const evaluate = async (lane: Lane, mutation: Mutation): Promise<Result> => {
      const files = [...(byOperation.get(mutation.operation) ?? [])].sort();
      const targeted = files.length > 0 && files.length < allFiles.length;
      if (targeted && (await verify(lane, files))) {
        const run = await lane.run(mutation.id, files);
        if (violated(run))
          return { mutation, caught: true, failures: run.failures.map((f) => f.name), how: `${files.length} of ${allFiles.length} files` };
      }
      const run = await lane.run(mutation.id);
      return {
        mutation,
        caught: violated(run),
        failures: run.failures.map((f) => f.name),
        how: targeted ? 'whole suite, after the targeted files missed' : 'whole suite',
      };
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
          console.log(
            `${last.caught ? 'caught  ' : 'MISSED  '} ${mutation.id.padEnd(40)} [${last.how}, ${seconds} s] ${last.error ?? last.failures[0] ?? '(no failing test)'}`,
          );
        }
      }),
    );

    const caught = results.filter((r) => r.caught);
    const missed = results.filter((r) => !r.caught);
    const viaTargeted = caught.filter((r) => r.how.endsWith(' files')).length;
    console.log(
      `\ncontract:mutation: ${caught.length} of ${results.length} injected contract violations caught (strict; ${viaTargeted} by the targeted files, ` +
        `${caught.length - viaTargeted} by the whole suite) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    for (const r of missed)
      console.log(`  missed: ${r.mutation.id} (${r.mutation.operation}): ${r.mutation.description}${r.error ? ` [${r.error}]` : ''}`);
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
