// Benchmark, one run: GET /vehicles with a filter on the sandbox vs the Prism mock (req/s,
// p99, ratio; goal sandbox >= 10x), then the sandbox's list latency and RSS at 100,000 vehicles.
import { readFileSync } from 'node:fs';
import { integerOption, parseCommandLine } from '../config/cli.ts';
import { stopAllServers } from '../tools/processes.ts';
import { autocannon, CONNECTIONS_OPTION, cpuSeconds, rssMiB, start, stopAllOnSignals } from '../tools/server-load.ts';

const CLI = {
  command: 'npm run bench:servers --',
  summary:
    "Benchmarks GET /vehicles with a filter on the sandbox vs the Prism mock (req/s, p99, ratio), then the sandbox's " +
    'list latency and RSS at 100,000 vehicles.',
  options: {
    duration: { type: 'string', value: 'S', description: 'Seconds per measurement, 1-60.', default: '3' },
    connections: CONNECTIONS_OPTION,
    rounds: { type: 'string', value: 'N', description: 'Rounds alternating the servers, 1-15; the medians are compared.', default: '5' },
  },
} as const;

const { values: options } = parseCommandLine(CLI);
const duration = integerOption(CLI, 'duration', options.duration ?? '3', 1, 60);
const connections = integerOption(CLI, 'connections', options.connections ?? '10', 1, 200);
const ROUNDS = integerOption(CLI, 'rounds', options.rounds ?? '5', 1, 15);

/** The mock script's Prism child: the process that actually serves. */
function childPid(pid: number): number {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ').filter(Boolean);
  if (children.length !== 1) throw new Error(`expected one Prism child of ${pid}, found ${children.length}`);
  return Number(children[0]);
}

async function load(label: string, url: string, headers: Record<string, string>, load = { connections, duration }, serverPid?: number) {
  // A short warm-up so JIT and Prism's first-request work are not measured.
  await autocannon({ url, headers, connections: 1, duration: 1 });
  const cpuBefore = serverPid ? cpuSeconds(serverPid) : 0;
  const result = await autocannon({ url, headers, ...load });
  const cpu = serverPid ? cpuSeconds(serverPid) - cpuBefore : 0;
  const failures = result.non2xx + result.errors + result.timeouts;
  if (failures > 0) throw new Error(`${label}: ${failures} of ${result.requests.total} requests failed or were not 2xx`);
  return {
    label,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    /** Response bytes (headers and body) per request: the two servers do not answer the same list. */
    bytes: Math.round(result.throughput.total / Math.max(1, result.requests.total)),
    /** Requests served per CPU second of the server: its capacity when the load generator, not the server, is the limit. */
    perCpuSecond: cpu > 0 ? result.requests.total / cpu : Number.NaN,
  };
}

type Measurement = Awaited<ReturnType<typeof load>>;

/** The round with the median throughput (its p99 is reported with it). */
function median(measurements: Measurement[]): Measurement {
  return [...measurements].sort((a, b) => a.rps - b.rps)[Math.floor(measurements.length / 2)]!;
}

const row = (r: Measurement) =>
  `${r.label.padEnd(66)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms   (${r.total} requests, ${r.bytes} B each)`;

type Target = { label: string; url: string; headers: Record<string, string>; pid: number };

/** The sandbox (logging every request, and quiet) and the Prism mock, each answering the same filtered list. */
async function startCompared() {
  const [sandbox, quietSandbox, mock] = await Promise.all([
    // Default settings on both sides: the sandbox logs every request as `npm run sandbox` does.
    start('sandbox/main.ts', ['--port', '0'], 'sandbox ready'),
    // For reference: per-request logging is a large share of the sandbox's cost.
    start('sandbox/main.ts', ['--port', '0', '--log-level', 'warn'], 'sandbox ready'),
    start('scripts/mock.ts', ['--port', '0'], 'mock ready'),
  ]);
  const filter = '/vehicles?customerNumber=C-100234';
  const targets: Target[] = [
    {
      label: `sandbox  GET ${filter}`,
      url: `${sandbox.env.LP_FLEET_BASE_URL}${filter}`,
      headers: { 'api-key': sandbox.env.LP_FLEET_API_KEY! },
      pid: sandbox.child.pid!,
    },
    {
      label: `sandbox --log-level warn`,
      url: `${quietSandbox.env.LP_FLEET_BASE_URL}${filter}`,
      headers: { 'api-key': quietSandbox.env.LP_FLEET_API_KEY! },
      pid: quietSandbox.child.pid!,
    },
    {
      label: `prism    GET ${filter}`,
      url: `${mock.env.LP_FLEET_BASE_URL}${filter}`,
      headers: { 'api-key': 'any' },
      pid: childPid(mock.child.pid!),
    },
  ];
  return { targets, stop: () => Promise.all([sandbox.stop(), quietSandbox.stop(), mock.stop()]) };
}

/** The measurements of each round, in the targets' order. */
async function measureRounds(targets: Target[]): Promise<Measurement[][]> {
  // Rounds alternate the servers (never two at once: two cores), so load from other work on
  // the machine hits all alike; every other round runs them in reverse order, so none is always
  // measured first or last; the medians of the rounds are compared.
  const rounds: Measurement[][] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const results: Measurement[] = new Array(targets.length);
    const order = targets.map((_, index) => index);
    if (round % 2 === 1) order.reverse();
    for (const index of order) {
      const target = targets[index]!;
      results[index] = await load(target.label, target.url, target.headers, { connections, duration }, target.pid);
    }
    rounds.push(results);
    const [own, quiet, prism] = results as [Measurement, Measurement, Measurement];
    console.log(
      `round ${round + 1}: sandbox ${own.rps.toFixed(0)} req/s (quiet ${quiet.rps.toFixed(0)}), prism ${prism.rps.toFixed(0)} req/s, ratio ${(own.rps / prism.rps).toFixed(1)}x`,
    );
  }
  return rounds;
}

function printComparison(rounds: Measurement[][]): void {
  const [sandboxResult, quietResult, mockResult] = rounds[0]!.map((_, index) => median(rounds.map((results) => results[index]!))) as [
    Measurement,
    Measurement,
    Measurement,
  ];
  console.log(`\nmedian of ${ROUNDS} rounds:`);
  for (const result of [sandboxResult, quietResult, mockResult]) console.log(row(result));
  const ratio = sandboxResult.rps / mockResult.rps;
  console.log(
    `ratio sandbox/prism throughput: ${ratio.toFixed(1)}x (goal >= 10x: ${ratio >= 10 ? 'met' : 'NOT met'}); with --log-level warn: ${(quietResult.rps / mockResult.rps).toFixed(1)}x`,
  );
  console.log(
    `requests per server CPU second: sandbox ${sandboxResult.perCpuSecond.toFixed(0)} (quiet ${quietResult.perCpuSecond.toFixed(0)}), prism ${mockResult.perCpuSecond.toFixed(0)}, ` +
      `ratio ${(sandboxResult.perCpuSecond / mockResult.perCpuSecond).toFixed(1)}x (quiet ${(quietResult.perCpuSecond / mockResult.perCpuSecond).toFixed(1)}x)`,
  );
  // Each round measures the servers back to back, so its ratio sees nearly the same background load;
  // the median of those paired ratios drifts less than the ratio of two separately chosen medians.
  const paired = rounds.map(([own, , prism]) => own!.rps / prism!.rps).sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!;
  console.log(`median of the per-round ratios: ${paired.toFixed(1)}x`);
  console.log('(autocannon shares the two cores with the server; when it is the limit, requests per CPU second show the capacity ratio)\n');
}

/** The sandbox's list latency, startup and RSS at 100,000 vehicles. */
async function measureAtScale(): Promise<void> {
  const startedAt = Date.now();
  const big = await start('sandbox/main.ts', ['--port', '0', '--log-level', 'warn', '--vehicles', '100000'], 'sandbox ready');
  const startupMs = Date.now() - startedAt;
  const base = big.env.LP_FLEET_BASE_URL!;
  const key = { 'api-key': big.env.LP_FLEET_API_KEY! };
  const rssIdle = rssMiB(big.child.pid!);
  const oneVehicle = (await (await fetch(`${base}/vehicles?sort=vin%20asc`, { headers: key })).json()) as { vin: string }[];
  const results = [
    await load('100k  GET /vehicles?vin=<one vin>', `${base}/vehicles?vin=${oneVehicle[500]!.vin}`, key),
    // Multi-megabyte answers: one connection, so the figure is the latency of one list, not queueing.
    await load(
      '100k  GET /vehicles?customerNumber=C-100235&sort=vin desc (20,000)',
      `${base}/vehicles?customerNumber=C-100235&sort=vin%20desc`,
      key,
      { connections: 1, duration },
    ),
    await load('100k  GET /vehicles (all 60,000 of the lessee)', `${base}/vehicles`, key, { connections: 1, duration }),
    await load('100k  GET /vehicles/{vehicleNumber}', `${base}/vehicles/V-0000001`, key),
  ];
  const rssLoaded = rssMiB(big.child.pid!);
  for (const result of results) console.log(row(result));
  console.log(`100k  startup to "sandbox ready": ${startupMs} ms; RSS idle ${rssIdle} MiB, after the runs ${rssLoaded} MiB`);
  await big.stop();
}

async function main(): Promise<void> {
  console.log(`bench:servers — autocannon, ${connections} connections, ${duration} s per measurement, loopback\n`);
  const compared = await startCompared();
  printComparison(await measureRounds(compared.targets));
  await compared.stop();
  await measureAtScale();
}

stopAllOnSignals();
try {
  await main();
} finally {
  await stopAllServers();
}
