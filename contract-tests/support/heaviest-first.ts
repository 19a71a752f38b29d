// The order a live run hands its test files to the workers: the longest first, so that none of them starts last and
// runs on alone while the other workers idle. Vitest's own order puts a file's last duration first, or without one its
// size: the operators' files are a few lines each (their checks come from the registry), so a fresh clone started them
// last. Measured 200 ms away on two cores, with every file's checks side by side: the token operators 6 s (about 1,500
// requests, held by the ceiling in flight), the fleet operators 3.7 s (410), the token-reuse flow 4 s (three calls
// seconds apart, by design), lessee isolation 2.7 s (210), the carriers operators 1.4 s (190); every other file 1.2 s
// or less.
// The token-reuse flow goes first all the same: it waits on its own clock (three calls 1.5 s apart), and what bounds the
// operators' requests is the ceiling in flight, which the workers share (send/flight-pool.ts), not how many workers send
// them: started first, its pauses pass while the other workers send; started after the operators, they were the last
// seconds of a far run.
import type { TestSequencer, TestSpecification } from 'vitest/node';

/** Path prefixes (from the repository root) of the longest files: the token-reuse flow, then the longest first. */
export const HEAVIEST_FIRST = [
  'contract-tests/flows/token-reuse.',
  'contract-tests/property/operators.token.',
  'contract-tests/property/operators.fleet.',
  'contract-tests/security/lessee-ownership.',
  'contract-tests/property/operators.carriers.',
  'contract-tests/security/auth-matrix.',
  'contract-tests/property/',
] as const;

/** A file's place in HEAVIEST_FIRST: the rest come after, in path order. */
export function weightRank(path: string): number {
  const rank = HEAVIEST_FIRST.findIndex((prefix) => path.includes(prefix));
  return rank === -1 ? HEAVIEST_FIRST.length : rank;
}

export class HeaviestFirst implements TestSequencer {
  shard(files: TestSpecification[]): TestSpecification[] {
    return files;
  }

  sort(files: TestSpecification[]): TestSpecification[] {
    return [...files].sort((a, b) => weightRank(a.moduleId) - weightRank(b.moduleId) || a.moduleId.localeCompare(b.moduleId));
  }
}
