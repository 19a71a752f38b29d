// A sandbox process flooded with authorization codes and tokens keeps both stores at their caps and its memory flat,
// read from outside the process (a program test: config/test-tiers.ts, npm run test:programs).
import { describe, expect, it } from 'vitest';
import { rssMiB } from '../../tools/server-load.ts';
import { authorize, defaults, idpToken } from './api-calls.ts';
import { startSandboxProcess } from './sandbox-process.ts';

type Health = { stored: { codes: number; tokens: number; events: number } };
const health = async (origin: string) => (await (await fetch(`${origin}/_sandbox/health`)).json()) as Health;

/** Runs `count` calls, `parallel` at a time. */
async function flood(count: number, parallel: number, call: (index: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        next += 1;
        await call(next);
      }
    }),
  );
}

describe('memory under a flood', () => {
  it('keeps codes and tokens at their caps and RSS flat through a flood of both', async () => {
    // Caps of 400 and rounds of three times that of each kind: every round overfills both stores. Memory must stay
    // within 12 MiB over the two measured rounds (4,800 requests: the floor after them against the floor before): about 2.6 KB a request, as sensitive as the earlier
    // 25 MiB over 12,000 requests with caps of 1,000, at 40% of the CPU.
    const sandbox = await startSandboxProcess(['--log-level', 'warn', '--max-codes', '400', '--max-tokens', '400']);
    try {
      const origin = sandbox.env.LP_BASE_URL!.replace(/\/svc$/, '');
      const round = () =>
        Promise.all([
          flood(1200, 16, () => authorize(origin, { state: 'x'.repeat(200) }).then((response) => response.arrayBuffer())),
          flood(1200, 16, () =>
            idpToken(origin, { grant_type: 'client_credentials', scope: defaults.LP_SCOPE }).then((response) => response.arrayBuffer()),
          ),
        ]);
      // RSS swings by up to 10 MiB from one round to the next as the heap grows and is collected; a leak raises its
      // floor. So each side is the least of two samples: after two warm-up rounds (the first fills the stores to their
      // caps), and after the two measured rounds.
      const floorOver = async (rounds: number) => {
        let least = Number.POSITIVE_INFINITY;
        for (let i = 0; i < rounds; i += 1) {
          await round();
          least = Math.min(least, rssMiB(sandbox.child.pid!));
        }
        return least;
      };
      const before = await floorOver(2);
      const after = await floorOver(2);
      const stored = (await health(origin)).stored;
      expect(stored.codes).toBeLessThanOrEqual(400);
      expect(stored.tokens).toBeLessThanOrEqual(400);
      expect(after - before).toBeLessThan(12);
    } finally {
      await sandbox.stop();
    }
  });
});
