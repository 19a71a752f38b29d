// CPU-seconds of processes as Linux's /proc tells them: a running process's own, and those of the children a process
// has waited for (with their worker threads). Undefined where /proc cannot tell. Used by the benchmarks and the soak.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticks: number | undefined;
/** Clock ticks a second of /proc's CPU times, asked of the system once, when first needed. */
const TICKS = () => (ticks ??= Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100);

/** Fields 14 on of /proc/<pid>/stat (utime, stime, cutime, cstime, ...), after the command name in parentheses. */
function statTimes(pid: number | 'self'): number[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .slice(11, 15)
      .map(Number);
  } catch {
    return undefined;
  }
}

/**
 * CPU-seconds of this process's children that have ended and been waited for, with theirs (cutime and cstime): a run's
 * processes once it ended, its worker threads included (threads count to their process). Undefined off Linux.
 */
export function endedChildrenCpuSeconds(): number | undefined {
  const times = statTimes('self');
  return times && (times[2]! + times[3]!) / TICKS();
}

/** CPU-seconds a running process has used (utime and stime), e.g. the sandbox's; undefined when /proc cannot tell. */
export function processCpuSeconds(pid: number): number | undefined {
  const times = statTimes(pid);
  return times && (times[0]! + times[1]!) / TICKS();
}

/** CPU-seconds of this process (the suite run in it, runner/run-suite.ts) and of its children that have ended. */
export function ownAndEndedChildrenCpuSeconds(): number | undefined {
  const times = statTimes('self');
  return times && (times[0]! + times[1]! + times[2]! + times[3]!) / TICKS();
}

/** The CPU a body's child processes cost (with `own`, this process's too: a suite run here), read from /proc around it. */
export async function measuringCpu<T>(body: () => Promise<T>, own = false): Promise<T & { cpuSeconds: number | undefined }> {
  const cpu = own ? ownAndEndedChildrenCpuSeconds : endedChildrenCpuSeconds;
  const before = cpu();
  const result = await body();
  const after = cpu();
  return { ...result, cpuSeconds: before === undefined || after === undefined ? undefined : after - before };
}

/** The machine's CPU time so far as /proc/stat counts it, all cores together: in total, and stolen by the host. */
export interface MachineTicks {
  total: number;
  steal: number;
}

/** The machine's ticks now (undefined off Linux): a virtual machine's host may run others on its cores meanwhile. */
export function machineTicks(): MachineTicks | undefined {
  try {
    const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
    // user nice system idle iowait irq softirq steal (guest time is counted in user already).
    const times = fields.slice(0, 8).map(Number);
    return { total: times.reduce((sum, t) => sum + t, 0), steal: times[7] ?? 0 };
  } catch {
    return undefined;
  }
}

/** The share of the machine's CPU time the host took between two readings (0 to 1), undefined when either is missing. */
export function stealShare(before: MachineTicks | undefined, after: MachineTicks | undefined): number | undefined {
  if (!before || !after || after.total <= before.total) return undefined;
  return (after.steal - before.steal) / (after.total - before.total);
}
