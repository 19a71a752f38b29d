// contract:mutation's machinery: the lanes (a switchable sandbox and a loaded suite each), which test files exercise which
// operation (from the baseline's ledger), and the scheduler that runs every mutant on the lanes, targeted files first,
// the whole suite when they miss. `scripts/contract-mutation.ts` parses its options and prints; this runs.
//
// What keeps it fast without weakening the proof:
// - one sandbox process per lane, started with --mutations-switchable: between runs it is switched to the next
//   mutation, which rebuilds it with fresh state, instead of starting a process per mutant;
// - the unmutated baseline runs the whole suite first (it must pass) and its ledger tells which test files exercise
//   which operation; a mutant first runs only the files that exercise its operation, and the whole suite when those
//   miss it. A targeted run only counts once the same set of files has passed against the unmutated sandbox on its
//   own, so a file that depends on another one cannot fake a catch;
// - a run stops at its first failing test (bail 1): one failure is the whole verdict, unless it is a violation of
//   another check than the mutant's: then the same files run again to the end;
// - each lane keeps one vitest loaded (suite-session.ts) and runs every file set of its mutants through it.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { MUTATIONS } from '../../sandbox/mutations.ts';
import { startSandbox, type TargetServer } from '../../tools/targets.ts';
import { throughProxy } from '../fixtures/contradicting-proxy.ts';
import { type RealEnvironmentOptions, type RealEnvironmentProxy, startRealEnvironmentProxy } from '../fixtures/real-environment-proxy.ts';
import { readLedger } from '../report/run-files.ts';
import { runSettingsOf } from '../send/run-settings.ts';
import type { SessionRun, SuiteSession } from './suite-session.ts';

/** The suite's own self-checks do not talk to the target. */
const EXCLUDE = ['contract-tests/self/**'];
const SWITCH_TIMEOUT_MS = 15_000;

type Mutation = (typeof MUTATIONS)[number];

export type MutationResult = { mutation: Mutation; caught: boolean; failures: string[]; how: string; error?: string };

/**
 * Which test files exercise which operation or security scheme, read from the baseline's ledger (the suite records
 * every exchange with its operation, scheme and test) and its tests (test -> file). Exchanges made outside a test
 * cannot be placed; the fallback to the whole suite covers what this map misses.
 *
 * Files that exercise every operation (the property-based requests) are left out: they are the slowest, they run
 * anyway when a mutant falls back to the whole suite, and without them a targeted run is a file or two.
 */
export function targetedFiles(ledgerDir: string, fileOfTest: Map<string, Set<string>>): { byKey: Map<string, Set<string>> } {
  const map = new Map<string, Set<string>>();
  const operationsOfFile = new Map<string, Set<string>>();
  const operations = new Set<string>();
  for (const entry of readLedger(ledgerDir)) {
    if (entry.kind !== 'exchange') continue;
    const files = fileOfTest.get(entry.test);
    if (!files) continue;
    // "getVehicle (DELETE)": a method the path does not document belongs to the path's operation.
    const operationId = entry.operationId.split(' (')[0]!;
    const keys = [operationId, ...entry.scheme.split('+')];
    operations.add(operationId);
    for (const file of files) {
      operationsOfFile.set(file, (operationsOfFile.get(file) ?? new Set()).add(operationId));
      for (const key of keys) map.set(key, (map.get(key) ?? new Set()).add(file));
    }
  }
  const broad = [...operationsOfFile].filter(([, exercised]) => exercised.size === operations.size).map(([file]) => file);
  if (broad.length < operationsOfFile.size) for (const files of map.values()) for (const file of broad) files.delete(file);
  return { byKey: map };
}

/** One sandbox process and one loaded suite that the runs of one lane share; switched to each lane's next mutation. */
export class Lane {
  private constructor(
    private readonly server: TargetServer,
    private readonly session: SuiteSession,
    /** LP_CONTRACT_OUT of the lane's runs: the ledger of its latest run. */
    readonly outputDir: string,
    private readonly proxy?: RealEnvironmentProxy,
  ) {}

  static async start(index: number, outputRoot: string, through?: RealEnvironmentOptions): Promise<Lane> {
    const server = await startSandbox({ switchable: true });
    const outputDir = join(outputRoot, `lane-${index + 1}`);
    let proxy: RealEnvironmentProxy | undefined;
    try {
      // Optionally behind a real environment (throttling, transient faults): the suite talks to the proxy, the switch
      // goes to the sandbox itself.
      const upstream = new URL(server.env.LP_BASE_URL!).origin;
      proxy = through ? await startRealEnvironmentProxy(upstream, through) : undefined;
      const env = proxy ? throughProxy(server.env as Record<string, string>, upstream, proxy.origin) : server.env;
      // Strict: the sandbox implements every x-assumption of the specs, so a contradicted one is a failure here too.
      // Target "sandbox": the live suite plus the one capability a real environment lacks (moving the clock for expiry checks).
      // Loaded here, not with the script: vitest's node API costs more to load than the rest of it, and --help needs none.
      const { SuiteSession: Session } = await import('./suite-session.ts');
      const settings = runSettingsOf({ ...env, LP_CONTRACT_TARGET: 'sandbox', LP_CONTRACT_OUT: outputDir });
      const session = await Session.open({ settings: { ...settings, strictAssumptions: true }, exclude: EXCLUDE });
      return new Lane(server, session, outputDir, proxy);
    } catch (error) {
      await proxy?.close();
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
  async run(mutation: string | null, files?: string[], toTheEnd = false): Promise<SessionRun> {
    // Every run switches first, even to the same mutation: the switch is what gives it fresh sandbox state.
    await this.switchTo(mutation);
    // The ledger keeps only the latest run (each run's workers append to new files).
    rmSync(join(this.outputDir, '.ledger'), { recursive: true, force: true });
    const run = await this.session.run(files, { toTheEnd });
    // Neither a pass nor a catch: a failure of the run itself (reported as an error, so never counted as caught).
    if (run.notRun.length > 0) throw new Error(`no result from ${run.notRun.join(', ')}`);
    return run;
  }

  async stop(): Promise<void> {
    await this.session.close();
    await this.proxy?.close();
    await this.server.stop();
  }
}

/** Each distinct set of targeted files passes against the unmutated sandbox once before its failures count: the
 * returned check runs a set once, on the first lane that asks, and tells every later asker the same. */
function targetVerifier(): (lane: Lane, files: string[]) => Promise<boolean> {
  const verified = new Map<string, Promise<boolean>>();
  return (lane, files) => {
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
}

/**
 * Runs every mutant on the lanes: the targeted files first (once they pass unmutated on their own), the whole suite
 * when they miss. `baselineLedger` and `filesOfTest` come from the unmutated baseline run; `fullSuite` skips targeting.
 */
export async function runMutants(
  lanes: Lane[],
  mutations: Mutation[],
  baseline: { ledgerDir: string; filesOfTest: Map<string, Set<string>>; fullSuite: boolean },
  onResult: (result: MutationResult, seconds: number) => void,
): Promise<MutationResult[]> {
  const first = lanes[0]!;
  const allFiles = first.files;
  const byOperation = baseline.fullSuite
    ? { byKey: new Map<string, Set<string>>() }
    : targetedFiles(baseline.ledgerDir, baseline.filesOfTest);
  if (!baseline.fullSuite && byOperation.byKey.size === 0)
    console.log('contract:mutation: the baseline ledger names no operation; every mutant runs the whole suite');

  const verify = targetVerifier();

  // Caught only by a violation: a check the suite could not judge (judge/outcomes.ts) proves nothing about the suite.
  // A mutation made for an exchange check counts only when the run recorded a violation of that check.
  const checksOf = (lane: Lane) =>
    new Set(readLedger(join(lane.outputDir, '.ledger')).flatMap((e) => (e.kind === 'violation' && e.check ? [e.check] : [])));
  const wanted = (mutation: Mutation) => ('check' in mutation ? mutation.check : undefined);
  const violated = (run: SessionRun, lane: Lane, mutation: Mutation) =>
    run.failures.some((f) => f.outcome === 'violation') && (wanted(mutation) === undefined || checksOf(lane).has(wanted(mutation)!));
  // A run stops at its first failing test. Where that was a violation of another check (a mutant may break two
  // promises, and a file's order decides which check meets it first), the same files run again to the end, so the
  // mutant's own check gets its turn: the order of the checks is not what the proof rests on.
  const runFor = async (lane: Lane, mutation: Mutation, files?: string[]) => {
    const run = await lane.run(mutation.id, files);
    const another = run.failures.some((f) => f.outcome === 'violation') && !violated(run, lane, mutation);
    return another ? lane.run(mutation.id, files, true) : run;
  };
  // The files that exercise the mutant's operation first, the whole suite when they miss. (A middle stage of those
  // plus the generated sweeps, which exercise every operation, measured slower: 85 against 70 CPU-s for the 53.)
  const evaluate = async (lane: Lane, mutation: Mutation): Promise<MutationResult> => {
    const files = [...(byOperation.byKey.get(mutation.operation) ?? [])].sort();
    const targeted = files.length > 0 && files.length < allFiles.length;
    if (targeted && (await verify(lane, files))) {
      const run = await runFor(lane, mutation, files);
      if (violated(run, lane, mutation))
        return { mutation, caught: true, failures: run.failures.map((f) => f.name), how: `${files.length} of ${allFiles.length} files` };
    }
    const run = await runFor(lane, mutation);
    const caught = violated(run, lane, mutation);
    const byOther = !caught && run.failures.some((f) => f.outcome === 'violation');
    return {
      mutation,
      caught,
      failures: run.failures.map((f) => f.name),
      how: targeted ? 'whole suite, after the targeted files missed' : 'whole suite',
      ...(byOther
        ? {
            error: `failed, but no violation of its check ${wanted(mutation)} was recorded (found: ${[...checksOf(lane)].join(', ') || 'none'})`,
          }
        : {}),
    };
  };

  const results: MutationResult[] = [];
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
        onResult(results.at(-1)!, (performance.now() - begin) / 1000);
      }
    }),
  );

  return results;
}
