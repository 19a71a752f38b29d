// A V8 CPU profile of this process while the suite runs in it (LP_CONTRACT_CPU_PROF): what the vitest child's
// --cpu-prof wrote when the suite ran in a process of its own. Its worker threads write theirs (support/project-options.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

/** Starts profiling into `dir` (nothing without one, or when the process writes its own with --cpu-prof); answers the stop. */
export async function profilingCpu(dir: string | undefined): Promise<() => Promise<void>> {
  if (!dir || process.execArgv.some((arg) => arg.startsWith('--cpu-prof'))) return async () => {};
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `CPU.suite.${process.pid}.${Date.now()}.cpuprofile`), JSON.stringify(profile));
  };
}
