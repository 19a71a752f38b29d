// The redactor reads %XX escapes as UTF-8 the way a browser does: every character at the edges of each sequence length,
// and nothing that is not UTF-8 (a stray continuation byte, an overlong or too long sequence, a byte no character
// starts with) is taken for a character, so no text that only looks like a credential that way is hidden.
import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor } from '../../src/redact.ts';

const hidden = (values: string[], text: string) => new Redactor(values).redact(text);

describe('Redactor, reading %XX escapes as UTF-8', () => {
  it('hides a credential whose characters at the edges of 2, 3 and 4 byte UTF-8 a text writes one as is, one %XX-encoded', () => {
    // The first and last character of each length: U+0080 and U+07FF, U+0800 and U+FFFF, U+10000 and U+10FFFF.
    for (const char of ['\u0080', '\u07ff', '\u0800', '\uffff', '\u{10000}', '\u{10ffff}']) {
      const credential = `${char}-key-${char}`;
      expect(hidden([credential], `<${char}-key-${encodeURIComponent(char)}>`), encodeURIComponent(char)).toBe(`<${REDACTED}>`);
    }
  });

  it('reads an HTML character reference up to the last code point, U+10FFFF', () => {
    expect(hidden(['\u{10ffff}-key-\u{10ffff}'], '(&#1114111;-key-&#x10FFFF;)')).toBe(`(${REDACTED})`);
  });

  it('leaves a text that only reads as a credential if bytes that are not UTF-8 were decoded loosely or dropped', () => {
    const lookalikes = [
      ['\u0080-key-\u0080', '\u0080-key-%80'], // a continuation byte alone is not U+0080
      ['A-key-A', 'A-key-%C1%81'], // overlong: 2 bytes for an ASCII character
      ['A-key-A', 'A-key-%C0%81%81'], // C0 starts no sequence, of 3 bytes either
      ['A-key-A', 'A-key-%C0%80%81%81'], // nor of 4
      ['A-key-A', 'A-key-%F8%80%81%81'], // F8 starts no sequence
      ['Á-key-Á', 'Á-key-%C3%C1'], // C1 continues no sequence
      ['é-key-é', 'é-key-%C3 A9'], // a byte is %XX, not any character and two hex digits
      ['key-secret-1', 'key-%C3secret-1'], // a sequence cut short is a character, not nothing
      ['key-secret-1', 'key-%FFsecret-1'], // so is a byte no character starts with
    ];
    for (const [credential, text] of lookalikes) expect(hidden([credential!], text!), text).toBe(text);
  });
});
