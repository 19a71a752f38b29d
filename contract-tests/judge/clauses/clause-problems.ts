// The checks of the clause table: every clause has exactly one of a check, a reason no request can check it, or a
// reason it does not bear on the flows; a checked clause is declared by a test (its id among the test's vitest tags),
// and its exchange check, if named, is one of the registry.
import type { ClauseLike } from './clause.ts';

const present = (value: unknown) => value !== undefined && value !== null;

const TAGS = /\btags:\s*\[([^\]]*)\]/g;
const STRING = /(['"])((?:(?!\1)[^\\]|\\.)*)\1/g;

/** The clause ids a test file declares: every string in each `tags: [...]` of its it() options. */
export function declaredTags(source: string): string[] {
  return [...source.matchAll(TAGS)].flatMap((tags) => [...tags[1]!.matchAll(STRING)].map((string) => string[2]!));
}

const RFCS = new Set<unknown>(['6749', '6750', '7636']);
const LEVELS = new Set<unknown>(['MUST', 'MUST NOT', 'REQUIRED', 'SHALL']);
const text = (value: unknown) => typeof value === 'string' && value.trim().length > 0;

/**
 * Everything wrong with a clause table, one sentence each; empty when it is honest. `declared` maps each clause id the
 * tests declare (their vitest tags) to the files that declare it; `exchangeChecks` are the ids of the registry.
 */
export function clauseProblems(
  clauses: readonly ClauseLike[],
  declared: ReadonlyMap<string, readonly string[]>,
  exchangeChecks: readonly string[],
): string[] {
  const problems = clauses.flatMap((clause, index) => rowProblems(clause, index, declared, exchangeChecks));
  const ids = clauses.map((clause) => clause.id);
  for (const id of new Set(ids.filter((id, at) => text(id) && ids.indexOf(id) !== at)))
    problems.push(`${String(id)}: the id is not unique`);
  for (const [id, files] of declared)
    if (!ids.includes(id))
      problems.push(`${files.join(', ')} declare${files.length > 1 ? '' : 's'} the clause ${id}, which the table does not have`);
  return problems;
}

/** What is wrong with one row: its fields, its coverage and the tie to its check. */
function rowProblems(
  clause: ClauseLike,
  index: number,
  declared: ReadonlyMap<string, readonly string[]>,
  exchangeChecks: readonly string[],
): string[] {
  const problems: string[] = [];
  const name = typeof clause.id === 'string' && clause.id ? clause.id : `clause #${index + 1}`;
  if (!text(clause.id)) problems.push(`${name}: has no id`);
  if (!RFCS.has(clause.rfc)) problems.push(`${name}: rfc ${JSON.stringify(clause.rfc)} is not 6749, 6750 or 7636`);
  if (typeof clause.section !== 'string' || !/^\d+(\.\d+)*$/.test(clause.section))
    problems.push(`${name}: section ${JSON.stringify(clause.section)} is not a section number`);
  else if (typeof clause.id === 'string' && !clause.id.startsWith(`RFC${String(clause.rfc)}-${clause.section}-`))
    problems.push(`${name}: the id does not start with RFC${String(clause.rfc)}-${clause.section}-`);
  if (!LEVELS.has(clause.level)) problems.push(`${name}: level ${JSON.stringify(clause.level)} is not MUST, MUST NOT, REQUIRED or SHALL`);
  if (!text(clause.text)) problems.push(`${name}: says nothing (text)`);
  if (!text(clause.applies)) problems.push(`${name}: does not say why it bears on the flows (applies)`);
  if (present(clause.note) && !text(clause.note)) problems.push(`${name}: has an empty note`);

  const covered = (['check', 'untestable', 'notApplicable'] as const).filter((field) => present(clause[field]));
  if (covered.length > 1) problems.push(`${name}: sets ${covered.join(' and ')}; exactly one of check, untestable, notApplicable`);
  for (const field of ['untestable', 'notApplicable'] as const)
    if (present(clause[field]) && !text(clause[field])) problems.push(`${name}: ${field} gives no reason`);
  if (covered.length === 0)
    problems.push(`${name}: has neither a check nor a reason (untestable, notApplicable); "pending" is not a reason`);
  if (present(clause.missing))
    problems.push(`${name}: sets missing (what a check would do): write the check, or say why none can (untestable, notApplicable)`);
  return [...problems, ...tieProblems(clause, name, declared, exchangeChecks)];
}

/** A checked clause is declared by a test and names a registered exchange check, if any; an unchecked one by none. */
function tieProblems(
  clause: ClauseLike,
  name: string,
  declared: ReadonlyMap<string, readonly string[]>,
  exchangeChecks: readonly string[],
): string[] {
  const files = typeof clause.id === 'string' ? declared.get(clause.id) : undefined;
  if (!present(clause.check))
    return files
      ? [`${name}: ${files.join(', ')} declare${files.length > 1 ? '' : 's'} it, but the table gives no check (it says why none can)`]
      : [];
  const problems: string[] = [];
  if (typeof clause.check !== 'object') problems.push(`${name}: check is not an object ({} or { exchangeCheck })`);
  if (!files) problems.push(`${name}: is checked, but no test declares it: add { tags: ['${name}'] } to the it() that provokes it`);
  const exchangeCheck = (clause.check as { exchangeCheck?: unknown }).exchangeCheck;
  if (exchangeCheck !== undefined && !exchangeChecks.includes(exchangeCheck as string))
    problems.push(`${name}: check.exchangeCheck ${JSON.stringify(exchangeCheck)} is not an exchange check of judge/exchange-checks.ts`);
  return problems;
}
