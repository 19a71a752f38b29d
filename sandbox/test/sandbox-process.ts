// Test harness: starts the sandbox (or the mock) as a real process on a free port, reads its
// dotenv lines, and always stops it; or runs the sandbox in-process on port 0.
import { spawn, type ChildProcess } from 'node:child_process';
import { readCredentials } from '../config.ts';
import type { MutationId } from '../mutations.ts';
import { buildSandbox, type Sandbox, type SandboxOptions } from '../server.ts';
import { afterAll, beforeAll } from 'vitest';
import { repoRoot } from '../../spec-core/apis.ts';
import { serviceToken } from './api-calls.ts';

// Re-exported for the tests that spawn the sandbox from the repository root.
export { repoRoot };

export type RunningProcess = {
  child: ChildProcess;
  /** The LP_* lines printed on stdout, parsed. */
  env: Record<string, string>;
  stdout: string;
  stderr: () => string;
  stop: () => Promise<number | null>;
};

/** The caller's LP_* variables would change the sandbox's defaults; tests start from none. */
function cleanEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('LP_')) env[name] = value;
  return { ...env, ...extra };
}

/**
 * Runs `node --import tsx <script> ...args` (one process, so a signal reaches the server itself)
 * and resolves once `readyLine` appears on stdout.
 */
export function startProcess(script: string, args: string[], readyLine: string, extraEnv: Record<string, string> = {}, timeoutMs = 60_000): Promise<RunningProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--', script, ...args], {
    cwd: repoRoot,
    env: cleanEnvironment(extraEnv),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const stop = async (): Promise<number | null> => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${script} did not print "${readyLine}" within ${timeoutMs} ms; stderr:\n${stderr.slice(-2000)}`));
    }, timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.split('\n').includes(readyLine)) {
        clearTimeout(timer);
        const env: Record<string, string> = {};
        for (const line of stdout.split('\n')) {
          const match = /^(LP_\w+)=(.*)$/.exec(line);
          if (match) env[match[1]!] = match[2]!;
        }
        resolve({ child, env, stdout, stderr: () => stderr, stop });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code} before it was ready; stderr:\n${stderr.slice(-2000)}`));
    });
  });
}

export function startSandboxProcess(args: string[] = [], extraEnv: Record<string, string> = {}): Promise<RunningProcess> {
  return startProcess('sandbox/main.ts', ['--port', '0', ...args], 'sandbox ready', extraEnv);
}

export type InProcessSandbox = Sandbox & { origin: string; close: () => Promise<void> };

/** The sandbox in this process, listening on a free loopback port, with default credentials. */
export async function startInProcess(options: Omit<SandboxOptions, 'credentials' | 'mutation'> & { mutation?: MutationId } = {}): Promise<InProcessSandbox> {
  const sandbox = buildSandbox({ credentials: readCredentials({}), logLevel: 'silent', ...options });
  await sandbox.app.listen({ port: 0, host: '127.0.0.1' });
  const address = sandbox.app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('sandbox did not bind');
  return { ...sandbox, origin: `http://127.0.0.1:${address.port}`, close: () => sandbox.app.close() };
}

/** One in-process sandbox for the enclosing suite, with a service token: started before its tests, closed after them. */
export function useSandboxWithToken(): { readonly sandbox: InProcessSandbox; readonly token: string } {
  const shared = {} as { sandbox: InProcessSandbox; token: string };
  beforeAll(async () => {
    shared.sandbox = await startInProcess();
    shared.token = await serviceToken(shared.sandbox.origin);
  });
  afterAll(() => shared.sandbox?.close());
  return shared;
}
