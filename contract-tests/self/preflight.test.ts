// The preflight's choice of workers rests on a warm round trip: a target's first answer carries its cold start, and a
// loopback target whose first answer was slow took 3 or 4 workers by chance (each about a CPU-second to start).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testWaitMs } from '../../config/test-waits.ts';
import { preflight } from '../runner/preflight.ts';
import { DEFAULT_TRANSPORT, Transport, workersFor } from '../send/transport.ts';

/** Delays of the fleet list's answers, in order (the last one for every answer after); `lists` counts the asks. */
let delaysMs: number[] = [];
let lists = 0;
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    if (request.method !== 'GET' || !request.url?.startsWith('/fleet/vehicles')) return void response.writeHead(404).end();
    const delay = delaysMs[Math.min(lists, delaysMs.length - 1)] ?? 0;
    lists += 1;
    events.push('list');
    setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}'), delay);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/fleet`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** What the server and the test saw, in order: each ask of the fleet list, and `quiet` settling. */
let events: string[] = [];

const preflightAgainst = (first: number, then: number, quiet?: Promise<unknown>) => {
  delaysMs = [first, then];
  lists = 0;
  events = [];
  const env = { LP_FLEET_BASE_URL: base, LP_FLEET_API_KEY: 'preflight-test-key' };
  return preflight(
    env,
    new Transport({ ...DEFAULT_TRANSPORT, workers: 1, timeoutMs: testWaitMs(5_000) }, fetch, Math.random, { env }),
    false,
    quiet,
  );
};

const choice = (roundTripMs: number) => workersFor(roundTripMs, undefined, true);
/** A first answer 70 ms late: 3 workers on 2 cores, where a warm loopback answer chooses 1. */
const COLD_MS = 70;
const FAR_MS = 120;
const NO_REMEASURE = `on ${availableParallelism()} cores a first answer ${COLD_MS} ms late already chooses the fewest workers, so nothing is asked again`;

describe('the preflight chooses the workers from a warm round trip, its own requests timed', () => {
  it('quick answers: the fewest workers (a cold first one asked again)', async () => {
    const { workers } = await preflightAgainst(0, 0);
    expect(lists).toBeLessThanOrEqual(3);
    expect(workers).toBe(choice(0));
  });

  it('a slow first answer from this machine, then quick ones: the list asked again, fewer workers', async ({ skip }) => {
    skip(choice(COLD_MS) === choice(0), NO_REMEASURE);
    const { results, workers } = await preflightAgainst(COLD_MS, 0);
    expect(results.every((result) => result.ok)).toBe(true);
    expect(lists).toBeGreaterThan(1);
    expect(workers).toBeLessThan(choice(COLD_MS));
    expect(results.at(-1)?.line).toMatch(/^round trip \d+ ms at least, the target on this machine: \d+ test files run side by side/);
  });

  it("reads the round trip again only once this process is quiet (the runner's own start-up work settled)", async ({ skip }) => {
    skip(choice(COLD_MS) === choice(0), NO_REMEASURE);
    // Settles late on purpose: whatever the machine's speed, no list is asked again before it.
    const quiet = new Promise((resolve) => setTimeout(resolve, testWaitMs(300))).then(() => events.push('quiet'));
    const { workers } = await preflightAgainst(COLD_MS, 0, quiet);
    expect(events.slice(0, 2)).toEqual(['list', 'quiet']);
    expect(lists).toBeGreaterThan(1);
    expect(workers).toBeLessThan(choice(COLD_MS));
  });

  it('a target that stays as far: asked once more, and the choice holds', async () => {
    const { workers } = await preflightAgainst(FAR_MS, FAR_MS);
    expect(lists).toBe(2);
    expect(workers).toBe(choice(FAR_MS));
  });
});
