// Shared by bench:servers, soak and sandbox:memory: start a server script (tools/processes.ts), load it with
// autocannon, and read its RSS and CPU time from /proc.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { processCpuSeconds } from './process-cpu.ts';
import { type RunningServer, startServer, stopAllServers } from './processes.ts';

export type AutocannonResult = {
  requests: { average: number; total: number };
  throughput: { total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
};
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
}) => Promise<AutocannonResult>;
// autocannon ships no types; this is the part of its API we use.
export const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** The --connections option of the load scripts (bench:servers, soak). */
export const CONNECTIONS_OPTION = { type: 'string', value: 'N', description: 'Load connections, 1-200.', default: '10' } as const;

/** Starts a server script (tools/processes.ts) and resolves when it prints readyLine; bench runs may take their time. */
export function start(script: string, args: string[], readyLine: string): Promise<RunningServer> {
  return startServer({ script, args, ready: readyLine, readyTimeoutMs: 120_000, stopGraceMs: 10_000 });
}

/** For scripts: on SIGINT or SIGTERM, stop the servers first, then exit. */
export function stopAllOnSignals(): void {
  process.on('SIGINT', () => void stopAllServers().then(() => process.exit(130)));
  process.on('SIGTERM', () => void stopAllServers().then(() => process.exit(143)));
}

export function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Math.round(Number(line?.match(/\d+/)?.[0] ?? 0) / 1024);
}

/** CPU seconds (user + system) a process has used so far (0 where /proc cannot tell). */
export const cpuSeconds = (pid: number): number => processCpuSeconds(pid) ?? 0;
