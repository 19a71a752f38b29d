// `npm run bench:client`: per-call cost of raw fetch, bare openapi-fetch and our client (auth middleware, token cached),
// measured side by side in one run against a loopback node:http server; plus token requests for 1,000 concurrent calls.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import createClient from 'openapi-fetch';
import type { paths as CarriersPaths } from '../generated/carriers.ts';
import { createCarriersClient } from '../src/index.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const CALLS_PER_ROUND = Number(process.env.BENCH_CALLS ?? 250);
const EVENT = { load_id: 'L-1', milestone_type: 'PICKED_UP', event_time: '2024-05-01T12:00:00Z' };
const CONFIRMATION = JSON.stringify({ message: 'recorded' });

let tokenRequests = 0;
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    if (request.url === '/token') {
      tokenRequests += 1;
      // A slow token endpoint makes concurrent callers overlap, which is what single flight is about.
      setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 'bench-token', token_type: 'Bearer', expired_in: 3600 })), 50);
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(CONFIRMATION.length) }).end(CONFIRMATION);
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

try {
  const headers = { Authorization: 'Bearer bench-token' };
  const bare = createClient<CarriersPaths>({ baseUrl: origin, headers });
  const ours = createCarriersClient({ baseUrl: origin, clientId: 'bench', clientSecret: 'bench-secret' });
  await ours.POST('/v1/load-milestone-events', { body: EVENT }); // fetch and cache the token before timing

  const variants: Record<string, () => Promise<unknown>> = {
    'raw fetch': async () => {
      const response = await fetch(`${origin}/v1/load-milestone-events`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify(EVENT),
      });
      return response.json();
    },
    'bare openapi-fetch': () => bare.POST('/v1/load-milestone-events', { body: EVENT }),
    'our client (auth, retry, timeout)': () => ours.POST('/v1/load-milestone-events', { body: EVENT }),
  };
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
  for (const run of Object.values(variants)) for (let i = 0; i < 200; i += 1) await run(); // warm up
  // Interleave the variants round by round so that drift (GC, CPU frequency, other load) hits all of them alike.
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [name, run] of Object.entries(variants)) {
      for (let i = 0; i < CALLS_PER_ROUND; i += 1) {
        const started = performance.now();
        await run();
        samples[name]!.push(performance.now() - started);
      }
    }
  }
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)]!;
  };
  const rawMedian = median(samples['raw fetch']!);
  console.log(`Sequential POST /v1/load-milestone-events, ${ROUNDS} x ${CALLS_PER_ROUND} calls per variant, interleaved:`);
  for (const [name, values] of Object.entries(samples)) {
    const m = median(values);
    console.log(`  ${name.padEnd(36)} median ${(m * 1000).toFixed(1).padStart(7)} µs   ratio to raw fetch ${(m / rawMedian).toFixed(3)}x`);
  }
  const ratio = median(samples['our client (auth, retry, timeout)']!) / rawMedian;
  console.log(`  goal: our client within 1.05x of raw fetch -> ${ratio <= 1.05 ? 'met' : 'NOT met'} (${ratio.toFixed(3)}x)`);

  tokenRequests = 0;
  const fresh = createCarriersClient({ baseUrl: origin, clientId: 'bench', clientSecret: 'bench-secret' });
  await Promise.all(Array.from({ length: 1000 }, () => fresh.POST('/v1/load-milestone-events', { body: EVENT })));
  console.log(`Token requests for 1,000 concurrent calls on a fresh client: ${tokenRequests} (goal: exactly 1) -> ${tokenRequests === 1 ? 'met' : 'NOT met'}`);
} finally {
  server.closeAllConnections();
  server.close();
}
