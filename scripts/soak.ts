// `npm run soak`: the bench:servers load (GET /vehicles with a filter, autocannon) against one
// sandbox for --minutes, with a flood of authorization codes and identity-provider tokens on the
// side. Prints the sandbox's RSS and throughput per block, then compares its throughput with a
// freshly started sandbox, measured alternately so that other load on the machine hits both alike.
import { integerOption, parseCommandLine, usageError } from '../config/cli.ts';
import { type RunningServer, stopAllServers } from '../tools/processes.ts';
import { autocannon, CONNECTIONS_OPTION, rssMiB, start, stopAllOnSignals } from '../tools/server-load.ts';

const CLI = {
  command: 'npm run soak --',
  summary:
    'Loads one sandbox for --minutes (GET /vehicles with a filter) with a flood of authorization codes and tokens on the ' +
    'side, prints its RSS and throughput per block, then compares its throughput with a fresh sandbox.',
  options: {
    minutes: { type: 'string', value: 'M', description: 'How long to soak, 0-1440 (decimals allowed).', default: '10' },
    connections: CONNECTIONS_OPTION,
    'flood-rate': {
      type: 'string',
      value: 'R',
      description: 'Authorize requests and token requests per second, each, on the side (0-5000).',
      default: '200',
    },
    'max-codes': { type: 'string', value: 'N', description: 'Passed to the sandbox (a smaller cap lets a short soak reach it).' },
    'max-tokens': { type: 'string', value: 'N', description: 'Passed to the sandbox (a smaller cap lets a short soak reach it).' },
  },
} as const;

const { values: options } = parseCommandLine(CLI);
const minutes = Number(options.minutes ?? '10');
if (!(minutes > 0 && minutes <= 24 * 60)) usageError(CLI, `--minutes must be a number from 0 to 1440, got "${options.minutes}"`);
const connections = integerOption(CLI, 'connections', options.connections ?? '10', 1, 200);
const floodRate = Number(options['flood-rate'] ?? '200');
if (!(floodRate >= 0 && floodRate <= 5000)) usageError(CLI, `--flood-rate must be a number from 0 to 5000, got "${options['flood-rate']}"`);
const sandboxArgs = ['--port', '0'];
for (const cap of ['max-codes', 'max-tokens'] as const) if (options[cap] !== undefined) sandboxArgs.push(`--${cap}`, options[cap]);

const FILTER = '/vehicles?customerNumber=C-100234';
/** Seconds per load block during the soak; RSS and throughput are reported per block. */
const BLOCK_SECONDS = 15;
const COMPARE_SECONDS = 4;
const COMPARE_ROUNDS = 5;

async function throughput(server: RunningServer, seconds: number): Promise<number> {
  const result = await autocannon({
    url: `${server.env.LP_FLEET_BASE_URL}${FILTER}`,
    headers: { 'api-key': server.env.LP_FLEET_API_KEY! },
    connections,
    duration: seconds,
  });
  const failures = result.non2xx + result.errors + result.timeouts;
  if (failures > 0) throw new Error(`${failures} of ${result.requests.total} requests failed or were not 2xx`);
  return result.requests.average;
}

/** Authorize and token requests at `rate` per second each until stopped; counts the answers by status. */
function flood(server: RunningServer, rate: number) {
  const origin = server.env.LP_BASE_URL!.replace(/\/svc$/, '');
  const statuses = new Map<number, number>();
  const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
  const authorizeUrl = `${origin}/idp/oauth2/default/v1/authorize?${new URLSearchParams({
    client_id: server.env.LP_CLIENT_ID!,
    response_type: 'code',
    redirect_uri: server.env.LP_REDIRECT_URI!,
    scope: server.env.LP_SCOPE!,
    state: 'soak',
  })}`;
  const tokenBody = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: server.env.LP_CLIENT_ID!,
    client_secret: server.env.LP_CLIENT_SECRET!,
    scope: server.env.LP_SCOPE!,
  }).toString();
  let running = true;
  let inFlight = 0;
  const send = (request: () => Promise<Response>) => {
    if (inFlight > 200) return; // the sandbox is behind: skip rather than pile up sockets here
    inFlight += 1;
    void request()
      .then(async (response) => {
        count(response.status);
        await response.arrayBuffer();
      })
      .catch(() => count(0))
      .finally(() => (inFlight -= 1));
  };
  // Every 50 ms, a twentieth of a second's worth of each.
  const perTick = rate / 20;
  let owed = 0;
  const timer = setInterval(() => {
    if (!running) return;
    owed += perTick;
    for (; owed >= 1; owed -= 1) {
      send(() => fetch(authorizeUrl, { redirect: 'manual' }));
      send(() =>
        fetch(`${origin}/idp/oauth2/default/v1/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'ocp-apim-subscription-key': server.env.LP_SUBSCRIPTION_KEY! },
          body: tokenBody,
        }),
      );
    }
  }, 50);
  return {
    statuses,
    stop: async () => {
      running = false;
      clearInterval(timer);
      while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    },
  };
}

async function stored(server: RunningServer): Promise<string> {
  const health = (await (await fetch(`${server.env.LP_BASE_URL!.replace(/\/svc$/, '')}/_sandbox/health`)).json()) as {
    stored: { codes: number; tokens: number; events: number };
  };
  return `codes ${health.stored.codes}, tokens ${health.stored.tokens}`;
}

async function main(): Promise<void> {
  console.log(
    `soak: ${minutes} min of GET ${FILTER} (${connections} connections) with ${floodRate} authorize + ${floodRate} token requests/s on the side\n`,
  );
  const soaked = await start('sandbox/main.ts', sandboxArgs, 'sandbox ready');
  const pid = soaked.child.pid!;
  await throughput(soaked, 1); // warm-up
  const startRss = rssMiB(pid);
  const startRps = await throughput(soaked, COMPARE_SECONDS);
  console.log(`start: RSS ${startRss} MiB, ${startRps.toFixed(0)} req/s (no flood)`);

  const side = flood(soaked, floodRate);
  const blocks = Math.max(1, Math.round((minutes * 60) / BLOCK_SECONDS));
  const rssSeries: number[] = [];
  const startedAt = Date.now();
  for (let block = 1; block <= blocks; block += 1) {
    const rps = await throughput(soaked, BLOCK_SECONDS);
    const rss = rssMiB(pid);
    rssSeries.push(rss);
    const elapsed = ((Date.now() - startedAt) / 60_000).toFixed(1);
    console.log(`${elapsed.padStart(5)} min: ${rps.toFixed(0).padStart(6)} req/s with the flood, RSS ${rss} MiB, ${await stored(soaked)}`);
  }
  await side.stop();
  const endRss = rssMiB(pid);
  const flooded = [...side.statuses]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${status === 0 ? 'failed' : status}: ${n}`)
    .join(', ');
  console.log(`flood answers: ${flooded}`);

  // The soaked sandbox against a fresh one, alternately.
  const fresh = await start('sandbox/main.ts', sandboxArgs, 'sandbox ready');
  await throughput(fresh, 1);
  const soakedRps: number[] = [];
  const freshRps: number[] = [];
  for (let round = 0; round < COMPARE_ROUNDS; round += 1) {
    const order = round % 2 === 0 ? [soaked, fresh] : [fresh, soaked];
    for (const server of order) (server === soaked ? soakedRps : freshRps).push(await throughput(server, COMPARE_SECONDS));
    console.log(`compare round ${round + 1}: soaked ${soakedRps.at(-1)!.toFixed(0)} req/s, fresh ${freshRps.at(-1)!.toFixed(0)} req/s`);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const ratio = median(soakedRps) / median(freshRps);
  console.log(
    `\nRSS: start ${startRss} MiB, end ${endRss} MiB (during the soak: min ${Math.min(...rssSeries)}, max ${Math.max(...rssSeries)} MiB; last half max ${Math.max(...rssSeries.slice(Math.floor(rssSeries.length / 2)))} MiB)`,
  );
  console.log(
    `throughput after the soak ${median(soakedRps).toFixed(0)} req/s vs a fresh sandbox ${median(freshRps).toFixed(0)} req/s: ${(ratio * 100).toFixed(0)}% (goal >= 90%: ${ratio >= 0.9 ? 'met' : 'NOT met'})`,
  );
  console.log(`stores after the soak: ${await stored(soaked)}`);
}

stopAllOnSignals();
try {
  await main();
} finally {
  await stopAllServers();
}
