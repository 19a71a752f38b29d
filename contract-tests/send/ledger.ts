// The run's record, one JSON line per fact: each exchange (operation, status, scheme, violations), each skipped check,
// each assumption outcome and each check failed only for a contradicted assumption (strict runs). Workers append to
// their own file; the global teardown turns them into the reports.
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../spec-core/apis.ts';
import { flagVariable, readVariable } from '../../config/environment.ts';
import type { Evidence } from './evidence.ts';
import { currentTest, OUTSIDE_A_TEST } from './test-scope.ts';
import type { RequestPace, TransportStats, UnjudgedKind } from './transport.ts';

export const outputDir = readVariable('LP_CONTRACT_OUT') ?? join(repoRoot, 'dist/contract');
export const ledgerDir = join(outputDir, '.ledger');

/** With --strict-assumptions (LP_STRICT_ASSUMPTIONS=1) a contradicted assumption fails its check like a violation. */
export const strictAssumptions = flagVariable('LP_STRICT_ASSUMPTIONS');

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

const ledgerFile = join(ledgerDir, `${process.pid}-${Math.random().toString(36).slice(2, 8)}.jsonl`);
let prepared = false;

/** Lines not yet written: a write per fact cost a live run some 3% of its CPU. They go out together at least this
 * often (the runner's progress line reads the files), when a check or a file ends, and at a wait, which the progress line
 * shows as it begins. */
const FLUSH_EVERY_MS = 250;
let pendingLines = '';
let flushTimer: ReturnType<typeof setTimeout> | undefined;

export function record(entry: LedgerEntry): void {
  pendingLines += `${JSON.stringify(entry)}\n`;
  if (entry.kind === 'wait') flushLedger();
  else flushTimer ??= setTimeout(flushLedger, FLUSH_EVERY_MS).unref();
}

/** Writes the facts recorded so far. */
export function flushLedger(): void {
  clearTimeout(flushTimer);
  flushTimer = undefined;
  if (!pendingLines) return;
  if (!prepared) {
    mkdirSync(ledgerDir, { recursive: true });
    prepared = true;
  }
  const lines = pendingLines;
  pendingLines = '';
  appendFileSync(ledgerFile, lines);
}
// A thread that ends writes what it still holds (the setup file flushes as each check and file ends): one listener a
// thread, however often a test project evaluates this module again.
const holder = globalThis as { lpLedgerFlushers?: Set<() => void> };
if (!holder.lpLedgerFlushers) {
  const flushers = new Set<() => void>();
  holder.lpLedgerFlushers = flushers;
  process.on('exit', () => {
    for (const flush of flushers) flush();
  });
}
holder.lpLedgerFlushers.add(flushLedger);

/** Found during a check, by the check's name; the setup file fails the check on violations, and on contradictions when
 * strict. Bounded by the checks of one file: each check takes its own when it ends. */
type Problems = { violations: string[]; contradictions: string[] };
const pending = new Map<string, Problems>();
const pendingOf = (test: string): Problems => {
  const problems = pending.get(test) ?? { violations: [], contradictions: [] };
  pending.set(test, problems);
  return problems;
};

export function reportProblems(violations: string[], test = currentTest()): void {
  if (violations.length) pendingOf(test).violations.push(...violations);
}

export function reportContradictions(contradictions: string[], test = currentTest()): void {
  if (contradictions.length) pendingOf(test).contradictions.push(...contradictions);
}

/** A check's problems, with those found outside any check since (a beforeAll's); `test` undefined: all that remain. */
export function takeProblems(test?: string): Problems {
  const taken: Problems = { violations: [], contradictions: [] };
  for (const name of test === undefined ? [...pending.keys()] : [test, OUTSIDE_A_TEST]) {
    const problems = pending.get(name);
    pending.delete(name);
    taken.violations.push(...(problems?.violations ?? []));
    taken.contradictions.push(...(problems?.contradictions ?? []));
  }
  return taken;
}

/** The operator name of the pairwise crossings (contract-tests/property/crossings.ts), which combine operators: their
 * requests are recorded as "pairwise: <question> × <parameter class> × <operation class>". */
export const CROSSING_ID = 'pairwise';
