// Benchmark, not a test: wall time of the contract suite per target (mock, sandbox), and dredd against the same
// sandbox in the same run, with checks per second of each. Goal: the whole suite under 30 s against the sandbox.
// Distance (`--only distance`): `contract:live` against a sandbox behind one delaying proxy (the real-environment
// proxy), its latency switched between runs of one session: 0 ms (loopback through the proxy), 50 ms and 200 ms,
// interleaved round by round so the machine's load falls on each alike. Goals: 200 ms within 20 s and within 1.2x the
// loopback time, 50 ms within 1.3x it, and at most 3 ms of CPU per exchange. Each row also states what the run itself
// reports (round trip, in flight, chain, bound and ratio) and the CPU it cost: the suite's processes (the runner, its
// vitest and vitest's worker threads: every process the run started, once it ended), per 1,000 requests, beside the
// sandbox's own.
// Identity-provider limit (`--only idp-limit`): `contract:live` against a sandbox behind the same proxy, with an
// Okta-style limit on its identity provider (`/idp`: 20 requests a second, bursts of 10, 429 with X-Rate-Limit-* and no
// Retry-After) and, interleaved in the same session, without it. Goals: the limited run passes, takes at most 1.3x the
// bound (its identity-provider requests at 20 a second, plus the unlimited run's time), and fewer than 5% of its
// identity-provider requests are answered 429.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../spec-core/apis.ts';
import type { SuiteRun } from '../contract-tests/runner/run-suite.ts';
import { startMock, startSandbox, type TargetServer } from '../tools/targets.ts';
import type { TargetName } from '../contract-tests/send/target.ts';
import { integerOption, parseCommandLine, usageError } from '../config/cli.ts';
import { cpuProfileOptions, strictByDefault, BUNDLED_SCRIPT } from '../config/environment.ts';
import { machineTicks, measuringCpu, processCpuSeconds, stealShare } from '../tools/process-cpu.ts';
import { throughProxy } from '../contract-tests/fixtures/contradicting-proxy.ts';
import { startRealEnvironmentProxy } from '../contract-tests/fixtures/real-environment-proxy.ts';
import { readJsonFile } from '../contract-tests/report/run-files.ts';
import type { RunPace } from '../contract-tests/send/transport.ts';

const SANDBOX_GOAL_SECONDS = 30;
const FAR_GOAL_SECONDS = 20;
const FAR_GOAL_RATIO = 1.2;
const NEAR_GOAL_RATIO = 1.3;
/** CPU of the suite's processes per exchange, against a correct server. */
const CPU_GOAL_MS = 3;
const LATENCIES_MS = [0, 50, 200];
/** The limit a partner's Okta put on its identity provider. */
const OKTA_LIMIT = { pathPrefix: '/idp', perSecond: 20, burst: 10 };
const IDP_GOAL_RATIO = 1.3;
/** A run longer than this prints a progress line at least this often in a log (runner/progress.ts: every 10 s). */
const PROGRESS_GOAL_S = 10;
const IDP_GOAL_LIMITED_SHARE = 0.05;

interface Row {
  tool: string;
  target: string;
  seconds: number;
  /** CPU-seconds of the processes it started (undefined where /proc cannot tell). */
  cpuSeconds?: number | undefined;
  checks: number;
  responses?: number;
  failed: number;
}

/** CPU ms per exchange (= CPU-seconds per 1,000 exchanges), or "?". */
const perExchange = (cpuSeconds: number | undefined, requests: number | undefined) =>
  cpuSeconds === undefined || !requests ? '?' : ((1000 * cpuSeconds) / requests).toFixed(2);

async function withServer<T>(start: () => Promise<TargetServer>, body: (server: TargetServer) => Promise<T>): Promise<T> {
  const started = performance.now();
  const server = await start();
  console.log(`  (server up in ${((performance.now() - started) / 1000).toFixed(1)} s, not counted)`);
  try {
    return await body(server);
  } finally {
    await server.stop();
  }
}

/**
 * The suite's and dredd's runners, loaded after the options: their modules read the bundles as they load (building them
 * in a fresh clone), which --help need not wait for.
 */
const runners = async () => {
  const [{ dreddAgainst }, { runSuite }, { readLedger }, { runSettingsOf }] = await Promise.all([
    import('../contract-tests/dredd/run-dredd.ts'),
    import('../contract-tests/runner/run-suite.ts'),
    import('../contract-tests/report/run-files.ts'),
    import('../contract-tests/send/run-settings.ts'),
  ]);
  return { dreddAgainst, runSuite, readLedger, runSettingsOf };
};

async function suite(target: TargetName, server: TargetServer): Promise<Row> {
  const { runSuite, readLedger, runSettingsOf } = await runners();
  const outputDir = join(repoRoot, 'dist/contract/bench', target);
  rmSync(outputDir, { recursive: true, force: true });
  const run: SuiteRun & { cpuSeconds: number | undefined } = await measuringCpu(
    () =>
      runSuite({
        // Strict as `npm run contract` has these targets (the mock and the sandbox always are).
        settings: {
          ...runSettingsOf({ ...server.env, LP_CONTRACT_TARGET: target, LP_CONTRACT_OUT: outputDir }),
          strictAssumptions: strictByDefault(target, server.env),
        },
        vitestArgs: ['--exclude', 'contract-tests/self/**'],
      }),
    true,
  );
  const responses = readLedger(join(outputDir, '.ledger')).filter((e) => e.kind === 'exchange').length;
  return {
    tool: 'vitest suite',
    target,
    seconds: run.seconds,
    cpuSeconds: run.cpuSeconds,
    checks: run.passed + run.failed,
    responses,
    failed: run.failed,
  };
}

const CLI = {
  command: 'npm run bench:contract --',
  summary:
    'Benchmark, not a test: wall time of the contract suite against the mock and the sandbox, and of dredd against the same sandbox, with checks per second of each; and contract:live against a sandbox 0, 50 and 200 ms away through one delaying proxy.',
  options: {
    only: {
      type: 'string',
      value: 'PART',
      description:
        'Run one part: targets (mock, sandbox, dredd), distance (0, 50, 200 ms away) or idp-limit (an Okta-style limit on the identity provider, and none).',
    },
    rounds: {
      type: 'string',
      value: 'N',
      description: 'Distance and idp-limit: runs of each kind, interleaved (default 1; the median is kept).',
    },
    fixed: {
      type: 'boolean',
      description: 'Distance: also runs with 8 in flight and 3 workers at each latency (the fixed bounds of old).',
    },
    'cpu-prof': {
      type: 'string',
      value: 'DIR',
      description:
        'Distance: each run writes V8 CPU profiles of its processes and worker threads under DIR/<latency>-round<N> (LP_CONTRACT_CPU_PROF); profiling costs CPU too, so its figures run high.',
    },
  },
} as const;

interface DistanceRow {
  label: string;
  latencyMs: number;
  /** The whole `contract:live` command, preflight and reports included. */
  seconds: number[];
  /** What the run itself reports ("target live took N s wall time": vitest's run of the checks). */
  suiteSeconds: number[];
  /** CPU-seconds of the run's processes (the runner, vitest and its worker threads), per 1,000 of its requests. */
  cpuPerThousand: number[];
  /** The same of the sandbox answering it. */
  serverCpuPerThousand: number[];
  /** The share of the machine's CPU time its host took during the run (a virtual machine's neighbours), 0 to 1. */
  steal: number[];
  exitCodes: number[];
  pace?: RunPace;
  requests?: number;
  workers?: string;
}

/** `contract:live` as a partner runs it, in a child process with `settings` as its only LP_* variables; the suite
 * alone (--no-workflows): the Arazzo workflows after it go through Redocly Respect, whose requests the suite does not pace. */
function liveRun(
  settings: Record<string, string>,
  out: string,
  args: string[],
): Promise<{
  code: number;
  output: string;
  seconds: number;
  longestSilence: number;
  progressLines: number;
  cpuSeconds: number | undefined;
}> {
  return measuringCpu(() => liveChild(settings, out, args));
}

function liveChild(
  settings: Record<string, string>,
  out: string,
  args: string[],
): Promise<{ code: number; output: string; seconds: number; longestSilence: number; progressLines: number }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('LP_')));
  const started = performance.now();
  const child = spawn(
    process.execPath,
    // LP_CONTRACT_CPU_PROF: contract.ts's own profile beside those of vitest and its workers.
    [...cpuProfileOptions(settings), ...BUNDLED_SCRIPT, 'scripts/contract.ts', '--target', 'live', '--no-workflows', '--out', out, ...args],
    {
      cwd: repoRoot,
      env: { ...env, ...settings },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  // When each line of the suite phase came (its start, its progress lines, its end): the longest silence in a log.
  const suiteLines: number[] = [];
  const take = (chunk: Buffer) => {
    const text = chunk.toString();
    output += text;
    for (const line of text.split('\n')) if (line.startsWith('contract: suite: ')) suiteLines.push(performance.now());
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      const gaps = suiteLines.slice(1).map((at, i) => (at - suiteLines[i]!) / 1000);
      resolve({
        code: code ?? 1,
        output,
        seconds: (performance.now() - started) / 1000,
        longestSilence: Math.max(0, ...gaps),
        progressLines: Math.max(0, suiteLines.length - 2),
      });
    }),
  );
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return Number.isInteger(middle) ? (sorted[middle - 1]! + sorted[middle]!) / 2 : sorted[Math.floor(middle)]!;
}

/** The distance rows: each latency (and, with --fixed, each with the old fixed bounds), `rounds` times, interleaved. */
async function distance(rounds: number, fixed: boolean, cpuProf: string | undefined): Promise<DistanceRow[]> {
  const sandbox = await startSandbox();
  const upstream = new URL(sandbox.env.LP_BASE_URL!).origin;
  const proxy = await startRealEnvironmentProxy(upstream);
  const settings = throughProxy(sandbox.env as Record<string, string>, upstream, proxy.origin);
  const kinds = [
    { label: 'adaptive', args: [] as string[] },
    ...(fixed ? [{ label: 'fixed: 8 in flight, 3 workers', args: ['--concurrency', '8', '--workers', '3'] }] : []),
  ];
  const rows: DistanceRow[] = LATENCIES_MS.flatMap((latencyMs) =>
    kinds.map((kind) => ({
      label: kind.label,
      latencyMs,
      seconds: [],
      suiteSeconds: [],
      cpuPerThousand: [],
      serverCpuPerThousand: [],
      steal: [],
      exitCodes: [],
    })),
  );
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const row of rows) {
        proxy.configure({ latencyMs: row.latencyMs });
        const out = join(repoRoot, 'dist/contract/bench', `distance-${row.latencyMs}`);
        rmSync(out, { recursive: true, force: true });
        const serverBefore = processCpuSeconds(sandbox.pid);
        const machineBefore = machineTicks();
        const profile: Record<string, string> = cpuProf ? { LP_CONTRACT_CPU_PROF: join(cpuProf, `${row.latencyMs}ms-round${round}`) } : {};
        const run = await liveRun({ ...settings, ...profile }, out, kinds.find((k) => k.label === row.label)!.args);
        const serverAfter = processCpuSeconds(sandbox.pid);
        const steal = stealShare(machineBefore, machineTicks());
        row.steal.push(steal ?? Number.NaN);
        row.seconds.push(run.seconds);
        row.suiteSeconds.push(Number(/took ([\d.]+) s wall time/.exec(run.output)?.[1] ?? Number.NaN));
        row.exitCodes.push(run.code);
        const stats = readJsonFile<{ stats: { requests: number; pace?: RunPace } }>(join(out, 'transport.json'))?.stats;
        if (stats?.pace) row.pace = stats.pace;
        row.requests = stats?.requests;
        const perThousand = (cpu: number | undefined) =>
          cpu === undefined || !stats?.requests ? Number.NaN : (1000 * cpu) / stats.requests;
        row.cpuPerThousand.push(perThousand(run.cpuSeconds));
        row.serverCpuPerThousand.push(
          perThousand(serverBefore === undefined || serverAfter === undefined ? undefined : serverAfter - serverBefore),
        );
        row.workers = /(\d+) test files run side by side/.exec(run.output)?.[1] ?? (row.label === 'adaptive' ? '?' : '3');
        console.log(
          `  round ${round}, ${row.latencyMs} ms, ${row.label}: ${run.seconds.toFixed(1)} s, ${perExchange(run.cpuSeconds, stats?.requests)} ms of CPU per request, ${row.workers} workers, load ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores${stealNote(steal)}, exit ${run.code}` +
            (run.code === 0 ? '' : `\n${run.output.split('\n').slice(-8).join('\n')}`),
        );
      }
    }
  } finally {
    await proxy.close();
    await sandbox.stop();
  }
  return rows;
}

/** The host's share of the machine during a run, where /proc tells it. */
const stealNote = (steal: number | undefined) => (steal === undefined ? '' : `, ${(100 * steal).toFixed(0)}% of the CPU taken by the host`);

function printDistance(rows: DistanceRow[]): boolean {
  console.log(
    '\n| Latency | Run | Wall time (median) | vs loopback | CPU s per 1,000 requests (median) | Sandbox CPU s per 1,000 | Suite (its own line) | Requests | Round trip | In flight (most, mean) | Workers | Chain | Bound | Requests took | Ratio | Exit codes |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  const loopback = (label: string) => median(rows.find((r) => r.latencyMs === 0 && r.label === label)!.seconds);
  const cpu = (values: number[]) => (values.every(Number.isFinite) ? median(values).toFixed(2) : '?');
  for (const row of rows) {
    const wall = median(row.seconds);
    const p = row.pace;
    console.log(
      `| ${row.latencyMs} ms | ${row.label} | ${wall.toFixed(1)} s | ${(wall / loopback(row.label)).toFixed(2)}x | ${cpu(row.cpuPerThousand)} | ${cpu(row.serverCpuPerThousand)} | ${median(row.suiteSeconds).toFixed(1)} s | ${row.requests ?? '?'} | ` +
        (p
          ? `${Math.round(p.roundTripMs)} ms | ${p.mostInFlight}, ${p.meanInFlight.toFixed(1)} | ${row.workers} | ${p.chain} | ${(p.boundMs / 1000).toFixed(1)} s | ${(p.spanMs / 1000).toFixed(1)} s | ${p.ratio.toFixed(2)}x`
          : '? | ? | ? | ? | ? | ? | ?') +
        ` | ${row.exitCodes.join(', ')} |`,
    );
  }
  const adaptive = (ms: number) => rows.find((r) => r.latencyMs === ms && r.label === 'adaptive')!;
  const wall = (ms: number) => median(adaptive(ms).seconds);
  const far = wall(200);
  const farRatio = far / wall(0);
  const near = wall(50) / wall(0);
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log(`\n200 ms away: ${far.toFixed(1)} s (goal <= ${FAR_GOAL_SECONDS} s: ${met(far <= FAR_GOAL_SECONDS)})`);
  console.log(`200 ms away: ${farRatio.toFixed(2)}x the loopback time (goal <= ${FAR_GOAL_RATIO}x: ${met(farRatio <= FAR_GOAL_RATIO)})`);
  console.log(`50 ms away: ${near.toFixed(2)}x the loopback time (goal <= ${NEAR_GOAL_RATIO}x: ${met(near <= NEAR_GOAL_RATIO)})`);
  const loopbackCpu = adaptive(0).cpuPerThousand;
  if (loopbackCpu.every(Number.isFinite)) {
    const ms = median(loopbackCpu);
    console.log(
      `CPU of the suite's processes at loopback: ${ms.toFixed(2)} ms per request, ${ms.toFixed(2)} CPU-seconds per 1,000 (goal <= ${CPU_GOAL_MS} ms: ${met(ms <= CPU_GOAL_MS)}); the sandbox answering them: ${median(adaptive(0).serverCpuPerThousand).toFixed(2)} ms per request`,
    );
  } else console.log('CPU per request: not measured (no /proc on this system)');
  const [load = 0] = loadavg();
  const busy = load > availableParallelism() ? ': busy: times, CPU and workers above run high' : '';
  console.log(`machine load (1-minute average) at the end: ${load.toFixed(1)} on ${availableParallelism()} cores${busy}`);
  const steals = rows.flatMap((r) => r.steal).filter(Number.isFinite);
  if (steals.length)
    console.log(
      `CPU taken by the host (steal, /proc/stat) during the runs: up to ${(100 * Math.max(...steals)).toFixed(0)}%, median ${(100 * median(steals)).toFixed(0)}%${Math.max(...steals) > 0.05 ? ': a virtual machine whose host is busy: times and CPU above run high' : ''}`,
    );
  return rows.every((r) => r.exitCodes.every((code) => code === 0));
}

interface IdpRow {
  label: 'unlimited' | 'limited';
  seconds: number[];
  exitCodes: number[];
  /** What the identity provider saw in each run (the proxy's count under /idp), and the 429s among them. */
  idpRequests: number[];
  idpLimited: number[];
  /** The run's own line of requests per origin. */
  origins?: string;
  /** Its longest time without a line of the suite phase in the log (not a terminal: a progress line every 10 s). */
  silences?: number[];
  progressLines?: number[];
}

/** The identity-provider rows: each kind `rounds` times, interleaved, through one proxy in front of one sandbox. */
async function idpLimit(rounds: number): Promise<IdpRow[]> {
  const sandbox = await startSandbox();
  const upstream = new URL(sandbox.env.LP_BASE_URL!).origin;
  const proxy = await startRealEnvironmentProxy(upstream);
  const settings = throughProxy(sandbox.env as Record<string, string>, upstream, proxy.origin);
  const rows: IdpRow[] = (['unlimited', 'limited'] as const).map((label) => ({
    label,
    seconds: [],
    exitCodes: [],
    idpRequests: [],
    idpLimited: [],
  }));
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const row of rows) {
        // The limit on both runs, the unlimited one's past anything the suite sends, so both count what reached /idp.
        proxy.configure({ oktaLimit: row.label === 'limited' ? OKTA_LIMIT : { ...OKTA_LIMIT, perSecond: 1_000_000, burst: 1_000_000 } });
        const before = proxy.stats();
        const out = join(repoRoot, 'dist/contract/bench', `idp-${row.label}`);
        rmSync(out, { recursive: true, force: true });
        const run = await liveRun(settings, out, []);
        const after = proxy.stats();
        row.seconds.push(run.seconds);
        row.exitCodes.push(run.code);
        row.idpRequests.push(after.oktaRequests - before.oktaRequests);
        row.idpLimited.push(after.oktaLimited - before.oktaLimited);
        row.origins = /per origin: (.*?); round trip/.exec(run.output)?.[1];
        row.silences = [...(row.silences ?? []), run.longestSilence];
        row.progressLines = [...(row.progressLines ?? []), run.progressLines];
        console.log(
          `  round ${round}, ${row.label}: ${run.seconds.toFixed(1)} s, exit ${run.code}, ${row.idpRequests.at(-1)} identity-provider requests, ${row.idpLimited.at(-1)} answered 429` +
            (run.code === 0 ? '' : `\n${run.output.split('\n').slice(-8).join('\n')}`),
        );
      }
    }
  } finally {
    await proxy.close();
    await sandbox.stop();
  }
  return rows;
}

function printIdpLimit(rows: IdpRow[]): boolean {
  const [unlimited, limited] = rows as [IdpRow, IdpRow];
  console.log('\n| Run | Wall time (median) | Identity-provider requests | Answered 429 | Share | Exit codes |');
  console.log('|---|---|---|---|---|---|');
  for (const row of rows) {
    const requests = median(row.idpRequests);
    const refused = median(row.idpLimited);
    console.log(
      `| ${row.label} | ${median(row.seconds).toFixed(1)} s | ${requests} | ${refused} | ${((100 * refused) / Math.max(1, requests)).toFixed(1)}% | ${row.exitCodes.join(', ')} |`,
    );
  }
  const requests = median(limited.idpRequests);
  const share = median(limited.idpLimited) / Math.max(1, requests);
  const bound = requests / OKTA_LIMIT.perSecond + median(unlimited.seconds);
  const ratio = median(limited.seconds) / bound;
  console.log(`\nlimited run, requests per origin: ${limited.origins ?? '?'}`);
  console.log(
    `bound: ${requests} identity-provider requests / ${OKTA_LIMIT.perSecond} a second + the unlimited run's ${median(unlimited.seconds).toFixed(1)} s = ${bound.toFixed(1)} s`,
  );
  console.log(
    `limited run: ${median(limited.seconds).toFixed(1)} s, ${ratio.toFixed(2)}x the bound (goal <= ${IDP_GOAL_RATIO}x: ${ratio <= IDP_GOAL_RATIO ? 'met' : 'NOT met'})`,
  );
  console.log(
    `answered 429: ${(100 * share).toFixed(1)}% of the identity provider's requests (goal < ${100 * IDP_GOAL_LIMITED_SHARE}%: ${share < IDP_GOAL_LIMITED_SHARE ? 'met' : 'NOT met'})`,
  );
  const silence = Math.max(...(limited.silences ?? [0]));
  console.log(
    `progress in a log (not a terminal): ${limited.progressLines?.join(', ') ?? '?'} progress lines, the longest silence of the suite phase ${silence.toFixed(1)} s (goal: a line at least every ${PROGRESS_GOAL_S} s: ${silence <= PROGRESS_GOAL_S ? 'met' : 'NOT met'})`,
  );
  const green = rows.every((r) => r.exitCodes.every((code) => code === 0));
  return green && ratio <= IDP_GOAL_RATIO && share < IDP_GOAL_LIMITED_SHARE && silence <= PROGRESS_GOAL_S;
}

async function main(): Promise<number> {
  const { values } = parseCommandLine(CLI);
  const only = values.only;
  if (only !== undefined && !['targets', 'distance', 'idp-limit'].includes(only))
    usageError(CLI, `--only must be targets, distance or idp-limit, got "${only}"`);
  const rounds = values.rounds === undefined ? 1 : integerOption(CLI, 'rounds', values.rounds, 1, 20);
  if (only === 'idp-limit') {
    console.log(`idp-limit: contract:live against a sandbox behind an Okta-style limit on /idp and without it, ${rounds} round(s):`);
    return printIdpLimit(await idpLimit(rounds)) ? 0 : 1;
  }
  let passed = true;
  if (only !== 'distance') passed = await targets();
  if (only !== 'targets') {
    console.log(`distance: contract:live against a sandbox behind one delaying proxy, ${rounds} round(s):`);
    passed = printDistance(await distance(rounds, values.fixed === true, values['cpu-prof'])) && passed;
  }
  return passed ? 0 : 1;
}

async function targets(): Promise<boolean> {
  const rows: Row[] = [];
  console.log('mock:');
  rows.push(await withServer(startMock, (server) => suite('mock', server)));
  console.log('sandbox (suite and dredd against the same sandbox):');
  await withServer(
    () => startSandbox(),
    async (server) => {
      rows.push(await suite('sandbox', server));
      const { dreddAgainst } = await runners();
      const started = performance.now();
      const { results } = await dreddAgainst('sandbox', server.env);
      const ran = results.reduce((n, r) => n + r.passing + r.failing, 0);
      const failed = results.reduce((n, r) => n + r.failing + r.errors, 0);
      rows.push({ tool: 'dredd (via prism proxy)', target: 'sandbox', seconds: (performance.now() - started) / 1000, checks: ran, failed });
    },
  );

  console.log('\n| Tool | Target | Wall time | CPU s per 1,000 responses | Checks run | Responses validated | Checks/s | Failed |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.tool} | ${r.target} | ${r.seconds.toFixed(1)} s | ${r.responses ? perExchange(r.cpuSeconds, r.responses) : '-'} | ${r.checks} | ${r.responses ?? r.checks} | ${(r.checks / r.seconds).toFixed(1)} | ${r.failed} |`,
    );
  }
  const sandboxSuite = rows.find((r) => r.tool === 'vitest suite' && r.target === 'sandbox')!;
  const dredd = rows.find((r) => r.tool.startsWith('dredd'))!;
  console.log(
    `\nsandbox suite: ${sandboxSuite.seconds.toFixed(1)} s (goal < ${SANDBOX_GOAL_SECONDS} s: ${sandboxSuite.seconds < SANDBOX_GOAL_SECONDS ? 'met' : 'NOT met'})`,
  );
  console.log(
    `checks per second, suite / dredd on the same sandbox: ${(sandboxSuite.checks / sandboxSuite.seconds / (dredd.checks / dredd.seconds)).toFixed(2)}x`,
  );
  console.log(
    `responses validated per second, suite / dredd: ${((sandboxSuite.responses ?? 0) / sandboxSuite.seconds / (dredd.checks / dredd.seconds)).toFixed(2)}x`,
  );
  return !rows.some((r) => r.failed);
}

process.exitCode = await main().catch((error: unknown) => {
  console.error(`bench:contract: ${(error as Error).message}`);
  return 1;
});
