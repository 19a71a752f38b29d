// One child process per step, asynchronous (Verdaccio runs in this process and must keep serving while npm talks to
// it), timed, with its output printed only when it fails or is asked for.
import { spawn } from 'node:child_process';

export interface StepOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** The exit codes that count as success (default [0]); a step that must be refused passes e.g. [1]. */
  expect?: 'success' | 'failure';
  timeoutMs?: number;
}

export interface StepResult {
  code: number;
  stdout: string;
  output: string;
  seconds: number;
}

const NOISE = /Unknown user config "nodedir"/;

export function step(name: string, command: string, args: string[], options: StepOptions): Promise<StepResult> {
  const began = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let output = '';
    const keep = (text: string) => (text.length > 200_000 ? text.slice(-200_000) : text);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout = keep(stdout + chunk.toString());
      output = keep(output + chunk.toString());
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output = keep(output + chunk.toString());
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 180_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`pack:check: step "${name}" could not start ${command}: ${error.message}`));
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const seconds = (performance.now() - began) / 1000;
      const clean = output
        .split('\n')
        .filter((line) => !NOISE.test(line))
        .join('\n')
        .trimEnd();
      console.log(`=== ${name} (${seconds.toFixed(1)} s)`);
      const succeeded = code === 0;
      if (succeeded !== ((options.expect ?? 'success') === 'success')) {
        console.error(clean);
        reject(new Error(`pack:check: step "${name}" ${succeeded ? 'succeeded but had to fail' : `failed (exit ${code ?? signal})`}`));
        return;
      }
      resolve({ code: code ?? 1, stdout, output: clean, seconds });
    });
  });
}
