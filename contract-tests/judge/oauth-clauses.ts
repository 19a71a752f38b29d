// The OAuth clauses as a table: each MUST / MUST NOT / REQUIRED / SHALL of RFC 6749 (OAuth 2.0), RFC 6750 (bearer
// token usage) and RFC 7636 (PKCE, which the spec lets a client send) that bears on the flows of the token spec:
// client credentials at POST {base_url}/token and at POST {auth_url}/oauth2/default/v1/token, the authorization code
// grant (GET {auth_url}/oauth2/default/v1/authorize, its redirects, the code exchange), and bearer tokens on
// POST {base_url}/v1/load-milestone-events. Each clause names the check that asserts it, or why no request can check
// it, or why it does not bear on these flows: "pending" is not a reason, and self/oauth-clauses.test.ts fails on a
// clause without one of the three. Each says how it reads today (clauses/clause-standing.ts). The rows are in
// clauses/, by part of the RFCs.
import type { Clause, ClauseLike, ClauseRow, Coverage } from './clauses/clause.ts';
import { todayOf } from './clauses/clause-standing.ts';
import { RESOURCES_AND_SECURITY } from './clauses/resources-and-security.ts';
import { RFC6749_ENDPOINTS } from './clauses/rfc6749-endpoints.ts';
import { RFC6749_GRANTS } from './clauses/rfc6749-grants.ts';
import { standingOf } from './clauses/standings.ts';

export type { CheckRef, Clause, ClauseLike, ClauseRow, Coverage, Level, Rfc } from './clauses/clause.ts';
export { clauseProblems, testTitles } from './clauses/clause-problems.ts';

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

/** The table with each clause's coverage (the Clause type admits no clause without one). */
export function clauseTable(clauses: readonly Clause[] = OAUTH_CLAUSES): ClauseRow[] {
  return clauses.map((clause) => ({ ...clause, coverage: coverageOf(clause)! }));
}

const cell = (text: string) => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');

function coveredBy(row: ClauseRow): string {
  const note = row.note ? ` (${row.note})` : '';
  switch (row.coverage) {
    case 'checked':
      return `\`${row.check!.file}\`: "${row.check!.test}"${row.check!.exchangeCheck ? `, and on every exchange by exchange check \`${row.check!.exchangeCheck}\`` : ''}${note}`;
    case 'untestable':
      return `not testable: ${row.untestable}${note}`;
    case 'not applicable':
      return `not applicable: ${row.notApplicable}${note}`;
  }
}

/** How the clause reads today: its strength once later texts are read with it, and which texts changed it. */
function today(row: ClauseRow): string {
  const standing = standingOf(row.id);
  const changes = (row.updates ?? []).map((u) => `${u.by} ${u.says}`).join('; ');
  const client = row.bindsClient ? ` (binds the client: ${row.bindsClient})` : '';
  return `${todayOf(standing)}${changes ? `: ${changes}` : ''}${client}`;
}

/** The rows as a Markdown table: clause id, RFC section, level as written, how it reads today, what it says, and what
 * covers it or why nothing does. */
export function clausesMarkdown(rows: readonly ClauseRow[]): string {
  const lines = [
    '| Clause | RFC § | Level | Today | What | Covered by / why not |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| \`${row.id}\` | RFC ${row.rfc} §${row.section} | ${row.level} | ${cell(today(row))} | ${cell(row.text)} | ${cell(coveredBy(row))} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}
