// The redactor as a long-lived process uses it: thousands of credentials at once (a contract run hides every token
// and code it was issued), credentials that share a spelling, and credentials forgotten one by one.
import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor } from '../../src/redact.ts';

const tokenNumber = (i: number) => `tok-${i.toString(36).padStart(6, '0')}-${(i * 7919).toString(16)}`;

describe('a redactor holding many credentials', () => {
  it('hides each of 2,000 credentials, in any of its spellings, and leaves text around them whole', () => {
    const tokens = Array.from({ length: 2_000 }, (_, i) => tokenNumber(i));
    const redactor = new Redactor(tokens);
    for (const i of [0, 1, 999, 1_998, 1_999]) {
      const token = tokens[i]!;
      expect(redactor.redact(`{"access_token":"${token}"}`)).toBe(`{"access_token":"${REDACTED}"}`);
      expect(redactor.redact(`t=${encodeURIComponent(encodeURIComponent(token))}&x`)).toBe(`t=${REDACTED}&x`);
      expect(redactor.redact(`Basic ${btoa(`user:${token}`)}`)).toBe(`Basic ${REDACTED}`);
      expect(redactor.redact(`hex ${Buffer.from(token).toString('hex').toUpperCase()} end`)).toBe(`hex ${REDACTED} end`);
    }
    expect(redactor.redact('tok-not-issued and tok-')).toBe('tok-not-issued and tok-');
  });

  it('finds credentials that overlap or repeat in one text', () => {
    const redactor = new Redactor(['abcdefgh', 'efghijkl']);
    expect(redactor.redact('x abcdefghijkl y abcdefgh z')).toBe(`x ${REDACTED} y ${REDACTED} z`);
  });

  it('hides a credential of 4 characters that ends the text, and reads letters in their case (hex in either)', () => {
    const redactor = new Redactor(['k3y9', 'abcdef12']);
    expect(redactor.redact('key=k3y9')).toBe(`key=${REDACTED}`);
    expect(redactor.redact('k3y9')).toBe(REDACTED);
    expect(redactor.redact('id ABCDEF12 and abcdef12')).toBe(`id ABCDEF12 and ${REDACTED}`);
    expect(redactor.redact(`hex ${Buffer.from('abcdef12').toString('hex').toUpperCase()}`)).toBe(`hex ${REDACTED}`);
  });

  it('forgets a credential added twice with one delete', () => {
    const redactor = new Redactor(['rotated-token-1']);
    redactor.add('rotated-token-1');
    redactor.delete('rotated-token-1');
    expect(redactor.redact('a rotated-token-1 b')).toBe('a rotated-token-1 b');
  });

  it('still hides a credential after another with the same spelling was forgotten', () => {
    // 'abcd%41zz' and 'abcdAzz' are the same characters once decoded: both are looked for as 'abcdAzz'.
    const redactor = new Redactor(['abcd%41zz', 'abcdAzz']);
    redactor.delete('abcdAzz');
    expect(redactor.redact('x abcdAzz y')).toBe(`x ${REDACTED} y`);
    redactor.delete('abcd%41zz');
    expect(redactor.redact('x abcdAzz y')).toBe('x abcdAzz y');
  });

  it('forgets a deleted credential in every spelling, and takes it back when added again', () => {
    const redactor = new Redactor(['s3cret-value']);
    redactor.delete('s3cret-value');
    redactor.delete('never-added');
    const spellings = ['s3cret-value', btoa('s3cret-value'), Buffer.from('s3cret-value').toString('hex'), 's3cret%2Dvalue'];
    for (const text of spellings) expect(redactor.redact(`a ${text} b`)).toBe(`a ${text} b`);
    redactor.add('s3cret-value');
    for (const text of spellings) expect(redactor.redact(`a ${text} b`)).toBe(`a ${REDACTED} b`);
  });
});
