// Bounded state: authorization codes are capped and purged, token eviction is O(1) and drops
// expired tokens first, long fleet lists are streamed, event pages are bounded (the flood of a sandbox process, its
// memory read from outside: memory-flood.test.ts, in the programs project).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SandboxClock } from '../../sandbox/clock.ts';
import { TokenStore } from '../../sandbox/token-store.ts';
import { advanceClock, aMilestone, authorize, fleetGet, recordMilestone, serviceToken } from './api-calls.ts';
import { startInProcess } from './sandbox-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'lp-sandbox-bounded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Health = { stored: { codes: number; tokens: number; events: number } };
const health = async (origin: string) => (await (await fetch(`${origin}/_sandbox/health`)).json()) as Health;

describe('authorization codes', () => {
  it('are capped: beyond the cap authorize answers temporarily_unavailable with Retry-After, and expired codes make room', async () => {
    const sandbox = await startInProcess({ maxCodes: 40 });
    try {
      for (let index = 0; index < 40; index += 1) {
        expect(new URL((await authorize(sandbox.origin, {})).headers.get('location')!).searchParams.get('code')).toBeTruthy();
      }
      const refused = await authorize(sandbox.origin, { state: 's-1' });
      expect(refused.status).toBe(302);
      const back = new URL(refused.headers.get('location')!).searchParams;
      expect(back.get('error')).toBe('temporarily_unavailable');
      expect(back.get('state')).toBe('s-1');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(590);
      expect((await health(sandbox.origin)).stored.codes).toBe(40);

      await advanceClock(sandbox.origin, 601); // all 40 expired: the oldest expired one is evicted for a new code
      expect(new URL((await authorize(sandbox.origin, {})).headers.get('location')!).searchParams.get('code')).toBeTruthy();
      expect((await health(sandbox.origin)).stored.codes).toBe(40);
      await advanceClock(sandbox.origin, 600); // a lifetime after expiry they are purged
      await authorize(sandbox.origin, {});
      expect((await health(sandbox.origin)).stored.codes).toBe(2);
    } finally {
      await sandbox.close();
    }
  });
});

describe('tokens', () => {
  it('evict expired tokens first, one at a time, and never a valid one while expired ones remain', async () => {
    const sandbox = await startInProcess({ maxTokens: 30 });
    try {
      const old = await Promise.all(Array.from({ length: 20 }, () => serviceToken(sandbox.origin)));
      await advanceClock(sandbox.origin, 3601);
      const fresh = await Promise.all(Array.from({ length: 10 }, () => serviceToken(sandbox.origin)));
      const newest = await Promise.all(Array.from({ length: 5 }, () => serviceToken(sandbox.origin))); // 5 over the cap
      const message = async (token: string) => {
        const response = await recordMilestone(sandbox.origin, token, aMilestone);
        return response.status === 200 ? 'recorded' : ((await response.json()) as { message: string }).message;
      };
      for (const token of [...fresh, ...newest]) expect(await message(token)).toBe('recorded');
      // The five oldest expired tokens were dropped; the other expired ones are still known (and refused as expired).
      for (const token of old.slice(0, 5)) expect(await message(token)).toMatch(/invalid/);
      for (const token of old.slice(5)) expect(await message(token)).toMatch(/expired/);
      expect((await health(sandbox.origin)).stored.tokens).toBe(30);
    } finally {
      await sandbox.close();
    }
  });

  it('issue at the cap costs about what it costs below it (no scan of the store)', () => {
    const clock = new SandboxClock();
    const time = (store: TokenStore, count: number) => {
      const started = performance.now();
      for (let index = 0; index < count; index += 1) store.issue({ clientId: 'c', scope: '', lifetimeSeconds: 3600 });
      return performance.now() - started;
    };
    const atCap = new TokenStore(clock, 10_000);
    time(atCap, 10_000); // fill it
    const belowCap = new TokenStore(clock, 1_000_000);
    time(belowCap, 10_000); // same warm-up
    // Side by side, five times over, and the best of each: a pause of the machine (a GC, another process) lengthens one
    // round, never all five. A scan of the 10,000 tokens would make each issue at the cap thousands of times dearer.
    const rounds = Array.from({ length: 5 }, () => ({ below: time(belowCap, 6_000), atCap: time(atCap, 6_000) }));
    const best = (side: 'below' | 'atCap') => Math.min(...rounds.map((round) => round[side]));
    expect(atCap.size).toBe(10_000);
    expect(best('atCap')).toBeLessThan(best('below') * 4 + 50);
  });
});

describe('large answers', () => {
  it('streams a long vehicle list (chunked, no Content-Length) that is still one JSON array', async () => {
    const sandbox = await startInProcess({ vehicleCount: 5000 });
    try {
      const response = await fleetGet(sandbox.origin, '/vehicles');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-length')).toBeNull();
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const vehicles = (await response.json()) as { vehicleNumber: string }[];
      expect(vehicles.length).toBeGreaterThan(1000);
      expect(new Set(vehicles.map((vehicle) => vehicle.vehicleNumber)).size).toBe(vehicles.length);
      // A short list is still answered whole.
      const short = await fleetGet(sandbox.origin, '/vehicles?customerNumber=C-100234&vehicleNumber=V-0000001');
      expect(short.headers.get('content-length')).not.toBeNull();
    } finally {
      await sandbox.close();
    }
  });

  it('bounds an event page in bytes however long the stored values are, and pages on with Link: rel="next"', async () => {
    const dataFile = join(dir, 'long-load-ids.jsonl');
    const long = (index: number) => `LD-${index}-${'x'.repeat(700_000)}`;
    writeFileSync(
      dataFile,
      Array.from(
        { length: 12 },
        (_, index) => `${JSON.stringify({ ...aMilestone, load_id: long(index), received_at: aMilestone.event_time, client_id: 'c' })}\n`,
      ).join(''),
    );
    const sandbox = await startInProcess({ dataFile });
    try {
      const first = await fetch(`${sandbox.origin}/_sandbox/load-milestone-events`);
      expect(first.status).toBe(200);
      const page = (await first.json()) as { seq: number }[];
      expect(page.length).toBeGreaterThan(0);
      expect(page.length).toBeLessThan(12);
      const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1];
      expect(next).toBe(`/_sandbox/load-milestone-events?limit=1000&after=${page.at(-1)!.seq}`);
      const second = (await (await fetch(`${sandbox.origin}${next}`)).json()) as { seq: number }[];
      expect(second[0]!.seq).toBe(page.at(-1)!.seq + 1);
      expect((await fetch(`${sandbox.origin}/_sandbox/load-milestone-events?limit=0`)).status).toBe(400);
      expect((await fetch(`${sandbox.origin}/_sandbox/load-milestone-events?after=-1`)).status).toBe(400);
    } finally {
      await sandbox.close();
    }
  });
});
