// tools/process-cpu.ts on this machine's own /proc: the CPU-seconds of a child that ended are counted once it has been
// waited for, and the host's share of the machine (steal) is a share of the ticks that passed, from 0 to 1.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { endedChildrenCpuSeconds, machineTicks, stealShare } from '../../tools/process-cpu.ts';

const linux = existsSync('/proc/stat');

describe.skipIf(!linux)('CPU as /proc tells it (skipped: this system has no /proc)', () => {
  it("counts a child's CPU once it ended", () => {
    const before = endedChildrenCpuSeconds()!;
    // A child that spins for a quarter of a second of its own CPU, however busy the machine is.
    spawnSync(process.execPath, ['-e', 'const t = process.cpuUsage(); while (process.cpuUsage(t).user < 250_000);']);
    expect(endedChildrenCpuSeconds()! - before).toBeGreaterThanOrEqual(0.2);
  });

  it("gives the host's share of the ticks that passed, and none without two readings", () => {
    const before = machineTicks()!;
    const spin = process.cpuUsage();
    while (process.cpuUsage(spin).user < 50_000);
    const after = machineTicks()!;
    expect(after.total).toBeGreaterThan(before.total);
    expect(after.steal).toBeGreaterThanOrEqual(before.steal);
    const share = stealShare(before, after)!;
    expect(share).toBeGreaterThanOrEqual(0);
    expect(share).toBeLessThanOrEqual(1);
    expect(stealShare({ total: 100, steal: 10 }, { total: 300, steal: 60 })).toBe(0.25);
    expect(stealShare(undefined, after)).toBeUndefined();
    expect(stealShare(after, after), 'no time passed').toBeUndefined();
  });
});
