// The ceiling on requests in flight as one pool for all of a run's workers (send/flight-pool.ts, and the Gate over it):
// together the workers never pass it; a worker alone takes what the others leave, past its share; a worker waiting below
// its share gets the slots that free up before a busier one takes more; a worker thread started after the pool is
// offered counts on the same memory; a transport of a run with more than one worker takes its slots from it, and one of
// a single worker, or without a pool, keeps to its own share. Gates and threads of this process, and a loopback server.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { POLL, testWaitMs } from '../../config/test-waits.ts';
import { repoRoot } from '../../spec-core/apis.ts';
import { FlightPool, offerFlightPool, withdrawFlightPool } from '../send/flight-pool.ts';
import { PaceBoard } from '../send/pace-board.ts';
import { DEFAULT_TRANSPORT, Gate, Transport } from '../send/transport.ts';

/** A gate of a worker among several sharing `pool`, with `share` slots its own; it may grow to the whole ceiling at once. */
const gateOf = (pool: FlightPool, share: number) => new Gate(pool.ceiling, undefined, pool.ceiling, { pool, share });

/** Asks `gate` for `n` slots; `went` counts those granted so far. */
function ask(gate: Gate, n: number) {
  const asked = { went: 0 };
  for (let i = 0; i < n; i++) void gate.acquire().then(() => asked.went++);
  return asked;
}

/** Lets every promise already resolved run its callbacks. */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('one ceiling on requests in flight for all the workers', () => {
  it('keeps the workers within it together, and lets one take past its share what the others leave', async () => {
    const pool = FlightPool.of(8);
    const [busy, other] = [gateOf(pool, 2), gateOf(pool, 2)];
    const first = ask(busy, 10);
    await settled();
    expect(first.went, 'a worker alone takes the whole ceiling').toBe(8);
    expect(pool.used).toBe(8);
    const second = ask(other, 3);
    await settled();
    expect(second.went, 'none past the ceiling').toBe(0);
    busy.release();
    await vi.waitFor(() => expect(second.went).toBe(1), POLL);
    expect(first.went, 'the freed slot went to the worker below its share').toBe(8);
    expect(pool.used).toBe(8);
  });

  it('leaves the slots that free up to a worker waiting below its share, then takes them again', async () => {
    const pool = FlightPool.of(4);
    const [busy, other] = [gateOf(pool, 2), gateOf(pool, 2)];
    const mine = ask(busy, 7);
    await settled();
    expect(mine.went).toBe(4);
    const theirs = ask(other, 2);
    await settled();
    expect(pool.starving).toBe(1);
    for (let freed = 1; freed <= 2; freed++) {
      busy.release();
      await settled();
      expect(mine.went, 'past its share, the busy worker holds back').toBe(4);
      await vi.waitFor(() => expect(theirs.went).toBe(freed), POLL);
    }
    expect(pool.starving, 'the other worker has its share').toBe(0);
    busy.release();
    await settled();
    expect(mine.went, 'nobody waits below a share: the busy worker takes the slot').toBe(5);
    expect(pool.used).toBe(4);
  });

  it("a worker's requests held back by its own limit do not count as waiting for the pool", async () => {
    const pool = FlightPool.of(8);
    const gate = new Gate(8, undefined, 2, { pool, share: 4 });
    const asked = ask(gate, 5);
    await settled();
    expect(asked.went).toBe(2);
    expect(pool.starving).toBe(0);
    expect(pool.used).toBe(2);
  });
});

describe('the pool the runner offers', () => {
  let server: Server;
  let origin = '';
  const held: ServerResponse[] = [];
  beforeAll(async () => {
    server = createServer((_, response) => held.push(response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  afterEach(() => withdrawFlightPool());

  it('is the same memory in a worker thread started after it was offered', async () => {
    const pool = offerFlightPool(3);
    // The worker loads the pool's module as the suite's workers load TypeScript, through tsx (resolved from the repository).
    const module = pathToFileURL(join(repoRoot, 'contract-tests/send/flight-pool.ts')).href;
    const code = `const { parentPort } = require('node:worker_threads');
import('tsx/esm/api')
  .then(({ tsImport }) => tsImport(${JSON.stringify(module)}, ${JSON.stringify(module)}))
  .then(({ offeredFlightPool }) => {
    const pool = offeredFlightPool();
    parentPort.postMessage({ ceiling: pool?.ceiling, took: pool?.take() });
  });`;
    const worker = new Worker(code, { eval: true });
    const said = await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    expect(said).toEqual({ ceiling: 3, took: true });
    expect(pool.used, "the worker's slot, seen here").toBe(1);
  });

  it('gives the slots of a run with several workers; one worker, another ceiling or none keeps its own share', async () => {
    const pool = offerFlightPool(8);
    const transport = (over: Partial<typeof DEFAULT_TRANSPORT>) =>
      new Transport({ ...DEFAULT_TRANSPORT, concurrency: 8, timeoutMs: testWaitMs(5_000), ...over }, fetch, () => 0, {
        board: new PaceBoard(),
      });
    const shared = transport({ workers: 4 });
    expect(shared.gate.ceiling, 'the whole ceiling, within the pool').toBe(8);
    const sent = shared.send(new Request(`${origin}/held`));
    await vi.waitFor(() => expect(held).toHaveLength(1), POLL);
    expect(pool.used).toBe(1);
    held.shift()!.end('ok');
    expect((await sent).response.status).toBe(200);
    expect(pool.used).toBe(0);
    expect(transport({ workers: 1 }).gate.ceiling).toBe(8);
    expect(transport({ workers: 4, concurrency: 16 }).gate.ceiling, 'a pool of another ceiling is not this run’s').toBe(4);
    withdrawFlightPool();
    expect(transport({ workers: 4 }).gate.ceiling, 'no pool: its share').toBe(2);
  });
});
