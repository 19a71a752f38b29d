// The servers stop with their npm script, held the way a CI step or a script holds it: `npm run <server> &` keeps npm's
// pid, and a stop is one signal to that pid only (not to the process group, as a terminal's Ctrl-C would send it). npm
// passes SIGINT and SIGTERM to its child, which must be the server itself: package.json starts each with `exec node`,
// since a `sh -c` in between (npm runs every script through one) would die of the signal and leave the server running
// on its port. Each case: the port is free (a connect is refused) within 2 s, no process of npm's group is left (Prism
// under the mock included), and the server shut down gracefully (it exited 0, so npm did).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../spec-core/apis.ts';
import { withoutLpVariables } from '../../config/environment.ts';
import { testWaitMs } from '../../config/test-waits.ts';

/** The promise: killing `npm run sandbox` by its pid frees its port within 2 s (on the reference machine). */
const FREED_WITHIN_MS = testWaitMs(2_000);
/** npm, tsx and (for the mock) Prism start on a small, busy machine. */
const READY_TIMEOUT_MS = testWaitMs(60_000);

const docsDir = mkdtempSync(join(tmpdir(), 'lp-docs-serve-'));
writeFileSync(join(docsDir, 'index.html'), '<!doctype html><title>docs</title>\n');

type Case = {
  script: string;
  args: string[];
  signal: 'SIGTERM' | 'SIGINT';
  /** npm's pid alone (a CI step, `kill $!`), or its whole group (a terminal's Ctrl-C: npm passes it on once more). */
  to: 'npm' | 'group';
  /** The port the server printed, from its stdout so far (undefined until it is ready). */
  port(stdout: string): number | undefined;
  /** What its stderr says once it has shut down gracefully, when it says anything. */
  goodbye?: RegExp;
};

const lpPort = (ready: string) => (stdout: string) => {
  const match = /^LP_BASE_URL=http:\/\/127\.0\.0\.1:(\d+)(\/\S*)?$/m.exec(stdout);
  return match && new RegExp(`^${ready}$`, 'm').test(stdout) ? Number(match[1]) : undefined;
};

const sandbox = { script: 'sandbox', args: ['--port', '0'], port: lpPort('sandbox ready') };
const mock = { script: 'mock', args: ['--port', '0'], port: lpPort('mock ready') };
// One start per server and signal path, each a few CPU-seconds of npm test (the mock starts Prism): the sandbox by its
// pid (what a CI step holds), the mock by a terminal's Ctrl-C to its whole group (npm passes it on once more, so it
// arrives twice), the docs server by SIGINT to its pid; the mock by its pid is the last case, while Prism starts.
const CASES: Case[] = [
  { ...sandbox, signal: 'SIGTERM', to: 'npm', goodbye: /"signal":"SIGTERM".*"shutting down"/ },
  { ...mock, signal: 'SIGINT', to: 'group' },
  {
    script: 'docs:serve',
    args: ['--port', '0', '--dir', docsDir],
    signal: 'SIGINT',
    to: 'npm',
    port: (stdout) => Number(/^Serving .* at http:\/\/127\.0\.0\.1:(\d+)\//m.exec(stdout)?.[1]) || undefined,
  },
];

/** The live processes of a process group (zombies aside: they hold no port and wait only to be reaped). */
function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) === pgid && state !== 'Z') members.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return members;
}

/** The command line of a process ('' once it is gone). */
function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** Prism under the mock: its own port and the folder of the document it serves (the mock's temp dir). */
function prismOf(members: number[]): { port: number; dir: string } | undefined {
  for (const pid of members) {
    const match = /prism-cli\S* mock (\S+)\/[^/\s]+ --port (\d+)/.exec(commandLine(pid));
    if (match) return { dir: match[1]!, port: Number(match[2]) };
  }
  return undefined;
}

/**
 * Resolves true when a TCP connect to the port succeeds, false when it is refused. A reset counts as accepted: the
 * kernel took the connection into the backlog of a listener that closed before the server accepted it.
 */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED') resolve(false);
      else if (error.code === 'ECONNRESET') resolve(true);
      else reject(error);
    });
  });
}

const started: ChildProcess[] = [];
afterAll(() => {
  // Whatever a failed case left behind: its whole group.
  for (const child of started) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // gone
    }
  }
  rmSync(docsDir, { recursive: true, force: true });
});

/** `npm run <script> -- <args>` in a process group of its own (so the test can list it and clean up). */
function spawnNpmScript(script: string, args: string[]) {
  const npm = spawn('npm', ['run', script, '--', ...args], {
    cwd: repoRoot,
    env: withoutLpVariables(),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  started.push(npm);
  const exit = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
  let stdout = '';
  let stderr = '';
  npm.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  npm.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return { npm, pgid: npm.pid!, exit, stdout: () => stdout, stderr: () => stderr };
}

/** Resolves with the server's port once it is ready (its port line printed). */
function startNpmScript(entry: Case) {
  const started = spawnNpmScript(entry.script, entry.args);
  return new Promise<typeof started & { port: number }>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm run ${entry.script} was not ready within ${READY_TIMEOUT_MS / 1000} s\n${started.stderr()}`)),
      READY_TIMEOUT_MS,
    );
    started.npm.stdout!.on('data', () => {
      const port = entry.port(started.stdout());
      if (port === undefined) return;
      clearTimeout(timer);
      resolve({ ...started, port });
    });
    void started.exit.then((code) =>
      reject(new Error(`npm run ${entry.script} exited (${code}) before it was ready\n${started.stderr()}`)),
    );
  });
}

describe.concurrent.each(
  CASES.map((entry) => [`npm run ${entry.script}`, entry.signal, entry.to === 'npm' ? 'by its pid' : 'to its group', entry] as const),
)('%s, sent %s %s', { timeout: READY_TIMEOUT_MS + 10_000 }, (_, signal, __, entry) => {
  it(`frees its port within ${FREED_WITHIN_MS / 1000} s and leaves no process of its group`, async ({ expect, annotate }) => {
    const { npm, pgid, port, stderr, exit } = await startNpmScript(entry);
    expect(await accepts(port)).toBe(true);
    const before = groupMembers(pgid);
    expect(before.length).toBeGreaterThanOrEqual(2); // npm and the server at least
    const prism = entry.script === 'mock' ? prismOf(before) : undefined;
    if (entry.script === 'mock') expect(prism, 'Prism in the group of npm run mock').toBeDefined();

    const sentAt = performance.now();
    process.kill(entry.to === 'npm' ? npm.pid! : -pgid, signal);
    let freedAfter: number | undefined;
    while (performance.now() - sentAt < FREED_WITHIN_MS + 1_000) {
      if (!(await accepts(port))) {
        freedAfter = performance.now() - sentAt;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(freedAfter, `port ${port} still accepted connections ${FREED_WITHIN_MS + 1_000} ms after ${signal}`).toBeDefined();
    expect(freedAfter!).toBeLessThan(FREED_WITHIN_MS);
    await annotate(`port free ${Math.round(freedAfter!)} ms after ${signal}`);

    // Nothing of the group is left: a wait of its own, not what the port left of the 2 s (100 ms when it came late).
    await expect.poll(() => groupMembers(pgid), { timeout: FREED_WITHIN_MS, interval: 20 }).toEqual([]);
    // Graceful: the server handled the signal and exited 0, and npm with it; the mock stopped Prism and removed its
    // temp dir, the sandbox logged its shutdown. npm is gone from the group already: its exit is on its way.
    expect(await Promise.race([exit, new Promise((resolve) => setTimeout(() => resolve('still running'), testWaitMs(5_000)))])).toBe(0);
    if (prism) {
      expect(await accepts(prism.port)).toBe(false);
      expect(existsSync(prism.dir), prism.dir).toBe(false);
    }
    if (entry.goodbye) expect(stderr()).toMatch(entry.goodbye);
  });
});

it('npm run mock, sent SIGTERM by its pid while Prism starts, stops Prism and leaves no process of its group', {
  timeout: READY_TIMEOUT_MS,
}, async () => {
  const { npm, pgid, exit, stdout } = spawnNpmScript('mock', ['--port', '0']);
  await expect.poll(() => prismOf(groupMembers(pgid)), { timeout: READY_TIMEOUT_MS - 5_000, interval: 20 }).toBeDefined();
  const prism = prismOf(groupMembers(pgid))!;
  process.kill(npm.pid!, 'SIGTERM');
  await expect.poll(() => groupMembers(pgid), { timeout: FREED_WITHIN_MS, interval: 20 }).toEqual([]);
  expect(await exit).toBe(0);
  expect(stdout()).not.toContain('mock ready');
  expect(existsSync(prism.dir), prism.dir).toBe(false);
});
