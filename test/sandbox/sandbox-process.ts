// Test harness: starts the sandbox (or the mock) as a real process on a free port, reads its
// dotenv lines, and always stops it; or runs the sandbox in-process on port 0.
import { readCredentials } from '../../sandbox/config.ts';
import type { MutationId } from '../../sandbox/mutations.ts';
import { buildSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/server.ts';
import { afterAll, beforeAll } from 'vitest';
import { repoRoot } from '../../spec-core/apis.ts';
import { startServer, type RunningServer } from '../../tools/processes.ts';
import { serviceToken } from './api-calls.ts';
import { testWaitMs } from '../../config/test-waits.ts';

// Re-exported for the tests that spawn the sandbox from the repository root.
export { repoRoot };

export type RunningProcess = RunningServer & {
  /** stdout up to and including the ready line. */
  stdout: string;
};

/** Runs a server script (tools/processes.ts: no LP_* from the caller, stopped with its children) until `readyLine`. */
export async function startProcess(
  script: string,
  args: string[],
  readyLine: string,
  extraEnv: Record<string, string> = {},
  timeoutMs = testWaitMs(60_000),
): Promise<RunningProcess> {
  const server = await startServer({
    script,
    args,
    ready: readyLine,
    env: extraEnv,
    readyTimeoutMs: timeoutMs,
    stopGraceMs: testWaitMs(10_000),
  });
  return Object.assign(server, { stdout: `${server.stdoutLines.join('\n')}\n` });
}

export function startSandboxProcess(args: string[] = [], extraEnv: Record<string, string> = {}): Promise<RunningProcess> {
  return startProcess('sandbox/main.ts', ['--port', '0', ...args], 'sandbox ready', extraEnv);
}

export type InProcessSandbox = Sandbox & { origin: string; close: () => Promise<void> };

/** The sandbox in this process, listening on a free loopback port, with default credentials. */
export async function startInProcess(
  options: Omit<SandboxOptions, 'credentials' | 'mutation'> & { mutation?: MutationId } = {},
): Promise<InProcessSandbox> {
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
