// The OAuth clauses as data: each MUST / MUST NOT / REQUIRED / SHALL of RFC 6749 (OAuth 2.0), RFC 6750 (bearer token
// usage) and RFC 7636 (PKCE, which the spec lets a client send) that bears on the flows of the token spec: client
// credentials at POST {base_url}/token and at POST {auth_url}/oauth2/default/v1/token, the authorization code grant
// (GET {auth_url}/oauth2/default/v1/authorize, its redirects, the code exchange), and bearer tokens on
// POST {base_url}/v1/load-milestone-events. Each clause is checked (the tests that provoke it declare its id among
// their vitest tags, and it may name the exchange check that judges it on every exchange), or says why no request can
// check it, or why it does not bear on these flows: "pending" is not a reason, and self/oauth-clause-table.test.ts fails on
// a clause without one of the three or a tie that does not hold. Each says how it reads today
// (clauses/clause-standing.ts). The rows are in clauses/, by part of the RFCs; report/clause-table.ts renders them.
import type { Clause, ClauseLike, Coverage } from './clauses/clause.ts';
import { RESOURCES_AND_SECURITY } from './clauses/resources-and-security.ts';
import { RFC6749_ENDPOINTS } from './clauses/rfc6749-endpoints.ts';
import { RFC6749_GRANTS } from './clauses/rfc6749-grants.ts';

export type { CheckRef, Clause, ClauseLike, ClauseRow, Coverage, Level, Rfc } from './clauses/clause.ts';
export { clauseProblems, declaredTags } from './clauses/clause-problems.ts';

export const OAUTH_CLAUSES: readonly Clause[] = [...RFC6749_ENDPOINTS, ...RFC6749_GRANTS, ...RESOURCES_AND_SECURITY];

const present = (value: unknown) => value !== undefined && value !== null;

/** How a clause is covered, from which of its fields are set (checked before the rest, as clauseProblems() requires
 * exactly one); undefined for a clause with none, which clauseProblems() reports. */
export function coverageOf(clause: ClauseLike): Coverage | undefined {
  if (present(clause.check)) return 'checked';
  if (present(clause.untestable)) return 'untestable';
  if (present(clause.notApplicable)) return 'not applicable';
  return undefined;
}

/** The vitest tags a test may declare (contract-tests/vitest.config.ts): one per clause of the table, so that a test
 * naming an id no clause has does not run. `--tags-filter <id>` runs the tests of one clause. */
export const clauseTags = (): { name: string; description: string }[] =>
  OAUTH_CLAUSES.map((clause) => ({ name: clause.id, description: `RFC ${clause.rfc} ${clause.section}: ${clause.text}` }));
