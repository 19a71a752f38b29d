// The OAuth clause table of coverage.json and coverage.md: each clause of judge/oauth-clauses.ts with its coverage, how
// it reads today, and the ids of what checks it (the tests tagged with the clause's id, an exchange check), or why
// nothing does.
import { coverageOf, OAUTH_CLAUSES } from '../judge/oauth-clauses.ts';
import type { Clause, ClauseRow } from '../judge/oauth-clauses.ts';
import { todayOf } from '../judge/clauses/clause-standing.ts';
import { standingOf } from '../judge/clauses/standings.ts';

/** The table with each clause's coverage (the Clause type admits no clause without one). */
export function clauseTable(clauses: readonly Clause[] = OAUTH_CLAUSES): ClauseRow[] {
  return clauses.map((clause) => ({ ...clause, coverage: coverageOf(clause)! }));
}

const cell = (text: string) => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');

function coveredBy(row: ClauseRow): string {
  const note = row.note ? ` (${row.note})` : '';
  switch (row.coverage) {
    case 'checked': {
      const exchangeCheck = row.check!.exchangeCheck;
      return `the tests tagged with its id${exchangeCheck ? `, and on every exchange by exchange check \`${exchangeCheck}\`` : ''}${note}`;
    }
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

/** The section of coverage.md: how many clauses each coverage has, then the table. */
export function clauseSection(rows: readonly ClauseRow[]): string {
  const count = (coverage: string) => rows.filter((row) => row.coverage === coverage).length;
  return [
    '## OAuth clauses (RFC 6749, RFC 6750, RFC 7636) and what covers each',
    '',
    `${rows.length} clauses that bear on the flows of the published documentation: ${count('checked')} checked, ${count('untestable')} untestable, ${count('not applicable')} not applicable (contract-tests/judge/oauth-clauses.ts; a checked clause's tests declare its id among their vitest tags).`,
    '',
    clausesMarkdown(rows),
  ].join('\n');
}
