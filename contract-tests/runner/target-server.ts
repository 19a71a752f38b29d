// Starts the server behind a target (the Prism mock or the sandbox) on a free port, waits for its ready line,
// and returns its LP_* settings and a stop function that always ends the process.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { repoRoot } from '../../spec-core/apis.ts';

const READY_TIMEOUT_MS = 60_000;

export interface RunningServer {
  env: Record<string, string>;
  stop(): Promise<void>;
}

// Settings the Prism mock does not hand out: it accepts any credential value, so these are placeholders.
export const MOCK_CREDENTIALS: Record<string, string> = {
  LP_CLIENT_ID: 'contract-mock-client',
  LP_CLIENT_SECRET: 'contract-mock-secret',
  LP_SUBSCRIPTION_KEY: 'contract-mock-subscription-key',
  LP_SCOPE: 'carriers.milestones',
  LP_REDIRECT_URI: 'http://127.0.0.1:8765/callback',
  LP_FLEET_API_KEY: 'contract-mock-fleet-key',
  // The mock keeps no state, so "writing" a milestone to it is harmless.
  LP_ALLOW_WRITES: '1',
  LP_TEST_LOAD_ID: 'LD-CONTRACT-MOCK',
};

function stopper(child: ChildProcess, cleanup: () => void): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      const done = () => {
        cleanup();
        resolve();
      };
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', done);
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    });
}

/** Spawns `tsx script args`, collects stdout until `readyLine`, and fails clearly if it exits or times out first. */
function startUntilReady(script: string, args: string[], readyLine: string, cleanup: () => void): Promise<{ stdout: string; stop: () => Promise<void> }> {
  // node --import tsx, not the tsx CLI: the CLI would take the sandbox's --env-file for Node's own option.
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  const stop = stopper(child, cleanup);
  let stdout = '';
  let stderr = '';
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      void stop().then(() => reject(new Error(`${script} ${why}${stderr ? `\n${stderr.slice(-2000)}` : ''}`)));
    };
    const timer = setTimeout(() => fail(`did not print "${readyLine}" within ${READY_TIMEOUT_MS / 1000}s`), READY_TIMEOUT_MS);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-8000);
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.split('\n').some((line) => line.trim() === readyLine)) {
        clearTimeout(timer);
        resolve({ stdout, stop });
      }
    });
    child.once('exit', (code, signal) => fail(`exited (${signal ?? code}) before it was ready`));
  });
}

export async function startMock(): Promise<RunningServer> {
  const { stdout, stop } = await startUntilReady('scripts/mock.ts', ['--port', '0'], 'mock ready', () => {});
  return { env: { ...MOCK_CREDENTIALS, ...parseEnv(stdout) } as Record<string, string>, stop };
}

/** `switchable`: started with --mutations-switchable, so POST /_sandbox/mutation changes its mutation (contract:mutation). */
export async function startSandbox(options: { mutation?: string; switchable?: boolean } = {}): Promise<RunningServer> {
  const dir = mkdtempSync(join(tmpdir(), 'lp-contract-sandbox-'));
  const envFile = join(dir, 'sandbox.env');
  // Node 20 takes "--env-file" anywhere on its command line for its own option and fails when the file does not
  // exist yet, so the file is created empty first; the sandbox then writes the settings into it.
  writeFileSync(envFile, '', { mode: 0o600 });
  const args = ['--port', '0', '--env-file', envFile, ...(options.mutation ? ['--mutation', options.mutation] : [])];
  if (options.switchable) args.push('--mutations-switchable');
  // The env file holds full credential values; it lives in a private temp dir and is removed on stop.
  const { stop } = await startUntilReady('sandbox/main.ts', args, 'sandbox ready', () => rmSync(dir, { recursive: true, force: true }));
  return { env: parseEnv(readFileSync(envFile, 'utf8')) as Record<string, string>, stop };
}
