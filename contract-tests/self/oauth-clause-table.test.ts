// The OAuth clause table stays honest (no target needed, file reads only): every clause has exactly one of a check, a
// reason no request can check it, or a reason it does not bear on the flows (none is pending: that is no reason); a
// checked clause is tied to its checks by ids: its own, which the tests that provoke it declare among their vitest
// tags, and its exchange check's, which the registry has. Each test of the clause-check files declares a clause. The
// checker, and the RFC grammar the clause checks apply, are shown to catch each kind of broken input.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXCHANGE_CHECKS } from '../judge/exchange-checks.ts';
import { type ClauseLike, clauseProblems, clauseTags, declaredTags, OAUTH_CLAUSES } from '../judge/oauth-clauses.ts';
import {
  encodingCapacityBits,
  errorCharacterProblems,
  parseChallenges,
  repeatedNames,
  topLevelMemberNames,
} from '../judge/oauth-syntax.ts';
import { clausesMarkdown, clauseTable } from '../report/clause-table.ts';

const suite = new URL('..', import.meta.url);
/** The suite's files, from contract-tests/, but its own tests and the judge (whose clause checker names tags). */
const checkFiles = readdirSync(suite, { recursive: true, encoding: 'utf8' }).filter(
  (path) => path.endsWith('.ts') && !/^(self|judge)\//.test(path),
);
const sourceOf = (path: string) => readFileSync(new URL(path, suite), 'utf8');

/** Each clause id the tests declare, with the files that declare it. */
function declaredBy(files: ReadonlyMap<string, string>): Map<string, string[]> {
  const declared = new Map<string, string[]>();
  for (const [file, source] of files) for (const id of new Set(declaredTags(source))) declared.set(id, [...(declared.get(id) ?? []), file]);
  return declared;
}
const exchangeCheckIds = EXCHANGE_CHECKS.map((check) => check.id);

describe('OAuth clause table', () => {
  it('every clause has a check or a reason why not, none is pending, ids are unique, and every tie holds', () => {
    const declared = declaredBy(new Map(checkFiles.map((file) => [file, sourceOf(file)])));
    expect(clauseProblems(OAUTH_CLAUSES, declared, exchangeCheckIds)).toEqual([]);
    // The config defines a tag per clause, so a test that declares an id no clause has does not run.
    expect(clauseTags().map((tag) => tag.name)).toEqual(OAUTH_CLAUSES.map((clause) => clause.id));
  });

  it('each test of the clause-check files declares the clauses it checks', () => {
    const files = checkFiles.filter((file) => /^token\/oauth-.*clauses\.test\.ts$/.test(file));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const source = sourceOf(file);
      const tests = source.match(/^\s*it(\.\w+)*\(/gm) ?? [];
      expect(tests.length, file).toBeGreaterThan(0);
      expect(source.match(/\btags: \[/g)?.length, `${file}: a test declares no clause (tags)`).toBe(tests.length);
    }
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
const FILE = 'token/fixture.test.ts';
const FIXTURE_SOURCE = `
  it('refuses a thing with a 4xx', { tags: ['RFC6749-4.1.2-checked', "RFC6749-4.1.2-exchange"] }, async () => {});
  it.for([['a', 'b']] as const)('%s answers a table row', { tags: ['RFC6749-4.1.2-table-test'] }, async () => {});
  it('checks nothing the table has', async () => {});
`;
const fixtureDeclared = () => declaredBy(new Map([[FILE, FIXTURE_SOURCE]]));
const good = (id: string, fields: ClauseLike = {}): ClauseLike => ({
  id: `RFC6749-4.1.2-${id}`,
  rfc: '6749',
  section: '4.1.2',
  level: 'MUST',
  text: 'Something the RFC says.',
  applies: 'Why it bears on the flows.',
  check: {},
  ...fields,
});
const GOOD_TABLE = [
  good('checked'),
  good('exchange', { check: { exchangeCheck: 'authorize-redirect' } }),
  good('table-test'),
  good('untestable', { check: undefined, untestable: 'Needs a browser user.' }),
  good('not-applicable', { check: undefined, notApplicable: 'No refresh tokens.' }),
];
/** The good table with one row replaced (or added, for a new id). */
const withRow = (row: ClauseLike) => [...GOOD_TABLE.filter((clause) => clause.id !== row.id), row];
const problemsOf = (clauses: readonly ClauseLike[], declared = fixtureDeclared()) => clauseProblems(clauses, declared, exchangeCheckIds);

describe('the clause checker fails on a broken table', () => {
  it('passes a table that keeps every rule', () => {
    expect(problemsOf(GOOD_TABLE)).toEqual([]);
  });

  it.for([
    ['neither a check nor a reason', withRow(good('checked', { check: undefined })), 'has neither a check nor a reason'],
    [
      'a pending clause (what a check would do, no check)',
      withRow(good('pending', { check: undefined, missing: 'What a check would send and expect.' })),
      '"pending" is not a reason',
    ],
    ['an empty reason', withRow(good('untestable', { check: undefined, untestable: '  ' })), 'untestable gives no reason'],
    [
      'a check and a reason',
      withRow(good('checked', { notApplicable: 'No refresh tokens.' })),
      'sets check and notApplicable; exactly one of check, untestable, notApplicable',
    ],
    ['missing beside a check', withRow(good('checked', { missing: 'More.' })), 'sets missing (what a check would do)'],
    [
      'a checked clause no test declares',
      withRow(good('undeclared')),
      "RFC6749-4.1.2-undeclared: is checked, but no test declares it: add { tags: ['RFC6749-4.1.2-undeclared'] }",
    ],
    [
      'an exchange check the registry does not have',
      withRow(good('exchange', { check: { exchangeCheck: 'authorise-redirect' } })),
      'RFC6749-4.1.2-exchange: check.exchangeCheck "authorise-redirect" is not an exchange check of judge/exchange-checks.ts',
    ],
    [
      'a test that declares a clause the table says is not checked',
      withRow(good('checked', { check: undefined, untestable: 'Needs a browser user.' })),
      'RFC6749-4.1.2-checked: token/fixture.test.ts declares it, but the table gives no check',
    ],
    [
      'a test that declares a clause the table does not have',
      GOOD_TABLE.filter((clause) => clause.id !== 'RFC6749-4.1.2-table-test'),
      'token/fixture.test.ts declares the clause RFC6749-4.1.2-table-test, which the table does not have',
    ],
    ['a repeated id', [...GOOD_TABLE, good('checked')], 'RFC6749-4.1.2-checked: the id is not unique'],
    ['an id that does not name its section', withRow(good('checked', { section: '4.1.3' })), 'does not start with RFC6749-4.1.3-'],
    ['an unknown level', withRow(good('checked', { level: 'SHOULD' })), 'is not MUST, MUST NOT, REQUIRED or SHALL'],
    ['an unknown RFC', withRow(good('checked', { rfc: '6819' })), 'is not 6749, 6750 or 7636'],
  ] as const)('flags %s', ([, clauses, problem]) => {
    expect(problemsOf(clauses as readonly ClauseLike[]).join('\n')).toContain(problem);
  });

  it('reads the clause ids of plain and table tests from their tags', () => {
    expect(declaredTags(FIXTURE_SOURCE)).toEqual(['RFC6749-4.1.2-checked', 'RFC6749-4.1.2-exchange', 'RFC6749-4.1.2-table-test']);
    expect(declaredTags("it('a title with tags: [in it]', async () => {});")).toEqual([]);
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
