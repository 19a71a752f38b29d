// A red that holds on servers that keep the documentation: a clause makes a violation only as it reads today (a MUST
// that still stands and binds the server), a header is judged by its own grammar, a requirement of the published
// documentation beyond the RFC says so, and one broken promise seen on many exchanges is one entry.
import { describe, expect, it } from 'vitest';
import { breaksContract, todayOf, whyNote } from '../judge/clauses/clause-standing.ts';
import { STANDINGS, standingOf } from '../judge/clauses/standings.ts';
import { EXCHANGE_CHECKS } from '../judge/exchange-checks.ts';
import { headerGrammar } from '../judge/header-grammar.ts';
import { asItStandsToday } from '../judge/judge-exchange.ts';
import { clausesMarkdown, clauseTable } from '../judge/oauth-clauses.ts';
import { setAside, violationGroups } from '../report/violations.ts';
import type { LedgerEntry } from '../send/ledger.ts';

describe('clauses as they stand today', () => {
  it('every clause an exchange check names is in the tables, with a source and a strength', () => {
    for (const check of EXCHANGE_CHECKS)
      for (const id of check.clauses) {
        const standing = standingOf(id);
        expect(standing.source, id).toMatch(/\S/);
        expect(['MUST', 'SHOULD', 'MAY'], id).toContain(standing.strength);
      }
    expect(() => standingOf('RFC6749-0-no-such-clause')).toThrow(/names a clause no table has/);
  });

  it('Pragma: no-cache is a MUST of RFC 6749 that RFC 9111 and the OAuth 2.1 draft relaxed: a note citing both', () => {
    const pragma = standingOf('RFC6749-5.1-pragma-no-cache');
    expect(pragma.strength).toBe('MUST');
    expect(todayOf(pragma)).toBe('MAY');
    expect(breaksContract(pragma)).toBe(false);
    expect(whyNote(pragma)).toMatch(/RFC 6749 5\.1 writes it as a MUST, but RFC 9111 5\.4 deprecates Pragma.*OAuth 2\.1 draft/);
    // Cache-Control: no-store still stands.
    expect(breaksContract(standingOf('RFC6749-5.1-cache-control-no-store'))).toBe(true);
    // The clause table of the reports says so too.
    const row = clausesMarkdown(clauseTable())
      .split('\n')
      .find((line) => line.includes('`RFC6749-5.1-pragma-no-cache`'));
    expect(row).toMatch(/\| MUST \| MAY: RFC 9111 5\.4 deprecates Pragma/);
  });

  it('a rule that binds the client is a note when a server accepts what the client must not send', () => {
    for (const id of ['RFC6749-3.2-post', 'RFC6749-2.3-one-authentication-method']) {
      expect(breaksContract(standingOf(id)), id).toBe(false);
      expect(whyNote(standingOf(id)), id).toMatch(/binds the client/);
    }
  });

  it('the judge turns a violation of a relaxed clause into a note and labels the documentation’s own requirement', () => {
    const finding = {
      check: 'rfc6749-token-answer',
      promise: 'RFC 6749, section 5.1',
      verdict: 'violation' as const,
      message: 'no Pragma',
    };
    expect(asItStandsToday({ ...finding, clause: 'RFC6749-5.1-pragma-no-cache' })).toMatchObject({ verdict: 'note' });
    expect(asItStandsToday({ ...finding, clause: 'RFC6749-5.1-cache-control-no-store' })).toEqual({
      ...finding,
      clause: 'RFC6749-5.1-cache-control-no-store',
    });
    const scope = asItStandsToday({ ...finding, clause: 'seed-4.2-scope-required' });
    expect(scope.verdict).toBe('violation');
    expect(scope.promise).toMatch(/published documentation's own requirement; RFC 6749 alone would allow the answer/);
    // Only seed clauses may say the documentation asks more than the RFC.
    for (const standing of STANDINGS.values()) if (standing.rfcAlone) expect(standing.source).toMatch(/^published documentation/);
  });
});

describe('headers by their own grammar', () => {
  it.for([
    ['location', '/idp/interaction/vcX_Y5rRoP51_BD2Gz44-z58StAGNc', true],
    ['location', 'https://partner.example/callback?code=abc&state=x', true],
    ['location', '../login?x=1#top', true],
    ['location', 'http://a b/', false],
    ['location', '1http:/x', false],
    ['location', '/a#b#c', false],
    ['retry-after', '120', true],
    ['retry-after', 'Fri, 27 Nov 2026 21:38:09 GMT', true],
    ['retry-after', 'Friday, 27-Nov-26 21:38:09 GMT', true],
    ['retry-after', 'Fri Nov 27 21:38:09 2026', true],
    ['retry-after', '1.5', false],
    ['retry-after', 'soon', false],
    ['www-authenticate', 'Bearer realm="api", error="invalid_token"', true],
    ['www-authenticate', 'Basic realm="x", Bearer', true],
    ['www-authenticate', '"quoted"', false],
  ] as const)('%s %s: %s', ([name, value, valid]) => {
    expect(headerGrammar(name)!.accepts(value)).toBe(valid);
  });
});

const violationEntry = (promise: string, message: string, id: number): LedgerEntry => ({
  kind: 'violation',
  test: `check ${id % 7}`,
  promise,
  from: 'answer',
  check: 'documented-answer',
  message,
  evidence: {
    request: { method: 'GET', url: `$LP_AUTH_URL/oauth2/default/v1/authorize?state=s${id}`, headers: {} },
    answer: { status: 303, contentType: 'text/html', body: '' },
    curl: 'curl',
  },
});

describe('one broken promise, one entry', () => {
  it('40 exchanges of one broken promise with different ids are one group, seen 40 times, with two examples', () => {
    const entries = Array.from({ length: 40 }, (_, i) => {
      const id = `${crypto.randomUUID().replace(/-/g, '')}${i}`;
      const message = `requestAuthorization answered 303: header Location "/idp/interaction/${id}" is not a URI-reference`;
      return violationEntry(`Published documentation, section 4.3 (Authorization redirect): ${message}`, message, i);
    });
    const groups = violationGroups(entries, { occurrences: true });
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ count: 40 });
    expect(groups[0]!.examples).toHaveLength(2);
    expect(groups[0]!.messages).toHaveLength(1);
    expect(groups[0]!.occurrences).toHaveLength(40);
    // The console and the other reports show the group once; violations.json keeps every exchange.
    expect(violationGroups(entries)[0]!.occurrences).toBeUndefined();
  });

  it('promises that differ in their section, their RFC or their check stay apart', () => {
    const entries = [
      violationEntry('Published documentation, section 4.2: x "a1b2c3d4e5f6"', 'x', 1),
      violationEntry('Published documentation, section 4.3: x "a1b2c3d4e5f6"', 'x', 2),
      violationEntry('RFC 6749, section 5.1, which the documented OAuth 2.0 flows rely on', 'y', 3),
      violationEntry('RFC 6750, section 3, which the documented OAuth 2.0 flows rely on', 'y', 4),
      { ...violationEntry('RFC 6750, section 3, which the documented OAuth 2.0 flows rely on', 'y', 5), check: 'rfc6750-bearer-challenge' },
    ];
    expect(violationGroups(entries)).toHaveLength(5);
    expect(setAside('state of 1025 characters (limit 1024), section 4.1.2.1, answered 303')).toBe(
      'state of N characters (limit N), section 4.1.2.1, answered 303',
    );
  });
});
