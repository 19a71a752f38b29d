// A contract suite that stays loaded between runs: one vitest (through its Node API) against one target, which runs
// any subset of the suite's files as often as asked. A run through `npm run contract` pays vitest's start each time
// (config, Vite server, transforms: about 1.7 CPU-s); a session pays it once, so contract:mutation's many short runs
// cost little more than their tests. Each run still gets a fresh worker (vitest ends a run's workers with the run),
// so no module state (tokens, ledger files) leaks from one run into the next.
import { join, relative } from 'node:path';
import { Writable } from 'node:stream';
import { configDefaults } from 'vitest/config';
import type { TestModule, TestSequencer, TestSpecification } from 'vitest/node';
import type { Vitest } from 'vitest/node';
import { repoRoot } from '../../spec-core/apis.ts';
import { type Redactor, redactorFromEnvironment } from '../send/redact.ts';
import type { RunSettings } from '../send/run-settings.ts';
import { type FailureOutcome, outcomeOfErrors } from '../judge/outcomes.ts';
import { contractVitest } from './run-suite.ts';

export interface SessionOptions {
  /** The settings of every run: the target and its LP_* settings, the output directory (the ledger goes below it),
   * strictness (the mock and the sandbox implement every assumption, so contradicted assumptions fail there too). */
  settings: RunSettings;
  /** Suite files (relative to the repository root) left out of every run, e.g. the self-checks. */
  exclude?: string[];
}

export interface SessionFailure {
  /** The test's full name, or the file's when the file failed outside its tests. */
  name: string;
  file: string;
  /** The first line of the first error, redacted. */
  message: string;
  /** A violation, or a check the suite could not judge (judge/outcomes.ts): only a violation catches a mutation. */
  outcome: FailureOutcome;
}

export interface SessionRun {
  exitCode: number;
  passed: number;
  failed: number;
  skipped: number;
  seconds: number;
  failures: SessionFailure[];
  /** Files of a run without failures that never reported: the run proves nothing (exit code 1). */
  notRun: string[];
  /** Each test of the run (its full name, as the ledger records it) and the files it is in. */
  filesOfTest: Map<string, Set<string>>;
}

class ByPath implements TestSequencer {
  shard(files: TestSpecification[]): TestSpecification[] {
    return files;
  }

  sort(files: TestSpecification[]): TestSpecification[] {
    return [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId));
  }
}

export class SuiteSession {
  private constructor(
    private readonly vitest: Vitest,
    private readonly redactor: Redactor,
    /** Every suite file of the session, relative to the repository root, sorted. */
    readonly files: string[],
  ) {}

  static async open(options: SessionOptions): Promise<SuiteSession> {
    const redactor = redactorFromEnvironment(options.settings.targetEnv);
    // Whatever vitest itself prints (an unhandled error, say) passes the redactor, as `npm run contract`'s output does.
    const redacted = (stream: NodeJS.WriteStream) =>
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          stream.write(redactor.redact(chunk.toString()), () => done());
        },
      });
    // The project's options of the run's settings (files, workers, timeouts), as runSuite has them, and the settings
    // provided to every worker.
    const vitest = await contractVitest(
      options.settings,
      {
        // One failing test is the whole verdict of a run; the rest of it would only cost time.
        bail: 1,
        // The session's own caller reads the ledger and the failures of each run; the global setup's reports of the
        // whole suite are not wanted after every run.
        globalSetup: [],
        exclude: [...configDefaults.exclude, ...(options.exclude ?? [])],
        // Results come back from each run; nothing is printed while it runs.
        reporters: [{}],
        // The same files in the same order on every run: the default order puts the last run's failures first, and
        // an exchange made in a file's beforeAll is recorded under the test that ran just before it.
        sequence: { sequencer: ByPath },
      },
      { stdout: redacted(process.stdout), stderr: redacted(process.stderr) },
    );
    const specifications = await vitest.globTestSpecifications();
    const files = [...new Set(specifications.map((s) => relative(repoRoot, s.moduleId)))].sort();
    return new SuiteSession(vitest, redactor, files);
  }

  /** Runs `files` (default: every file of the session) and stops at the first failing test, or with `toTheEnd` runs
   * every test. Vitest reads its bail from the project's config on every run, so the choice is the run's own. */
  async run(files: string[] = this.files, { toTheEnd = false } = {}): Promise<SessionRun> {
    const unknown = files.filter((file) => !this.files.includes(file));
    if (unknown.length) throw new Error(`not files of the contract suite: ${unknown.join(', ')}`);
    for (const config of [this.vitest.config, ...this.vitest.projects.map((project) => project.config)]) config.bail = toTheEnd ? 0 : 1;
    const started = performance.now();
    const wanted = new Set(files.map((file) => join(repoRoot, file)));
    const specifications = (await this.vitest.globTestSpecifications()).filter((s) => wanted.has(s.moduleId));
    // Vitest's state keeps each file's result from the run before until the file reports again: start them blank, so a
    // file that does not report this time shows as not run rather than with an old result.
    for (const specification of specifications) this.vitest.state.clearFiles(specification.project, [specification.moduleId]);
    const result = await this.vitest.runTestSpecifications(specifications);
    // The state keeps the modules of the files outside this run too: only this run's count.
    const modules = result.testModules.filter((m) => wanted.has(m.moduleId));
    const run = summarize(modules, this.redactor);
    const unhandled = result.unhandledErrors.map(
      (error): SessionFailure => ({ name: '(unhandled error)', file: '', message: this.firstLine(error), outcome: 'unjudged' }),
    );
    const failures = [...run.failures, ...unhandled];
    // A file that never reported (and was not cut short by a failure elsewhere) cannot count as passed or failed.
    const reported = new Set(
      modules.filter((m) => m.state() !== 'pending' && m.state() !== 'queued').map((m) => relative(repoRoot, m.moduleId)),
    );
    const notRun = failures.length > 0 ? [] : files.filter((file) => !reported.has(file));
    return {
      ...run,
      failures,
      notRun,
      exitCode: failures.length > 0 || notRun.length > 0 ? 1 : 0,
      seconds: (performance.now() - started) / 1000,
    };
  }

  close(): Promise<void> {
    return this.vitest.close();
  }

  private firstLine(error: unknown): string {
    const message =
      error instanceof Error
        ? error.message
        : typeof error === 'object' && error && 'message' in error
          ? String(error.message)
          : String(error);
    return this.redactor.redact(message.split('\n')[0] ?? '');
  }
}

function summarize(modules: TestModule[], redactor: Redactor): Omit<SessionRun, 'exitCode' | 'seconds' | 'notRun'> {
  let passed = 0;
  let skipped = 0;
  const failures: SessionFailure[] = [];
  const filesOfTest = new Map<string, Set<string>>();
  const firstLine = (message: string | undefined) => redactor.redact((message ?? '').split('\n')[0] ?? '');
  for (const module of modules) {
    const file = relative(repoRoot, module.moduleId);
    for (const test of module.children.allTests()) {
      filesOfTest.set(test.fullName, (filesOfTest.get(test.fullName) ?? new Set()).add(file));
      const { state } = test.result();
      if (state === 'passed') passed++;
      else if (state === 'failed') {
        const errors = test.result().errors ?? [];
        failures.push({ name: test.fullName, file, message: firstLine(errors[0]?.message), outcome: outcomeOfErrors(errors) });
      } else skipped++;
    }
    // A file can fail outside its tests (an import error, a failing afterAll hook).
    for (const error of module.errors())
      failures.push({ name: file, file, message: firstLine(error.message), outcome: outcomeOfErrors([error]) });
  }
  return { passed, failed: failures.length, skipped, failures, filesOfTest };
}
