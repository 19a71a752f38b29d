// `npm run contract:live` as a partner's CI runs it, for the suite's self-tests: `scripts/contract.ts --target live`
// in a child process with the given LP_* settings and nothing of the outer run's LP_* environment, its output, exit
// code and reports.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../../spec-core/apis.ts';
import { readJsonFile } from '../report/run-files.ts';
import type { AssumptionReportRow } from '../report/report-model.ts';
import type { TransportStats } from '../send/transport.ts';
import { testWaitMs } from '../../config/test-waits.ts';
import { BUNDLED_SCRIPT } from '../../config/environment.ts';

export interface LiveRun {
  exitCode: number;
  output: string;
  assumptions: AssumptionReportRow[];
  /** What the run's requests met (transport.json), when the run got that far. */
  transport?: TransportStats;
}

/** The deadlines only catch a run that hangs: a run's verdict never depends on how fast it went. A run of some files
 * takes 10 to 30 s on the reference machine; a run of the whole suite (every file, the workflows after it) with one
 * worker, four side by side on two cores, about a minute, and once took over four minutes on a machine busy with other
 * work. Both are given ten times what they need. */
export const LIVE_RUN_TIMEOUT_MS = testWaitMs(300_000);
export const WHOLE_RUN_TIMEOUT_MS = testWaitMs(600_000);

/** Runs the live suite on `files` (or all) with `settings` as its only LP_* variables; reports go to `dir`. The
 * documented flows as workflows are left out (--no-workflows) unless `workflows` is set: the suite's self-tests judge
 * the suite, and test/workflows/ the workflows of a live run. `onOutput` is told of the output so far whenever more comes
 * (to note what a fixture had seen by the time a line was printed). */
export function contractLive(
  settings: Record<string, string | undefined>,
  dir: string,
  args: string[],
  files: string[] = [],
  {
    workflows = false,
    onOutput,
    timeoutMs = LIVE_RUN_TIMEOUT_MS,
  }: { workflows?: boolean; onOutput?: (text: string) => void; timeoutMs?: number } = {},
): Promise<LiveRun> {
  const env: Record<string, string | undefined> = {};
  // Nor the outer run's GitHub Actions settings: a self-test's seeded violations must not annotate the CI run itself.
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('LP_') && !name.startsWith('GITHUB_')) env[name] = value;
  // One worker: these runs share the machine with the rest of npm test, and their verdicts do not depend on it.
  Object.assign(env, { LP_CONTRACT_WORKERS: '1' }, settings);
  const child = spawn(
    process.execPath,
    [
      ...[...BUNDLED_SCRIPT, 'scripts/contract.ts', '--target', 'live', '--out', dir, ...(workflows ? [] : ['--no-workflows'])],
      ...[...args, ...(files.length ? ['--', ...files] : [])],
    ],
    { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    onOutput?.(output);
  });
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) => {
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({
        exitCode: code ?? 1,
        output,
        assumptions: readJsonFile<{ assumptions: AssumptionReportRow[] }>(join(dir, 'assumptions.json'))?.assumptions ?? [],
        transport: readJsonFile<{ stats: TransportStats }>(join(dir, 'transport.json'))?.stats,
      });
    });
  });
}

export const verdictLine = (run: LiveRun) =>
  run.output.split('\n').find((line) => line.startsWith('contract verdict:')) ?? '(no verdict line)';

export const contradictedNames = (run: LiveRun) =>
  run.assumptions
    .filter((a) => a.outcome === 'contradicted')
    .map((a) => a.what)
    .sort();
