// Measures the sandbox's memory per 100,000 vehicles, authorization codes, tokens and events:
// the RSS growth of a fresh sandbox process after creating that many (figures for sandbox/README.md).
// Run: npx tsx scripts/sandbox-memory.ts (about 90 s).
import { parseCommandLine } from '../config/cli.ts';
import { type RunningServer, stopAllServers } from '../tools/processes.ts';
import { rssMiB, start, stopAllOnSignals } from '../tools/server-load.ts';

parseCommandLine({
  command: 'npx tsx scripts/sandbox-memory.ts',
  summary:
    "Measures the sandbox's memory per 100,000 vehicles, authorization codes, tokens and events: the RSS growth of a " +
    'fresh sandbox process after creating that many (about 90 s; figures for sandbox/README.md).',
  options: {},
});

const COUNT = 100_000;
const PARALLEL = 32;

async function flood(count: number, call: () => Promise<Response>): Promise<void> {
  let sent = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (sent < count) {
        sent += 1;
        const response = await call();
        await response.arrayBuffer();
        if (response.status >= 400) throw new Error(`answered ${response.status}`);
      }
    }),
  );
}

const originOf = (server: RunningServer) => server.env.LP_BASE_URL!.replace(/\/svc$/, '');
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

async function growth(label: string, make: (server: RunningServer) => () => Promise<Response>): Promise<void> {
  const server = await start('sandbox/main.ts', ['--port', '0', '--log-level', 'warn'], 'sandbox ready');
  const call = make(server);
  await flood(2000, call); // warm-up: JIT and heap settle before the baseline
  const before = rssMiB(server.child.pid!);
  await flood(COUNT, call);
  const after = rssMiB(server.child.pid!);
  console.log(`${label.padEnd(24)} +${after - before} MiB per 100k (RSS ${before} -> ${after} MiB)`);
  await server.stop();
}

async function main(): Promise<void> {
  const small = await start('sandbox/main.ts', ['--port', '0', '--log-level', 'warn', '--vehicles', '2'], 'sandbox ready');
  const smallRss = rssMiB(small.child.pid!);
  await small.stop();
  const big = await start('sandbox/main.ts', ['--port', '0', '--log-level', 'warn', '--vehicles', String(COUNT)], 'sandbox ready');
  const bigRss = rssMiB(big.child.pid!);
  // Sort orders are built on first use: ask for each once.
  for (const field of ['vin', 'licensePlate', 'customerVehicleNumber', 'domicileLocationName']) {
    await (
      await fetch(`${big.env.LP_FLEET_BASE_URL}/vehicles?sort=${field}%20asc`, { headers: { 'api-key': big.env.LP_FLEET_API_KEY! } })
    ).arrayBuffer();
  }
  const sortedRss = rssMiB(big.child.pid!);
  await big.stop();
  console.log(
    `${'vehicles'.padEnd(24)} +${bigRss - smallRss} MiB per 100k at start (RSS ${smallRss} -> ${bigRss} MiB), ${sortedRss} MiB after four sorted lists`,
  );

  await growth('authorization codes', (server) => {
    const url = `${originOf(server)}/idp/oauth2/default/v1/authorize?${form({
      client_id: server.env.LP_CLIENT_ID!,
      response_type: 'code',
      redirect_uri: server.env.LP_REDIRECT_URI!,
      scope: server.env.LP_SCOPE!,
    })}`;
    return () => fetch(url, { redirect: 'manual' });
  });
  await growth('tokens', (server) => {
    const body = form({
      grant_type: 'client_credentials',
      client_id: server.env.LP_CLIENT_ID!,
      client_secret: server.env.LP_CLIENT_SECRET!,
    });
    return () =>
      fetch(`${server.env.LP_BASE_URL}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  });
  await growth('events (in memory)', (server) => {
    let token: Promise<string> | undefined;
    let index = 0;
    return async () => {
      token ??= fetch(`${server.env.LP_BASE_URL}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form({ grant_type: 'client_credentials', client_id: server.env.LP_CLIENT_ID!, client_secret: server.env.LP_CLIENT_SECRET! }),
      }).then(async (response) => ((await response.json()) as { access_token: string }).access_token);
      index += 1;
      const event = { load_id: `LD-MEMORY-${index}`, milestone_type: 'PICKED_UP', event_time: '2026-11-22T14:30:00Z' };
      return fetch(`${server.env.LP_BASE_URL}/v1/load-milestone-events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${await token}` },
        body: JSON.stringify(event),
      });
    };
  });
}

stopAllOnSignals();
try {
  await main();
} finally {
  await stopAllServers();
}
