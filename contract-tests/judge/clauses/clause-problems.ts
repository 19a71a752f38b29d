// The checks of the clause table: every clause has exactly one of a check, a reason no request can check it, or a
// reason it does not bear on the flows; each referenced test exists, found by its title in the test file's source.
import type { ClauseLike } from './clause.ts';

const present = (value: unknown) => value !== undefined && value !== null;

const TABLE_MODIFIERS = new Set(['for', 'each', 'skipIf', 'runIf']);
const TEST_CALL = /(?<![\w$.])(?:it|test)((?:\.[A-Za-z]+)*)\s*\(/y;

/** Index after the quoted string starting at `at` ('...' or "..."), or -1. */
function afterQuoted(source: string, at: number): number {
  const quote = source[at];
  for (let i = at + 1; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === quote) return i + 1;
    else if (source[i] === '\n') return -1;
  }
  return -1;
}

/** Index after the template literal starting at `at`, its ${...} parts skipped as code, or -1. */
function afterTemplate(source: string, at: number): number {
  for (let i = at + 1; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === '`') return i + 1;
    else if (source[i] === '$' && source[i + 1] === '{') {
      const end = afterBracket(source, i + 2, '}');
      if (end < 0) return -1;
      i = end - 1;
    }
  }
  return -1;
}

/** From inside a bracket, the index after the bracket `closer` that closes it; strings and comments skipped. -1 if none. */
function afterBracket(source: string, from: number, closer: string): number {
  const open: string[] = [closer];
  for (let i = from; i < source.length; i++) {
    const c = source[i]!;
    let end = i;
    if (c === '"' || c === "'") end = afterQuoted(source, i) - 1;
    else if (c === '`') end = afterTemplate(source, i) - 1;
    else if (c === '/' && source[i + 1] === '/') end = source.indexOf('\n', i);
    else if (c === '/' && source[i + 1] === '*') end = source.indexOf('*/', i + 2) + 1;
    else if (c === '(') open.push(')');
    else if (c === '[') open.push(']');
    else if (c === '{') open.push('}');
    else if (c === ')' || c === ']' || c === '}') {
      if (open.pop() !== c) return -1;
      if (open.length === 0) return i + 1;
    }
    if (end < i) return -1;
    i = end;
  }
  return -1;
}

const skipSpace = (source: string, at: number) => at + (/^\s*/.exec(source.slice(at))?.[0].length ?? 0);

/** The string literal at `at`, unescaped (a template literal's text as written), or undefined. */
function literalAt(source: string, at: number): string | undefined {
  const quote = source[at];
  if (quote === "'" || quote === '"') {
    const end = afterQuoted(source, at);
    if (end < 0) return undefined;
    return source.slice(at + 1, end - 1).replace(/\\(.)/g, (_, c: string) => ({ n: '\n', t: '\t' })[c] ?? c);
  }
  if (quote === '`') {
    const end = afterTemplate(source, at);
    return end < 0 ? undefined : source.slice(at + 1, end - 1);
  }
  return undefined;
}

/** The raw titles of the tests a vitest file declares: it('...'), it.skip('...'), it.for([...])('...'), test(...);
 * calls inside comments and string literals are not tests. */
export function testTitles(source: string): string[] {
  const titles: string[] = [];
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    // Strings and comments are skipped whole; an unterminated one (a quote inside a regular expression) is a character.
    const end =
      c === '"' || c === "'"
        ? afterQuoted(source, i)
        : c === '`'
          ? afterTemplate(source, i)
          : c === '/' && source[i + 1] === '/'
            ? source.indexOf('\n', i)
            : c === '/' && source[i + 1] === '*'
              ? source.indexOf('*/', i + 2) + 2
              : i;
    if (end > i) {
      i = end - 1;
      continue;
    }
    TEST_CALL.lastIndex = i;
    const match = TEST_CALL.exec(source);
    if (!match) continue;
    let at = TEST_CALL.lastIndex;
    const modifiers = match[1]!.split('.').filter(Boolean);
    if (modifiers.some((modifier) => TABLE_MODIFIERS.has(modifier))) {
      at = afterBracket(source, at, ')');
      if (at < 0) continue;
      at = skipSpace(source, at);
      if (source[at] !== '(') continue;
      at += 1;
    }
    const title = literalAt(source, skipSpace(source, at));
    if (title !== undefined) titles.push(title);
    // Scanning goes on inside the call: the title is skipped as a string, and a nested test would be found.
    i = TEST_CALL.lastIndex - 1;
  }
  return titles;
}

const RFCS = new Set<unknown>(['6749', '6750', '7636']);
const LEVELS = new Set<unknown>(['MUST', 'MUST NOT', 'REQUIRED', 'SHALL']);
const text = (value: unknown) => typeof value === 'string' && value.trim().length > 0;

/**
 * Everything wrong with a clause table, one sentence each; empty when it is honest. `readCheckFile` answers a test
 * file's source by its path from the repository root, or undefined when there is no such file.
 */
export function clauseProblems(
  clauses: readonly ClauseLike[],
  readCheckFile: (path: string) => string | undefined,
  exchangeChecks: readonly string[],
): string[] {
  const problems: string[] = [];
  const seen = new Set<unknown>();
  const titlesOf = new Map<string, string[] | undefined>();
  const titles = (file: string) => {
    if (!titlesOf.has(file)) {
      const source = readCheckFile(file);
      titlesOf.set(file, source === undefined ? undefined : testTitles(source));
    }
    return titlesOf.get(file);
  };

  clauses.forEach((clause, index) => {
    const name = typeof clause.id === 'string' && clause.id ? clause.id : `clause #${index + 1}`;
    if (!text(clause.id)) problems.push(`${name}: has no id`);
    else if (seen.has(clause.id)) problems.push(`${name}: the id is not unique`);
    seen.add(clause.id);
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

    const exchangeCheck = present(clause.check) ? (clause.check as { exchangeCheck?: unknown }).exchangeCheck : undefined;
    if (exchangeCheck !== undefined && !exchangeChecks.includes(exchangeCheck as string))
      problems.push(`${name}: check.exchangeCheck ${JSON.stringify(exchangeCheck)} is not an exchange check of judge/exchange-checks.ts`);
    if (present(clause.check)) {
      const check = clause.check as Partial<Record<'file' | 'test', unknown>>;
      // A test file, or a module of checks that test files register (`*-checks.ts`, e.g. the matrix per API).
      if (typeof check.file !== 'string' || !/^contract-tests\/.+(\.test|-checks)\.ts$/.test(check.file))
        problems.push(`${name}: check.file ${JSON.stringify(check.file)} is not a contract-tests/…test.ts or …-checks.ts path`);
      else if (!text(check.test)) problems.push(`${name}: check.test names no test`);
      else {
        const declared = titles(check.file);
        const wanted = check.test as string;
        if (declared === undefined) problems.push(`${name}: check file ${check.file} does not exist`);
        else {
          const matching = declared.filter((title) => title.includes(wanted));
          if (matching.length === 0) problems.push(`${name}: no test of ${check.file} has "${wanted}" in its title`);
          else if (matching.length > 1)
            problems.push(`${name}: "${wanted}" is in ${matching.length} test titles of ${check.file}; name one`);
        }
      }
    }
  });
  return problems;
}
