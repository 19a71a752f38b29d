// tools/processes.ts and tools/targets.ts with real processes: the sandbox on port 0, and a fixture server that starts
// a grandchild, never gets ready, or ignores SIGTERM.
import { describe, expect, it } from 'vitest';
import { startServer } from '../../tools/processes.ts';
import { startSandbox } from '../../tools/targets.ts';
import { testWaitMs } from '../../config/test-waits.ts';

const FIXTURE = 'test/tools/fixtures/stubborn-server.ts';

/** True while a process with this pid exists (signal 0 only checks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('startServer', () => {
  it('starts the sandbox on port 0, reads its LP_* lines, and stops it: the pid is gone', async () => {
    const sandbox = await startSandbox({ sandboxArgs: ['--log-level', 'warn'] });
    const pid = sandbox.pid;
    try {
      expect(alive(pid)).toBe(true);
      expect(sandbox.env.LP_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/svc$/);
      expect(sandbox.env.LP_CLIENT_ID).toBe('sandbox-client');
      const health = await fetch(`${new URL(sandbox.env.LP_BASE_URL!).origin}/_sandbox/health`);
      expect(health.status).toBe(200);
      await health.arrayBuffer();
    } finally {
      await sandbox.stop();
    }
    expect(alive(pid)).toBe(false);
  });

  it('parses LP_* lines (dotenv quoting) and ignores other lines; stop ends the grandchild too', async () => {
    const server = await startServer({ script: FIXTURE, args: ['ready'], ready: 'stubborn ready' });
    const grandchild = Number(server.env.LP_GRANDCHILD_PID);
    expect(server.env).toEqual({ LP_GRANDCHILD_PID: String(grandchild), LP_QUOTED: 'two words' });
    expect(server.stdoutLines.at(-1)).toBe('stubborn ready');
    expect(alive(grandchild)).toBe(true);
    await server.stop();
    expect(alive(server.pid)).toBe(false);
    await expect.poll(() => alive(grandchild), { timeout: testWaitMs(2000) }).toBe(false);
  });

  it('kills with SIGKILL after the grace period a server that ignores SIGTERM', async () => {
    const server = await startServer({ script: FIXTURE, args: ['deaf'], ready: 'stubborn ready', stopGraceMs: 300 });
    const started = performance.now();
    const code = await server.stop();
    expect(code).toBeNull(); // ended by a signal
    expect(server.child.signalCode).toBe('SIGKILL');
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    expect(alive(server.pid)).toBe(false);
    expect(alive(Number(server.env.LP_GRANDCHILD_PID))).toBe(false);
  });

  it('a script without signal handlers that is interrupted stops its servers before it ends', async () => {
    const parent = await startServer({ script: 'test/tools/fixtures/parent-of-server.ts', ready: 'parent ready' });
    const pids = [Number(parent.env.LP_SERVER_PID), Number(parent.env.LP_GRANDCHILD_PID)];
    for (const pid of pids) expect(alive(pid)).toBe(true);
    process.kill(parent.pid, 'SIGINT'); // the parent alone, as a terminal's Ctrl-C reaches it
    expect(await parent.exited).toBeNull();
    expect(parent.child.signalCode).toBe('SIGINT');
    // Their parent is gone, so init reaps them: a moment later they are gone from the process table too.
    for (const pid of pids) await expect.poll(() => alive(pid), { timeout: testWaitMs(2000) }).toBe(false);
  });

  it('a script that never gets ready times out with a message naming the script and the line, and is stopped', async () => {
    const attempt = startServer({ script: FIXTURE, args: ['silent'], ready: 'stubborn ready', readyTimeoutMs: 1500, stopGraceMs: 500 });
    await expect(attempt).rejects.toThrow(`${FIXTURE} did not print "stubborn ready" within 1.5 s`);
  });

  it('a script that exits before it is ready names the script, the exit code and its stderr', async () => {
    const attempt = startServer({ script: 'sandbox/main.ts', args: ['--port', 'eighty'], ready: 'sandbox ready' });
    await expect(attempt).rejects.toThrow(/^sandbox\/main\.ts exited \(code 2\) before it was ready\n.*--port must be an integer/s);
  });
});
