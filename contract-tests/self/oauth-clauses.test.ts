// The OAuth clause table stays honest (no target needed, file reads only): every clause has exactly one of a check, a
// reason no request can check it, or a reason it does not bear on the flows (none is pending: that is no reason); each
// named check is a test of that file, and each test of token/oauth-clauses.test.ts backs a clause. The checker, and
// the RFC grammar the clause checks apply, are shown to catch each kind of broken input.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXCHANGE_CHECKS } from '../judge/exchange-checks.ts';
import { clauseProblems, clausesMarkdown, clauseTable, type ClauseLike, OAUTH_CLAUSES, testTitles } from '../judge/oauth-clauses.ts';
import {
  encodingCapacityBits,
  errorCharacterProblems,
  parseChallenges,
  repeatedNames,
  topLevelMemberNames,
} from '../judge/oauth-syntax.ts';

const root = new URL('../..', import.meta.url);
const readCheckFile = (path: string) => {
  const file = new URL(path, root);
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
};

describe('OAuth clause table', () => {
  it('every clause has a check or a reason why not, and none is pending; ids are unique', () => {
    expect(
      clauseProblems(
        OAUTH_CLAUSES,
        readCheckFile,
        EXCHANGE_CHECKS.map((c) => c.id),
      ),
    ).toEqual([]);
  });

  it('each test of token/oauth-clauses.test.ts backs at least one clause', () => {
    const file = 'contract-tests/token/oauth-clauses.test.ts';
    const referenced = OAUTH_CLAUSES.flatMap((clause) => (clause.check?.file === file ? [clause.check.test] : []));
    const orphans = testTitles(readCheckFile(file) ?? '').filter((title) => !referenced.some((test) => title.includes(test)));
    expect(orphans).toEqual([]);
  });

  it('each coverage state comes from the fields of its clause, and the Markdown table has one line per clause', () => {
    const rows = clauseTable();
    expect(rows.length).toBe(OAUTH_CLAUSES.length);
    for (const row of rows) {
      const expected = row.check ? 'checked' : row.untestable ? 'untestable' : row.notApplicable ? 'not applicable' : undefined;
      expect(row.coverage, row.id).toBe(expected);
      expect(['checked', 'untestable', 'not applicable'], row.id).toContain(row.coverage);
      expect(row, `${row.id} says what a check would do instead of being covered`).not.toHaveProperty('missing');
    }
    const markdown = clausesMarkdown(rows);
    const lines = markdown.trimEnd().split('\n');
    expect(lines.length).toBe(rows.length + 2);
    for (const [index, row] of rows.entries()) {
      expect(lines[index + 2], row.id).toContain(`\`${row.id}\``);
      // A cell never breaks the table: one line per row, every | inside a cell escaped.
      expect(lines[index + 2]!.replace(/\\\|/g, '').split('|').length, row.id).toBe(8);
    }
  });
});

// The checker fails on each kind of broken table: a row that breaks one rule beside rows that keep them all.
const FILE = 'contract-tests/token/fixture.test.ts';
const FIXTURE_SOURCE = `
  it('refuses a thing with a 4xx', async () => {});
  it.for([['a', (): string => \`/x/\${encodeURIComponent('y')}\`]] as const)('%s answers a table row', async () => {});
  it.skip("skips a thing (it's \\"quoted\\")", () => {});
  // it('a title in a comment is no test')
  it('refuses another thing with a 4xx', async () => {});
`;
const readFixture = (path: string) => (path === FILE ? FIXTURE_SOURCE : undefined);
const good = (id: string, fields: ClauseLike = {}): ClauseLike => ({
  id: `RFC6749-4.1.2-${id}`,
  rfc: '6749',
  section: '4.1.2',
  level: 'MUST',
  text: 'Something the RFC says.',
  applies: 'Why it bears on the flows.',
  check: { file: FILE, test: 'refuses a thing' },
  ...fields,
});
const pendingRow = (id: string): ClauseLike => good(id, { check: undefined, missing: 'What a check would send and expect.' });
const problemsOf = (clauses: readonly ClauseLike[]) =>
  clauseProblems(
    clauses,
    readFixture,
    EXCHANGE_CHECKS.map((c) => c.id),
  );

describe('the clause checker fails on a broken table', () => {
  it('passes a table that keeps every rule', () => {
    const clauses = [
      good('checked'),
      good('table-test', { check: { file: FILE, test: 'answers a table row' } }),
      good('skipped-test', { check: { file: FILE, test: 'skips a thing (it\'s "quoted")' } }),
      good('untestable', { check: undefined, untestable: 'Needs a browser user.' }),
      good('not-applicable', { check: undefined, notApplicable: 'No refresh tokens.' }),
    ];
    expect(problemsOf(clauses)).toEqual([]);
  });

  it.for([
    ['neither a check nor a reason', [good('bare', { check: undefined })], 'has neither a check nor a reason'],
    ['a pending clause (what a check would do, no check)', [pendingRow('pending')], '"pending" is not a reason'],
    ['an empty reason', [good('blank', { check: undefined, untestable: '  ' })], 'untestable gives no reason'],
    [
      'a check and a reason',
      [good('both', { notApplicable: 'No refresh tokens.' })],
      'sets check and notApplicable; exactly one of check, untestable, notApplicable',
    ],
    ['missing beside a check', [good('extra', { missing: 'More.' })], 'sets missing (what a check would do)'],
    [
      'a check file that does not exist',
      [good('no-file', { check: { file: 'contract-tests/token/gone.test.ts', test: 'x' } })],
      'does not exist',
    ],
    [
      'a check outside contract-tests',
      [good('outside', { check: { file: 'test/sandbox/x.test.ts', test: 'x' } })],
      'is not a contract-tests',
    ],
    ['a test name no title contains', [good('no-test', { check: { file: FILE, test: 'accepts a thing' } })], 'no test of'],
    ['a test name found only in a comment', [good('comment', { check: { file: FILE, test: 'a title in a comment' } })], 'no test of'],
    ['a test name that is not distinctive', [good('vague', { check: { file: FILE, test: 'with a 4xx' } })], 'in 2 test titles'],
    ['a repeated id', [good('same'), good('same')], 'the id is not unique'],
    ['an id that does not name its section', [good('x', { section: '4.1.3' })], 'does not start with RFC6749-4.1.3-'],
    ['an unknown level', [good('should', { level: 'SHOULD' })], 'is not MUST, MUST NOT, REQUIRED or SHALL'],
    ['an unknown RFC', [good('rfc', { rfc: '6819' })], 'is not 6749, 6750 or 7636'],
  ] as const)('flags %s', ([, clauses, problem]) => {
    expect(problemsOf(clauses as readonly ClauseLike[]).join('\n')).toContain(problem);
  });

  it('reads test titles of plain, skipped and table tests, not of comments', () => {
    expect(testTitles(FIXTURE_SOURCE)).toEqual([
      'refuses a thing with a 4xx',
      '%s answers a table row',
      'skips a thing (it\'s "quoted")',
      'refuses another thing with a 4xx',
    ]);
  });
});

// The grammar the clause checks apply passes what the RFCs allow and fails what they do not.
describe('the RFC grammar of the clause checks', () => {
  it('error, error_description, error_uri and scope: the allowed characters pass, the others are named', () => {
    expect(
      errorCharacterProblems({ error: 'invalid_grant', error_description: "The code's gone [1].", error_uri: '/errors#grant' }),
    ).toEqual([]);
    expect(errorCharacterProblems({ error_description: 'fine' }, false)).toEqual([]);
    expect(errorCharacterProblems({ scope: 'carriers.milestones fleet.read' })).toHaveLength(1); // no error, though required
    for (const [fields, named] of [
      [{ error: '' }, 'error is missing'],
      [{ error: 'invalid "grant"' }, 'error is missing'],
      [{ error: 'x', error_description: 'must be one of ["S256"]' }, 'error_description'],
      [{ error: 'x', error_description: 'back\\slash' }, 'error_description'],
      [{ error: 'x', error_description: 'caf\u00e9' }, 'error_description'],
      [{ error: 'x', error_description: 'line\nbreak' }, 'error_description'],
      [{ error: 'x', error_uri: 'https://example.test/a b' }, 'error_uri'],
      [{ error: 'x', scope: 'a  b' }, 'scope'],
      [{ error: 'x', scope: 'a "b"' }, 'scope'],
    ] as const)
      expect(errorCharacterProblems(fields).join('; '), JSON.stringify(fields)).toContain(named);
  });

  it('JSON member names: repeats are found where JSON.parse keeps only the last', () => {
    const text = '{"access_token":"a","nested":{"access_token":"b","list":[{"x":1},"}"]},"token_type":"Bearer","access_token":"c"}';
    expect(topLevelMemberNames(text)).toEqual(['access_token', 'nested', 'token_type', 'access_token']);
    expect(repeatedNames(topLevelMemberNames(text)!)).toEqual(['access_token']);
    expect(topLevelMemberNames(' { "error" : "x" , "a\\"b" : -1.5e3, "n": null } ')).toEqual(['error', 'a"b', 'n']);
    expect(topLevelMemberNames('{}')).toEqual([]);
    for (const text of ['[1]', '"x"', 'not json', '']) expect(topLevelMemberNames(text), text).toBeUndefined();
  });

  it('WWW-Authenticate: challenges with auth-params, token68 and several schemes parse; broken ones do not', () => {
    expect(parseChallenges('Bearer error="invalid_token", error_description="The token \\"x\\" expired"')).toEqual([
      {
        scheme: 'Bearer',
        params: [
          ['error', 'invalid_token'],
          ['error_description', 'The token "x" expired'],
        ],
      },
    ]);
    expect(parseChallenges('Basic realm="api", Bearer realm=api,scope="a b"')).toEqual([
      { scheme: 'Basic', params: [['realm', 'api']] },
      {
        scheme: 'Bearer',
        params: [
          ['realm', 'api'],
          ['scope', 'a b'],
        ],
      },
    ]);
    expect(parseChallenges('Bearer')).toEqual([{ scheme: 'Bearer', params: [] }]);
    expect(parseChallenges('Negotiate abc+/==, Bearer realm="x"')).toEqual([
      { scheme: 'Negotiate', params: [], token68: 'abc+/==' },
      { scheme: 'Bearer', params: [['realm', 'x']] },
    ]);
    // A lone "name=" is a token68 (RFC 9110 11.2), not an auth-param: the bearer check requires auth-params.
    expect(parseChallenges('Bearer error=')).toEqual([{ scheme: 'Bearer', params: [], token68: 'error=' }]);
    for (const broken of ['Bearer realm="unterminated', 'Bearer realm="x", error=', '"Bearer"', 'Bearer realm="a" junk'])
      expect(parseChallenges(broken), broken).toBeUndefined();
  });

  it('encoding capacity: length times log2 of the smallest usual alphabet', () => {
    expect(encodingCapacityBits('0123456789abcdef'.repeat(2))).toBe(128); // 32 hex characters
    expect(encodingCapacityBits(`${'A'.repeat(21)}_`)).toBeGreaterThanOrEqual(128); // 22 base64url characters: 132 bits
    expect(encodingCapacityBits(`${'A'.repeat(20)}_`)).toBeLessThan(128);
    expect(encodingCapacityBits('aB3+aB3+=')).toBe(encodingCapacityBits('aB3+aB3+')); // padding carries nothing
    expect(encodingCapacityBits('123456')).toBe(24); // six digits read as hex at most: a guessable code
    expect(encodingCapacityBits('eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJpZHAifQ.c2lnbmF0dXJl')).toBeGreaterThan(128);
  });
});
