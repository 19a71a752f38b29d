// Runs the contract vitest project against one target's LP_* settings, with every line of its output and every
// report file passed through the redactor of those settings' credentials.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../spec-core/apis.ts';
import { type Redactor, redactorFromEnvironment } from '../send/redact.ts';
import { cpuProfileOptions, strictByDefault } from '../../config/environment.ts';
import type { TargetName } from '../send/target.ts';

/** vitest's command, run with this Node and its V8 options. */
const VITEST = join(repoRoot, 'node_modules/vitest/vitest.mjs');

/**
 * V8's interrupt budget for vitest and its worker threads: how much bytecode a function runs before V8 optimizes it, here
 * 8 times Node 20's default. A run lasts seconds, and each of its workers (an isolate of its own) optimized the same
 * functions over again in V8's background threads: 3.3 of a live run's 15 CPU-seconds. With it, 1.1, while the workers'
 * own time grew by less than that saved (bench:contract measures the run's CPU).
 */
const V8_OPTIONS = ['--interrupt-budget=540672'];

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
  target: TargetName;
  env: Record<string, string | undefined>;
  outputDir: string;
  /** Property-based runs per operation and kind. */
  runs?: number;
  /** Echo the (redacted) output while it runs (--verbose); it is kept in `<outputDir>/suite-output.log` either way. */
  echo?: boolean;
  /** Vitest test name filter and other arguments. */
  vitestArgs?: string[];
  /**
   * Contradicted assumptions fail the run as well. Default: LP_STRICT_ASSUMPTIONS=1 in the environment, or a local
   * target (the mock and the sandbox implement the specs' assumptions, so a contradiction there is a bug).
   */
  strict?: boolean;
}

export function runSuite(options: SuiteOptions): Promise<SuiteRun> {
  const redactor = redactorFromEnvironment(options.env);
  const env = {
    ...process.env,
    ...options.env,
    LP_CONTRACT_TARGET: options.target,
    LP_CONTRACT_OUT: options.outputDir,
    ...(options.runs ? { LP_CONTRACT_RUNS: String(options.runs) } : {}),
    LP_STRICT_ASSUMPTIONS: (options.strict ?? strictByDefault(options.target, { ...process.env, ...options.env })) ? '1' : '',
    FORCE_COLOR: '0',
    NO_COLOR: '1',
  };
  const args = [
    'run',
    // The contract project's own config as the root: the repository's root config would load every project's config
    // first, only to pick this one (about a quarter of a CPU-second per run).
    '--config',
    join(repoRoot, 'contract-tests/vitest.config.ts'),
    // vitest's default reporter with a partner's end: one line per failed check (runner/console-reporter.ts).
    `--reporter=${join(repoRoot, 'contract-tests/runner/console-reporter.ts')}`,
    '--reporter=junit',
    // Each failed check's outcome (a violation, or could not judge) for the verdict.
    `--reporter=${join(repoRoot, 'contract-tests/judge/outcomes.ts')}`,
    `--outputFile.junit=${join(options.outputDir, 'junit.xml')}`,
    ...(options.vitestArgs ?? []),
  ];
  const started = performance.now();
  // LP_CONTRACT_CPU_PROF: vitest's own profile (its worker threads write theirs, contract-tests/vitest.config.ts).
  const node = [...V8_OPTIONS, ...cpuProfileOptions(env)];
  const child = spawn(process.execPath, [...node, VITEST, ...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const relay = (stream: NodeJS.WriteStream) => (chunk: Buffer) => {
    const text = redactor.redact(chunk.toString());
    output += text;
    if (options.echo) stream.write(text);
  };
  child.stdout!.on('data', relay(process.stdout));
  child.stderr!.on('data', relay(process.stderr));
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      mkdirSync(options.outputDir, { recursive: true });
      writeFileSync(join(options.outputDir, SUITE_OUTPUT), output);
      redactFiles(options.outputDir, redactor);
      const count = (word: string) => Number(new RegExp(`Tests\\s+.*?(\\d+) ${word}`).exec(output)?.[1] ?? 0);
      resolve({
        exitCode: code ?? (signal ? 1 : 0),
        output,
        seconds: (performance.now() - started) / 1000,
        passed: count('passed'),
        failed: count('failed'),
        skipped: count('skipped'),
      });
    });
  });
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
