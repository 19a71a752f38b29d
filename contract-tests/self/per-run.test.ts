// What a run keeps (send/per-run.ts) is made once for each run and kept apart from another run's: a self-test's run
// made apart never gets the worker's bearer token, approval probe or fleet, and a forgotten value is made again.
import { describe, expect, it } from 'vitest';
import { perRun } from '../send/per-run.ts';
import { workerRun } from '../support/worker-run.ts';

const run = workerRun();
/** Another run: the same settings, another value (as a self-test's run made apart is). */
const other = { ...run };

describe('what a run keeps', () => {
  it('is made once per run, each run its own, and made again for a run that forgot it', () => {
    const made: string[] = [];
    const kept = perRun((forRun) => {
      made.push(forRun === run ? 'worker' : 'other');
      return { made: made.length };
    });
    expect(kept(run)).toBe(kept(run));
    expect(kept(other)).not.toBe(kept(run));
    expect(made).toEqual(['worker', 'other']);
    kept.forget(run);
    expect(kept(run).made).toBe(3);
    expect(kept(other).made).toBe(2);
    expect(made).toEqual(['worker', 'other', 'worker']);
  });
});
