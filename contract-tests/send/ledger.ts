// The run's record, one JSON line per fact: each exchange (operation, status, scheme, violations), each skipped check,
// each assumption outcome and each check failed only for a contradicted assumption (strict runs). Workers append to
// their own file; the global teardown turns them into the reports. A ledger is part of the run (send/run.ts), which
// makes one per worker: nothing is opened when this module is imported.
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Evidence } from './evidence.ts';
import { currentTest, OUTSIDE_A_TEST } from './test-scope.ts';
import type { RequestPace, TransportStats, UnjudgedKind } from './transport.ts';

export type AssumptionOutcome = 'confirmed' | 'contradicted';

/** What the server did, as the reports show it: never a credential (redacted before it is recorded). */
export interface Observed {
  request: string;
  status: number;
  contentType: string;
  /** The start of the body, redacted. */
  body: string;
}

export type LedgerEntry =
  | {
      kind: 'exchange';
      operationId: string;
      status: number;
      scheme: string;
      problems: string[];
      test: string;
      /** What the request met on the way beyond one plain attempt (retries, throttling, waits), and how it went (its pace). */
      transport?: Partial<TransportStats & RequestPace>;
      /** The negative-space dimension the request belongs to (coverage's operation × dimension table). */
      dimension?: string;
      /** The operator that made the request (operators/), and the parameter it changed. */
      operator?: string;
      parameter?: string;
    }
  /** Something the run saw that is neither a violation nor an assumption's outcome, for the report (e.g. a credential
   * accepted in a place the spec does not document). */
  | { kind: 'note'; operationId: string; dimension: string; text: string; test: string }
  /** A request that got no answer to judge (unreachable, timed out, throttled past the tries, a write's outcome unknown). */
  | {
      kind: 'unjudged';
      request: string;
      reason: UnjudgedKind;
      message: string;
      test: string;
      transport?: Partial<TransportStats & RequestPace>;
    }
  | { kind: 'skip'; test: string; reason: string; operationIds: string[] }
  | {
      kind: 'assumption';
      api: string;
      pointer: string;
      match: string;
      outcome: AssumptionOutcome;
      evidence: string;
      observed?: Observed;
      test: string;
    }
  | { kind: 'strict-failure'; test: string }
  /** A wait of a second or more that began (when it ends, epoch ms, and why): what the run's progress line shows. */
  | { kind: 'wait'; until: number; why: string }
  /** A check that ended (passed, failed or skipped): what the run's progress line counts. */
  | { kind: 'check'; test: string; state: string }
  /** A broken promise with what shows it: the response's problem (the checker's), or a failed check's assertion. */
  | {
      kind: 'violation';
      test: string;
      /** The promise broken, in a partner's words (judge/promises.ts): the reports group by it. */
      promise: string;
      /** Who stated it: a failed check's assertion, or an exchange check on an answer. */
      from?: 'check' | 'answer';
      /** The exchange check that found it (judge/exchange-checks.ts), for an answer's. */
      check?: string;
      message: string;
      evidence?: Evidence;
    };

/** Lines not yet written: a write per fact cost a live run some 3% of its CPU. They go out together at least this
 * often (the runner's progress line reads the files), when a check or a file ends, and at a wait, which the progress line
 * shows as it begins. */
const FLUSH_EVERY_MS = 250;

/** Found during a check, by the check's name; the setup file fails the check on violations, and on contradictions when
 * strict. Bounded by the checks of one file: each check takes its own when it ends. */
export type Problems = { violations: string[]; contradictions: string[] };

// A thread that ends writes what it still holds (the setup file flushes as each check and file ends): one listener a
// thread, however many ledgers it makes.
function flushOnExit(flush: () => void): void {
  const holder = globalThis as { lpLedgerFlushers?: Set<() => void> };
  if (!holder.lpLedgerFlushers) {
    const flushers = new Set<() => void>();
    holder.lpLedgerFlushers = flushers;
    process.on('exit', () => {
      for (const each of flushers) each();
    });
  }
  holder.lpLedgerFlushers.add(flush);
}

/** One worker's ledger: its own file in `ledgerDir`, and the problems its checks have found and not yet taken. */
export class Ledger {
  private readonly file: string;
  private prepared = false;
  private pendingLines = '';
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly pending = new Map<string, Problems>();

  constructor(readonly dir: string) {
    this.file = join(dir, `${process.pid}-${Math.random().toString(36).slice(2, 8)}.jsonl`);
    flushOnExit(() => this.flush());
  }

  record(entry: LedgerEntry): void {
    this.pendingLines += `${JSON.stringify(entry)}\n`;
    if (entry.kind === 'wait') this.flush();
    else this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_EVERY_MS).unref();
  }

  /** Writes the facts recorded so far. */
  flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (!this.pendingLines) return;
    if (!this.prepared) {
      mkdirSync(this.dir, { recursive: true });
      this.prepared = true;
    }
    const lines = this.pendingLines;
    this.pendingLines = '';
    appendFileSync(this.file, lines);
  }

  private pendingOf(test: string): Problems {
    const problems = this.pending.get(test) ?? { violations: [], contradictions: [] };
    this.pending.set(test, problems);
    return problems;
  }

  reportProblems(violations: string[], test = currentTest()): void {
    if (violations.length) this.pendingOf(test).violations.push(...violations);
  }

  reportContradictions(contradictions: string[], test = currentTest()): void {
    if (contradictions.length) this.pendingOf(test).contradictions.push(...contradictions);
  }

  /** A check's problems, with those found outside any check since (a beforeAll's); `test` undefined: all that remain. */
  takeProblems(test?: string): Problems {
    const taken: Problems = { violations: [], contradictions: [] };
    for (const name of test === undefined ? [...this.pending.keys()] : [test, OUTSIDE_A_TEST]) {
      const problems = this.pending.get(name);
      this.pending.delete(name);
      taken.violations.push(...(problems?.violations ?? []));
      taken.contradictions.push(...(problems?.contradictions ?? []));
    }
    return taken;
  }
}

/** The operator name of the pairwise crossings (contract-tests/property/crossings.ts), which combine operators: their
 * requests are recorded as "pairwise: <question> × <parameter class> × <operation class>". */
export const CROSSING_ID = 'pairwise';
/** The dimensions of a crossing, in the order its recorded name gives their values. */
export const CROSSING_DIMENSIONS = ['question', 'parameter class', 'operation class'] as const;

/** The operator name a crossing's request is recorded under, from its value of each dimension. */
export const crossingName = (values: readonly string[]): string => `${CROSSING_ID}: ${values.join(' × ')}`;

/** A crossing's value of each dimension, from the operator name it was recorded under; undefined for any other name. */
export function crossingOf(operator: string): string[] | undefined {
  if (!operator.startsWith(`${CROSSING_ID}: `)) return undefined;
  const values = operator.slice(CROSSING_ID.length + 2).split(' × ');
  return values.length === CROSSING_DIMENSIONS.length ? values : undefined;
}
