// The registry of exchange checks: every promise judged on every exchange, whichever test sent it (a flow, a clause
// check, an assumption probe, a sweep, an operator). The one fetch hands each exchange to the judge
// (judge-exchange.ts), which runs each check whose operations include the exchange's and whose needs the target meets.
// A new promise is one entry here; self/exchange-checks.test.ts fails when a promise the suite owes has none.
import type { Exchange } from '../send/fetch.ts';
import type { RunContext } from './context.ts';
import type { ExchangeCheck } from './exchange-check.ts';
import { operationIdOf } from './exchange-facts.ts';
import { authorizeRedirect } from './checks/authorize-redirect.ts';
import { bearerChallenge } from './checks/bearer-challenge.ts';
import { codeBinding } from './checks/code-binding.ts';
import { credentialEcho } from './checks/credential-echo.ts';
import { refusalDisclosure } from './checks/refusal-disclosure.ts';
import { documentedAnswer } from './checks/documented-answer.ts';
import { foreignIdentifiers } from './checks/foreign-identifiers.ts';
import { getOneAsked } from './checks/get-one.ts';
import { getOneAgrees } from './checks/get-one-agrees.ts';
import { lesseeIsolation } from './checks/lessee-isolation.ts';
import { listAgrees } from './checks/list-agrees.ts';
import { listFilters } from './checks/list-filters.ts';
import { serverError } from './checks/server-error.ts';
import { tokenAnswer } from './checks/token-answer.ts';
import { tokenLifetime } from './checks/token-lifetime.ts';
import { tokenRefusals } from './checks/token-refusals.ts';
import { wrongCredentials } from './checks/credentials-refused.ts';

export const EXCHANGE_CHECKS: readonly ExchangeCheck[] = [
  serverError,
  documentedAnswer,
  lesseeIsolation,
  foreignIdentifiers,
  credentialEcho,
  tokenAnswer,
  tokenRefusals,
  bearerChallenge,
  tokenLifetime,
  getOneAsked,
  getOneAgrees,
  listFilters,
  listAgrees,
  refusalDisclosure,
  wrongCredentials,
  authorizeRedirect,
  codeBinding,
];

/** Whether a check judges this exchange on this target. */
export function applies(check: ExchangeCheck, seen: Exchange, context: RunContext): boolean {
  if (check.needs && !context.capability[check.needs]) return false;
  if (check.operations === '*') return true;
  const operationId = operationIdOf(seen);
  return operationId !== undefined && check.operations.includes(operationId);
}

/** The promises the suite owes every exchange (issue 30's list, and the sequences only the context shows): the
 * self-test holds the registry to it, so a check that goes missing fails it. */
export const REQUIRED_CHECKS = [
  'lessee-isolation',
  'no-server-error',
  'no-credential-echo',
  'documented-answer',
  'rfc6749-token-answer',
  'rfc6750-bearer-challenge',
  'get-one-asked',
  'list-matches-filters',
  'refusals-disclose-nothing',
  'credentials-refused',
  'rfc6749-refusals',
  'authorize-redirect',
  'code-bound-to-grant',
  'token-lifetime',
  'get-one-agrees-with-list',
  'foreign-identifiers-undisclosed',
  'list-agrees-with-unfiltered',
] as const;

/** What the registry lacks: a check the suite owes that is missing, a check without a promise or operations, an
 * operation it names that the registry does not have. */
export function exchangeCheckProblems(checks: readonly ExchangeCheck[], operationIds: readonly string[]): string[] {
  const problems = REQUIRED_CHECKS.filter((id) => !checks.some((c) => c.id === id)).map((id) => `the exchange check "${id}" is missing`);
  for (const check of checks) {
    if (!check.promise().trim()) problems.push(`${check.id}: names no promise`);
    if (check.operations !== '*' && !check.operations.length) problems.push(`${check.id}: applies to no operation`);
    for (const id of check.operations === '*' ? [] : check.operations)
      if (!operationIds.includes(id)) problems.push(`${check.id}: ${id} is not an operation of the registry`);
  }
  if (new Set(checks.map((c) => c.id)).size !== checks.length) problems.push('two exchange checks share an id');
  return problems;
}
