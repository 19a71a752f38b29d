// What a run keeps once it has it (its bearer token, the tokens it was issued, the probe of unattended approval, the
// key's own fleet, the judge's context): made when first asked for and kept by the run, so a run made apart (a
// self-test's) gets its own.
import type { Run } from './run.ts';

/** A value of each run, made by `make` when first asked for; `forget` drops a run's (it is made again when asked). */
export interface PerRun<T> {
  (run: Run): T;
  forget(run: Run): void;
}

export function perRun<T>(make: (run: Run) => T): PerRun<T> {
  const kept = new WeakMap<Run, T>();
  const of = (run: Run): T => {
    if (!kept.has(run)) kept.set(run, make(run));
    return kept.get(run) as T;
  };
  return Object.assign(of, { forget: (run: Run) => void kept.delete(run) });
}
