// Runs the contract vitest project in this process (vitest's Node API) with one run's settings as a value: vitest
// hands them to the global setup, the reporters and every worker (`provide`, send/run-settings.ts). Every line of its
// output and every report file passes through the redactor of the target's credentials.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import type { createVitest, parseCLI, Reporter, TestRunEndReason, Vitest } from 'vitest/node';
import { repoRoot } from '../../spec-core/apis.ts';
import { offerFlightPool } from '../send/flight-pool.ts';
import { type Redactor, redactorFromEnvironment } from '../send/redact.ts';
import type { RunSettings } from '../send/run-settings.ts';
import { projectConfig } from '../support/project-config.ts';
import { RUNNER_MODE, runOptions } from '../support/project-options.ts';
import { profilingCpu } from './cpu-profile.ts';

/**
 * V8's interrupt budget for vitest and its worker threads: how much bytecode a function runs before V8 optimizes it, here
 * 8 times Node 20's default. A run lasts seconds, and each of its workers (an isolate of its own) optimized the same
 * functions over again in V8's background threads: 3.3 of a live run's 15 CPU-seconds. With it, 1.1, while the workers'
 * own time grew by less than that saved (bench:contract measures the run's CPU). V8's flags are the process's: set
 * before vitest starts its worker threads, every isolate made after has it.
 */
const V8_OPTIONS = '--interrupt-budget=540672';

/**
 * Vitest's Node API and its defaults, loaded once, when first asked for: a run asks before it reaches its target
 * (runner/contract-run.ts), so that they load while it waits for a mock to start or a far target's preflight to answer
 * (some 0.3 CPU-seconds; 200 ms away, the preflight waits about 0.45 s), and a command that runs no suite (--help, a
 * usage error) does not load them at all.
 */
let vitestModules: Promise<[typeof import('vitest/node'), typeof import('vitest/config')]> | undefined;
export const loadVitest = () => (vitestModules ??= Promise.all([import('vitest/node'), import('vitest/config')]));

/** The suite's own output (vitest's, redacted), beside the reports: what --verbose prints. */
export const SUITE_OUTPUT = 'suite-output.log';

export interface SuiteRun {
  exitCode: number;
  output: string;
  seconds: number;
  passed: number;
  failed: number;
  skipped: number;
}

export interface SuiteOptions {
  /** The run's settings: the target and its LP_* settings, the output directory, strictness, runs, the transport. */
  settings: RunSettings;
  /** Echo the (redacted) output while it runs (--verbose); it is kept in `<outputDir>/suite-output.log` either way. */
  echo?: boolean;
  /** Vitest test name filter and other arguments, as on vitest's command line. */
  vitestArgs?: string[];
}

/** How the run ended, as vitest tells its reporters: the state and the unhandled errors. */
class RunEnd implements Reporter {
  state: TestRunEndReason | undefined;
  errors = 0;

  onTestRunEnd(_modules: unknown, errors: readonly unknown[], state: TestRunEndReason): void {
    this.state = state;
    this.errors = errors.length;
  }

  get exitCode(): number {
    return this.state === 'passed' && this.errors === 0 ? 0 : 1;
  }
}

/**
 * A vitest of the contract project for one run's settings: the project's own options (support/project-config.ts, given
 * inline: no config file is bundled and loaded), the options of the settings (support/project-options.ts) over them and
 * `options` over both, started in the runner's mode, and the settings provided to the global setup, the reporters and
 * every worker (send/run.ts), and one pool of the ceiling on requests in flight offered to its workers. runSuite runs it
 * once; contract:mutation's session (suite-session.ts) runs it many times.
 */
export async function contractVitest(
  settings: RunSettings,
  options: Parameters<typeof createVitest>[1],
  streams: { stdout: Writable; stderr: Writable },
): Promise<Vitest> {
  const [{ createVitest }, { configDefaults }] = await loadVitest();
  const { provide: _provided, ...fromSettings } = runOptions(settings, configDefaults.exclude);
  // The ceiling on requests in flight, one pool for all the workers this vitest starts (send/flight-pool.ts).
  offerFlightPool(settings.transport.concurrency);
  const vitest = await createVitest(
    'test',
    { ...projectConfig(), ...fromSettings, ...options, config: false, root: repoRoot, mode: RUNNER_MODE, watch: false },
    {},
    streams,
  );
  vitest.provide('run', settings);
  return vitest;
}

/** The vitest options of a run: the contract project's reporters, and the caller's own arguments, as on a command line
 * (contractVitest puts them over the project's options and the settings'). */
function vitestOptions(options: SuiteOptions, end: RunEnd, parse: typeof parseCLI) {
  const { outputDir } = options.settings;
  const { filter, options: cli } = parse([
    'vitest',
    'run',
    // vitest's default reporter with a partner's end: one line per failed check (runner/console-reporter.ts).
    `--reporter=${join(repoRoot, 'contract-tests/runner/console-reporter.ts')}`,
    '--reporter=junit',
    // Each failed check's outcome (a violation, or could not judge) for the verdict.
    `--reporter=${join(repoRoot, 'contract-tests/judge/outcomes.ts')}`,
    `--outputFile.junit=${join(outputDir, 'junit.xml')}`,
    ...(options.vitestArgs ?? []),
  ]);
  // As vitest's command line does: --exclude adds to the project's exclusions (those of the settings stay).
  const { exclude: cliExclude, reporter, reporters, ...rest } = cli as typeof cli & { reporter?: string | string[] };
  return {
    filter,
    options: {
      ...rest,
      color: false,
      // The run's end, for the exit code, beside the reporters named above.
      reporters: [...[reporters ?? reporter ?? []].flat(), end],
      ...(cliExclude ? { cliExclude: [cliExclude].flat() } : {}),
      ...(filter.some((f) => f.includes(':')) ? { includeTaskLocation: true } : {}),
    },
  };
}

export async function runSuite(options: SuiteOptions): Promise<SuiteRun> {
  const { settings } = options;
  const redactor = redactorFromEnvironment(settings.targetEnv);
  setFlagsFromString(V8_OPTIONS);
  let output = '';
  // vitest writes here what the child's stdout and stderr carried: redacted, kept, echoed with --verbose.
  const relay = (stream: NodeJS.WriteStream) =>
    new Relay((chunk) => {
      const text = redactor.redact(stripVTControlCharacters(chunk));
      output += text;
      if (options.echo) stream.write(text);
    });
  const end = new RunEnd();
  const { filter, options: vitestOptionsOf } = vitestOptions(options, end, (await loadVitest())[0].parseCLI);
  const started = performance.now();
  // The exit code vitest sets is the run's, not this process's: it is restored when the run ends.
  const exitCode = process.exitCode;
  let vitest: Vitest | undefined;
  // LP_CONTRACT_CPU_PROF: this process's profile while vitest runs (its worker threads write theirs, project-options.ts).
  const stopProfile = await profilingCpu(settings.cpuProfileDir);
  try {
    vitest = await contractVitest(settings, vitestOptionsOf, { stdout: relay(process.stdout), stderr: relay(process.stderr) });
    await vitest.start(filter);
  } catch (error) {
    end.state = undefined;
    output += redactor.redact(`\nThe suite could not run: ${(error as Error).stack ?? String(error)}\n`);
    if (options.echo) process.stderr.write(redactor.redact(`The suite could not run: ${(error as Error).message}\n`));
  } finally {
    await vitest?.close();
    await stopProfile();
    process.exitCode = exitCode;
  }
  mkdirSync(settings.outputDir, { recursive: true });
  writeFileSync(join(settings.outputDir, SUITE_OUTPUT), output);
  redactFiles(settings.outputDir, redactor);
  const count = (word: string) => Number(new RegExp(`Tests\\s+.*?(\\d+) ${word}`).exec(output)?.[1] ?? 0);
  return {
    exitCode: end.exitCode,
    output,
    seconds: (performance.now() - started) / 1000,
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
  };
}

/**
 * Where vitest writes its output, as it would to process.stdout or stderr. It pipes each worker thread's own stdout
 * and stderr into it too, and so ends it when a worker ends; process.stdout ignores that, and so does this, since the
 * global teardown still writes after the workers end.
 */
class Relay extends Writable {
  constructor(take: (text: string) => void) {
    super({
      write(chunk: Buffer, _encoding, done) {
        take(chunk.toString());
        done();
      },
    });
  }

  override end(): this {
    return this;
  }
}

/** Last line of defence: no report file keeps a configured credential. */
function redactFiles(dir: string, redactor: Redactor): void {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (!/\.(json|jsonl|md|xml)$/.test(name)) continue;
    const text = readFileSync(file, 'utf8');
    const clean = redactor.redact(text);
    if (clean !== text) writeFileSync(file, clean);
  }
}
