// The one way the kit runs its own servers (the mock, the sandbox, the docs server) as child processes: start the
// script, wait for its ready line, read its LP_* lines, and stop it: SIGTERM, then SIGKILL after a grace period.
// Each server runs in its own process group, so a stop also reaches what it started (Prism under the mock), and a
// server still running when this process exits is killed rather than left behind.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../spec-core/apis.ts';
import { parseLpLines, withoutLpVariables } from '../config/environment.ts';

/**
 * The arguments that make `node` run one of the kit's TypeScript scripts in a single process from any directory (a bare
 * `--import tsx` resolves from the working directory, which fails in a throwaway repo; the tsx CLI starts a second node).
 */
const tsxScriptArgs = (script: string, ...args: string[]): string[] => [
  '--import',
  pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href,
  '--',
  script,
  ...args,
];

/** Runs one of the kit's scripts to completion in `cwd` (a minute at most): its exit code and its stdout then stderr. */
export function runScript(script: string, args: string[], cwd: string): { code: number | null; out: string } {
  const result = spawnSync(process.execPath, tsxScriptArgs(script, ...args), { cwd, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

export const DEFAULT_READY_TIMEOUT_MS = 60_000;
export const DEFAULT_STOP_GRACE_MS = 5_000;
/** What a server may print before it is ready, and what a stopped server's stderr keeps: enough for any error. */
const MAX_KEPT_OUTPUT = 64 * 1024;

export interface StartServerOptions {
  /** Path from the repository root, run as `node --import tsx -- <script>` (one process, so signals reach the server). */
  script: string;
  args?: string[];
  /** Added to the environment. The caller's LP_* variables are dropped unless `keepLpVariables`. */
  env?: Record<string, string>;
  keepLpVariables?: boolean;
  /** A line of stdout that means ready (exact, after trimming), or a pattern matched against stdout and stderr. */
  ready: string | RegExp;
  readyTimeoutMs?: number;
  stopGraceMs?: number;
  /** Runs once the process has exited after stop() (e.g. removes a temp dir). */
  onStopped?: () => void;
}

export interface RunningServer {
  child: ChildProcess;
  pid: number;
  /** The LP_* lines printed before the ready line, parsed. */
  env: Record<string, string>;
  /** stdout up to and including the ready line. */
  stdoutLines: string[];
  /** The ready pattern's match (for a RegExp `ready`). */
  readyMatch: RegExpExecArray | undefined;
  /** The last 64 KiB of stderr so far. */
  stderr(): string;
  /** The last 64 KiB of stdout so far, the ready line and what followed it included. */
  stdoutTail(): string;
  /** Resolves with the exit code (null when ended by a signal) once the process has exited, however it ended. */
  exited: Promise<number | null>;
  /** Ends the process (and its group); resolves with its exit code (null when ended by a signal). Safe to call twice. */
  stop(): Promise<number | null>;
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Signals the child's process group; the child itself when it has no group any more. */
function signal(child: ChildProcess, name: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, name);
  } catch {
    try {
      child.kill(name);
    } catch {
      // already gone
    }
  }
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** SIGTERM to the process group, SIGKILL after `graceMs`; resolves with the exit code once the child has exited. */
export function stopProcess(child: ChildProcess, graceMs = DEFAULT_STOP_GRACE_MS): Promise<number | null> {
  if (hasExited(child)) {
    signal(child, 'SIGKILL'); // whatever it started and left behind
    return Promise.resolve(child.exitCode);
  }
  return new Promise((resolve) => {
    const force = setTimeout(() => signal(child, 'SIGKILL'), graceMs);
    child.once('exit', (code) => {
      clearTimeout(force);
      signal(child, 'SIGKILL'); // grandchildren that outlived it
      resolve(code);
    });
    signal(child, 'SIGTERM');
  });
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Only synchronous work runs at exit: a SIGKILL to every group still running.
  process.on('exit', () => {
    for (const child of running) signal(child, 'SIGKILL');
  });
  // The servers have process groups of their own, so Ctrl-C in a terminal reaches only this process. A script with
  // its own handler stops them itself (then exits, and the hook above catches the rest); without one, stop them here
  // and end the way the signal would have ended this process.
  for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = () => {
      if (process.listenerCount(name) > 1) return;
      void stopAllServers().then(() => {
        process.removeListener(name, onSignal);
        process.kill(process.pid, name);
      });
    };
    process.on(name, onSignal);
  }
}

function tail(text: string): string {
  return text.length > MAX_KEPT_OUTPUT ? text.slice(-MAX_KEPT_OUTPUT) : text;
}

/**
 * Whether the output says the server is ready: the lines of stdout and the index of the one that said it (a pattern
 * found in stdout or stderr counts at stdout's last line), with the pattern's match.
 */
function readiness(stdout: string, stderr: string, ready: string | RegExp) {
  const lines = stdout.split('\n');
  if (typeof ready === 'string') {
    // A whole line: the last one may still be arriving.
    const readyAt = lines.findIndex((line, index) => index < lines.length - 1 && line.trim() === ready);
    return readyAt === -1 ? undefined : { lines, readyAt, match: undefined };
  }
  const match = ready.exec(stdout) ?? ready.exec(stderr) ?? undefined;
  return match ? { lines, readyAt: lines.length - 1, match } : undefined;
}

/** Starts a server script and resolves once it is ready; rejects (after stopping it) when it exits or times out first. */
export function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { script, ready } = options;
  const timeoutMs = options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
  const baseEnv = options.keepLpVariables ? process.env : withoutLpVariables();
  const child = spawn(process.execPath, ['--import', 'tsx', '--', script, ...(options.args ?? [])], {
    cwd: repoRoot,
    env: { ...baseEnv, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group: stop() reaches its children too
  });
  running.add(child);
  installExitHook();
  let stopping: Promise<number | null> | undefined;
  const stop = () =>
    (stopping ??= stopProcess(child, options.stopGraceMs).then((code) => {
      running.delete(child);
      options.onStopped?.();
      return code;
    }));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );

  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = tail(stderr + chunk.toString());
  });
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const output = stderr.trim() ? `\n${stderr.trim().slice(-2000)}` : '';
      void stop().then(() => reject(new Error(`${script} ${why}${output}`)));
    };
    const describe = typeof ready === 'string' ? `print "${ready}"` : `print a line matching ${ready}`;
    const timer = setTimeout(() => fail(`did not ${describe} within ${timeoutMs / 1000} s`), timeoutMs);
    const check = () => {
      if (settled) return;
      const found = readiness(stdout, stderr, ready);
      if (!found) {
        if (stdout.length > MAX_KEPT_OUTPUT) fail(`printed more than ${MAX_KEPT_OUTPUT} bytes without getting ready`);
        return;
      }
      settled = true;
      clearTimeout(timer);
      const stdoutLines = found.lines.slice(0, found.readyAt + 1);
      resolve({
        child,
        pid: child.pid!,
        env: parseLpLines(stdoutLines.join('\n')),
        stdoutLines,
        readyMatch: found.match,
        stderr: () => stderr,
        stdoutTail: () => stdout,
        exited,
        stop,
      });
    };
    child.stdout!.on('data', (chunk: Buffer) => {
      // Before ready, all of it (bounded by the check); after, the tail only.
      stdout = settled ? tail(stdout + chunk.toString()) : stdout + chunk.toString();
      check();
    });
    if (typeof ready !== 'string') child.stderr!.on('data', check);
    child.once('error', (error) => fail(`could not be started: ${error.message}`));
    child.once('exit', (code, signalName) => fail(`exited (${signalName ?? `code ${code}`}) before it was ready`));
  });
}

/** Stops every server this process started and has not stopped yet. */
export function stopAllServers(): Promise<unknown> {
  return Promise.all([...running].map((child) => stopProcess(child)));
}
