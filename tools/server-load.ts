// Shared by bench:servers and soak: start a server script as a child process, load it with
// autocannon, and read its RSS and CPU time from /proc.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { repoRoot } from '../spec-core/apis.ts';

export type AutocannonResult = {
  requests: { average: number; total: number };
  throughput: { total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
};
type Autocannon = (options: { url: string; connections: number; duration: number; headers?: Record<string, string> }) => Promise<AutocannonResult>;
// autocannon ships no types; this is the part of its API we use.
export const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export type Server = { child: ChildProcess; env: Record<string, string>; stop: () => Promise<void> };
const started: Server[] = [];

/** Starts `node --import tsx -- script` and resolves when it prints readyLine; output other than LP_* lines is dropped. */
export function start(script: string, args: string[], readyLine: string): Promise<Server> {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('LP_')) env[name] = value; // sandbox defaults, not your credentials
  const child = spawn(process.execPath, ['--import', 'tsx', '--', script, ...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'ignore'] });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(force);
  };
  const server: Server = { child, env: {}, stop };
  started.push(server);
  return new Promise((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`${script} not ready within 120 s`)), 120_000);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (!stdout.split('\n').includes(readyLine)) return;
      clearTimeout(timer);
      for (const match of stdout.matchAll(/^(LP_\w+)=(.*)$/gm)) server.env[match[1]!] = match[2]!;
      resolve(server);
    });
  });
}

/** Stops every server started here. */
export function stopAll(): Promise<unknown> {
  return Promise.all(started.map((server) => server.stop()));
}

/** For scripts: on SIGINT or SIGTERM, stop the servers first, then exit. */
export function stopAllOnSignals(): void {
  process.on('SIGINT', () => void stopAll().then(() => process.exit(130)));
  process.on('SIGTERM', () => void stopAll().then(() => process.exit(143)));
}

export function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Math.round(Number(line?.match(/\d+/)?.[0] ?? 0) / 1024);
}

/** CPU seconds (user + system) a process has used so far. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}
