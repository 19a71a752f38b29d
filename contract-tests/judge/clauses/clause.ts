// The OAuth clause table's shape: each MUST / MUST NOT / REQUIRED / SHALL of RFC 6749, RFC 6750 and RFC 7636 that
// bears on the flows of the token spec, the check that covers it (by id), and how it reads today (clause-standing.ts).
import type { ClauseUpdate } from './clause-standing.ts';

export type Rfc = '6749' | '6750' | '7636';
export type Level = 'MUST' | 'MUST NOT' | 'REQUIRED' | 'SHALL';

/** A clause that is checked. The tests that send the requests provoking it declare its id among their vitest tags
 * (`it(title, { tags: [id] }, ...)`; contract-tests/vitest.config.ts defines a tag per clause, so a test that names
 * an id no table has does not run); self/oauth-clause-table.test.ts fails when no test declares a checked clause. */
export interface CheckRef {
  /** The id of the exchange check (judge/exchange-checks.ts) that also judges the clause on every exchange, whichever
   * test sent it. */
  exchangeCheck?: string;
}

export interface ClauseCore {
  /** RFC<rfc>-<section>-<slug>. */
  id: string;
  rfc: Rfc;
  section: string;
  level: Level;
  /** The clause in a few words of our own. */
  text: string;
  /** Why it bears on the flows of the specs. */
  applies: string;
  /** What the reader of the table should know about the check or the reason (e.g. what the check leaves out). */
  note?: string;
  /** What later texts changed in how it reads (RFC 9110/9111, RFC 9700, RFC 9207, the OAuth 2.1 draft), oldest first;
   * none: they keep it as the RFC wrote it. */
  updates?: readonly ClauseUpdate[];
  /** The clause binds the client (which text says so): a server that accepts what a client must not send breaks no MUST. */
  bindsClient?: string;
}

/** Exactly one of: a check that asserts (or, where the spec guessed the detail, records) the clause; why no request
 * can check it; why it does not bear on these flows. There is no pending state. */
export type Clause = ClauseCore &
  (
    | { check: CheckRef; untestable?: never; notApplicable?: never }
    | { untestable: string; check?: never; notApplicable?: never }
    | { notApplicable: string; check?: never; untestable?: never }
  );

export type Coverage = 'checked' | 'untestable' | 'not applicable';
export type ClauseRow = Clause & { coverage: Coverage };

/** A clause as data of unknown quality: what clauseProblems() inspects (the self-test feeds it broken rows too).
 * `missing`, what a check would send and expect, is no coverage: clauseProblems() refuses a row that sets it. */
export type ClauseLike = { [K in keyof ClauseCore | 'check' | 'untestable' | 'notApplicable' | 'missing']?: unknown };
