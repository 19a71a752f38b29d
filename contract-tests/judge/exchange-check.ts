// The one shape of an exchange check: an exchange and the run's context in, typed findings out. Each names the promise
// it stands for (a section of the published documentation, an RFC clause, a security property) and the operations and
// statuses it looks at, so that the judge, the coverage and the reports can enumerate them (judge/exchange-checks.ts).
import type { Capability } from '../send/capabilities.ts';
import type { Exchange } from '../send/fetch.ts';
import type { AssumptionId, Finding } from '../model/findings.ts';
import type { RunContext } from './context.ts';

/** Where a promise comes from. */
export type PromiseSource = { seed: string } | { rfc: string; section: string } | { security: string };

export interface ExchangeCheck {
  id: string;
  /** The promise, in a partner's words (judge/promises.ts). */
  promise: () => string;
  source: PromiseSource;
  /** The clauses it judges, by id (judge/clauses/standings.ts); the first is its findings' unless they name another. */
  clauses: readonly [string, ...string[]];
  /** The operations whose exchanges it judges ('*': every exchange, an address no operation has included). */
  operations: readonly string[] | '*';
  /** The answers it looks at, in words ('2xx', '401', 'any'), for the docs and the coverage. */
  statuses: string;
  /** What the target must be able to do for its answers to show the promise (the Prism mock answers from examples). */
  needs?: keyof Capability;
  judge(seen: Exchange, context: RunContext): Finding[] | Promise<Finding[]>;
}

/** A violation of the check's promise: of `clause`, one of the check's (its first by default). The judge makes it a note
 * when that clause is not a MUST that stands today (judge-exchange.ts). */
export const violation = (check: ExchangeCheck, message: string, clause: string = check.clauses[0]): Finding => ({
  check: check.id,
  promise: check.promise(),
  verdict: 'violation',
  message,
  clause,
});

/** An assumption of the specs that the answer contradicts (or, `kept`, confirms). */
export const assumptionOutcome = (check: ExchangeCheck, assumption: AssumptionId, message: string, kept = false): Finding => ({
  check: check.id,
  promise: check.promise(),
  verdict: kept ? 'confirmed' : 'contradicted',
  message,
  assumption,
});
