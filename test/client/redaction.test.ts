// The one redactor (src/redact.ts) that the client and the contract suite share: every spelling of a credential, in any
// header, and nothing else.
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, createLogisticsClient } from '../../src/index.ts';
import { REDACTED, Redactor } from '../../src/redact.ts';
import { sendJson, startLoopbackServer, type LoopbackServer } from './loopback-server.ts';
import { expectNoCredentials } from './no-credentials.ts';

// Characters that each encoding treats differently: / (\/ in JSON), + and space (form), ~ ! ' ( ) * (form only),
// " (JSON), & (HTML), é and an emoji (multi-byte UTF-8, a surrogate pair in \u escapes).
const SECRET = `Zr8Q~x/y+z a!'()*"&é😀-client-secret`;
const KEY = 'subscription-key-DO-NOT-PRINT-5678';
const FLEET_KEY = 'fleet-api-key-DO-NOT-PRINT-9012';

const utf8 = (text: string) => new TextEncoder().encode(text);
const base64 = (text: string) => btoa(String.fromCharCode(...utf8(text)));
const base64url = (text: string) => base64(text).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
const hex = (text: string) => Array.from(utf8(text), (byte) => byte.toString(16).padStart(2, '0')).join('');
// UTF-16 code units, so that the emoji is a surrogate pair of escapes, as JSON writes it.
const everyCharEscaped = (text: string) =>
  Array.from({ length: text.length }, (_, i) => `\\u${text.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');
const form = (text: string) => new URLSearchParams([['', text]]).toString().slice(1);
const json = (text: string) => JSON.stringify(text).slice(1, -1);

/** Every spelling of `value` an echo may carry: the issue's list, and the mixes real servers produce. */
function spellingsOf(value: string): Record<string, string> {
  return {
    raw: value,
    'URL-encoded': encodeURIComponent(value),
    'URL-encoded, lower-case hex': encodeURIComponent(value).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
    'form-encoded': form(value),
    'form-encoded, %20 for space': form(value).replaceAll('+', '%20'),
    'JSON string': json(value),
    'JSON with \\/': json(value).replaceAll('/', '\\/'),
    'JSON with \\u002f': json(value).replaceAll('/', '\\u002f'),
    'JSON with \\u002F': json(value).replaceAll('/', '\\u002F'),
    'every character \\u-escaped': everyCharEscaped(value),
    'JSON escaped twice': json(json(value).replaceAll('/', '\\/')),
    'form-encoded inside JSON': json(form(value)),
    'URL-encoded twice': encodeURIComponent(encodeURIComponent(value)),
    'URL-encoded three times': encodeURIComponent(encodeURIComponent(encodeURIComponent(value))),
    'JSON inside a URL-encoded parameter': encodeURIComponent(JSON.stringify(value)),
    'form-encoded inside a URL-encoded parameter': encodeURIComponent(form(value)),
    'HTML-escaped': value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('/', '&#x2F;').replaceAll("'", '&#39;'),
    base64: base64(value),
    'base64 url-safe': base64url(value),
    'base64 as JSON (\\/)': json(base64(value)).replaceAll('/', '\\/'),
    'Basic auth, 2-char user': base64(`ab:${value}`),
    'Basic auth, 3-char user': base64(`app:${value}`),
    'Basic auth, 4-char user': base64(`appx:${value}`),
    hex: hex(value),
    'hex, upper case': hex(value).toUpperCase(),
  };
}

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('client errors carry no spelling of a credential', () => {
  it('in an echoed error body, and in request-id style headers', async () => {
    const spellings = [...Object.values(spellingsOf(SECRET)), ...Object.values(spellingsOf(KEY))];
    expect(new Set(spellings).size).toBeGreaterThan(25);
    server = await startLoopbackServer((_request, response) => {
      // Header values must be Latin-1 without control characters: those spellings go in the headers, all in the body.
      const headerSafe = spellings.filter((spelling) => /^[\x20-\x7e]+$/.test(spelling));
      sendJson(
        response,
        400,
        { error: 'invalid_client', echo: spellings },
        { 'x-request-id': headerSafe[3]!, 'request-id': headerSafe.at(-1)!, 'x-correlation-id': base64(`app:${SECRET}`) },
      );
    });
    const lp = createLogisticsClient({ baseUrl: server.origin, clientId: 'app', clientSecret: SECRET, subscriptionKey: KEY });
    const error = (await lp.tokenProvider.getToken().catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expectNoCredentials(error, spellings);
    expect(Object.keys(error.requestIds)).toEqual(['x-request-id', 'request-id', 'x-correlation-id']);
  });
});

describe('Redactor', () => {
  it.each(Object.entries(spellingsOf(SECRET)))('hides the %s spelling, and leaves the words around it', (_name, spelling) => {
    const redactor = new Redactor([SECRET, FLEET_KEY]);
    const clean = redactor.redact(`before ${spelling} after`);
    expect(clean.includes(spelling), 'still contains the spelling').toBe(false);
    expect(clean).toMatch(new RegExp(`^before .*${REDACTED.replace(/[[\]]/g, '\\$&')}.* after$`));
  });

  it('hides a credential that itself contains escapes when it is encoded once more (%41 sent as %2541)', () => {
    const escaped = [...KEY].map((char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`).join('');
    const redactor = new Redactor([escaped]);
    for (const shown of [escaped, encodeURIComponent(escaped), form(escaped), json(encodeURIComponent(escaped))]) {
      expect(redactor.redact(`echoed: ${shown}`), shown).toBe(`echoed: ${REDACTED}`);
    }
  });

  it('finds every occurrence, in the middle of other text, and the longest credential whole', () => {
    const redactor = new Redactor([KEY, `${KEY}-longer`]);
    expect(redactor.redact(`a=${KEY}&b=${KEY}-longer;c="${json(base64(KEY))}"`)).toBe(`a=${REDACTED}&b=${REDACTED};c="${REDACTED}"`);
  });

  it('leaves text without credentials as it is, escapes and base64 included', () => {
    const redactor = new Redactor([SECRET, KEY, FLEET_KEY]);
    const texts = [
      'issues a Bearer token',
      'Basic authentication is not supported',
      `{"path":"\\/vehicles\\/V-1","q":"a%20b+c","html":"&amp;&lt;&#47;","data":"${base64('an unrelated payload of some length')}","hex":"${hex('unrelated')}"}`,
      'a lone % and \\ and & and + at the end +',
    ];
    for (const text of texts) expect(redactor.redact(text)).toBe(text);
  });

  it('hides unknown bearer tokens and Basic credentials', () => {
    const redactor = new Redactor();
    expect(redactor.redact('Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123')).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(redactor.redact(`authorization: Basic ${base64('someone:something')}`)).toBe(`authorization: Basic ${REDACTED}`);
  });

  it('redacts any header: credential headers whole, others by their value', () => {
    const redactor = new Redactor([FLEET_KEY]);
    const headers = new Headers({
      'API-Key': 'a-key-it-does-not-know',
      Cookie: 'session=abc',
      'X-Request-Id': `req-${FLEET_KEY}`,
      'X-Something-New': encodeURIComponent(FLEET_KEY),
      'Content-Type': 'application/json',
    });
    expect(redactor.redactHeaders(headers)).toEqual({
      'api-key': REDACTED,
      'content-type': 'application/json',
      cookie: REDACTED,
      'x-request-id': `req-${REDACTED}`,
      'x-something-new': REDACTED,
    });
    expect(redactor.redactHeaders({ 'X-Echo': [FLEET_KEY, 'ok'], 'X-None': undefined })).toEqual({ 'x-echo': `${REDACTED}, ok` });
  });

  it('redactValue copies a JSON-like value with every string and key redacted', () => {
    const redactor = new Redactor([FLEET_KEY]);
    const value = { [FLEET_KEY]: 1, nested: [{ echo: `key=${encodeURIComponent(FLEET_KEY)}` }, 2, null] };
    expect(redactor.redactValue(value)).toEqual({ [REDACTED]: 1, nested: [{ echo: `key=${REDACTED}` }, 2, null] });
    expect(value.nested[0]).toEqual({ echo: `key=${encodeURIComponent(FLEET_KEY)}` });
  });

  it('a value that is mostly escapes is hidden as written, without hiding what its escapes stand for', () => {
    const redactor = new Redactor(['%41%42\\\\']);
    expect(redactor.redact('AB\\ and %41%42\\\\')).toBe(`AB\\ and ${REDACTED}`);
  });

  it('hides a credential URL-encoded four times deep where a text carries it encoded once more, if 4 characters remain', () => {
    // Four layers are decoded: the text then reads as the credential decoded three times, '%2F' and what follows.
    const deep = '%2525252Fa';
    expect(new Redactor([deep]).redact(`x ${encodeURIComponent(deep)} y`)).toBe(`x ${REDACTED} y`);
    // '%2F' alone is too short to look for; the credential is then looked for only as written.
    const short = '%2525252F';
    expect(new Redactor([short]).redact(`x ${encodeURIComponent(short)} y ${short}`)).toBe(`x ${encodeURIComponent(short)} y ${REDACTED}`);
  });

  it('ignores values too short to be credentials, and forgets a deleted one', () => {
    const redactor = new Redactor(['abc', undefined, '']);
    expect(redactor.redact('abc abc')).toBe('abc abc');
    redactor.add(KEY);
    redactor.delete(KEY);
    expect(redactor.redact(KEY)).toBe(KEY);
  });
});

describe('Redactor, at the edges of what it reads', () => {
  const hidden = (values: string[], text: string) => new Redactor(values).redact(text);
  /** Each character as a JavaScript \xXX escape (ASCII only). */
  const jsHex = (text: string) => [...text].map((char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
  /** Each character as UTF-16 \u escapes (a surrogate pair for an emoji). */
  const unicode = (char: string) => everyCharEscaped(char);

  it('hides a spelling that makes up the whole text, and replaces a base64 value whole wherever it stands', () => {
    for (const spelling of [KEY, base64(KEY), base64url(KEY), base64(`app:${KEY}`), hex(KEY)])
      expect(hidden([KEY], spelling), spelling).toBe(REDACTED);
    expect(hidden([KEY], `id=${base64(`app:${KEY}`)};`)).toBe(`id=${REDACTED};`);
    expect(hidden([KEY], `${base64(`appx:${KEY}`)} then`)).toBe(`${REDACTED} then`);
  });

  it('hides in hex a credential with a byte under 0x10 (a tab)', () => {
    const tabbed = 'tab\there-secret';
    expect(hidden([tabbed], `x=${hex(tabbed)}`)).toBe(`x=${REDACTED}`);
  });

  it('hides adjacent credentials as one, and a credential ending in an escape character that escapes nothing', () => {
    expect(hidden([KEY, FLEET_KEY], `<${KEY}${FLEET_KEY}>`)).toBe(`<${REDACTED}>`);
    expect(hidden(['trailing-secret+'], 'a trailing-secret+ b')).toBe(`a ${REDACTED} b`);
    expect(hidden(['trailing-secret%'], 'a trailing-secret% b')).toBe(`a ${REDACTED} b`);
    // A % that starts no escape is a character like any other, and so are the two after it.
    expect(hidden(['zz-secret-1234'], 'x %zz-secret-1234')).toBe(`x %${REDACTED}`);
  });

  it('hides a credential of 4 characters in every spelling, and one of 5 in base64; 3 are ignored', () => {
    expect(hidden(['ab/c'], 'x ab/c y ab%2Fc z')).toBe(`x ${REDACTED} y ${REDACTED} z`);
    expect(hidden(['k3y!5'], `Basic ${base64('ab:k3y!5')} and ${base64('k3y!5')}`)).toBe(`Basic ${REDACTED} and ${REDACTED}`);
    expect(hidden(['abc'], 'abc')).toBe('abc');
  });

  it('does not hide base64 that merely starts like a short credential', () => {
    // 'YWJjZ' begins the base64 of 'abcd' and of anything else starting with 'abc': too short to look for.
    expect(hidden(['abcd'], 'request YWJjZXX1 done')).toBe('request YWJjZXX1 done');
  });

  it('hides URL-safe base64 of a credential whose base64 has + and / at every alignment', () => {
    const value = '?>?>~~~~??>>';
    for (const prefix of ['', 'x', 'xy']) {
      const safe = base64url(`${prefix}${value}`);
      expect(safe).toMatch(/[-_]/);
      expect(hidden([value], `v=${safe}.`), prefix).toBe(`v=${REDACTED}.`);
    }
  });

  it('reads JavaScript escapes: \\xXX, escaped quotes and slashes, an escaped backslash', () => {
    expect(hidden([KEY], `'${jsHex(KEY)}'`)).toBe(`'${REDACTED}'`);
    const quoted = `it's "${KEY}"/path\\to`;
    expect(hidden([quoted], `'it\\'s \\"${KEY}\\"\\/path\\\\to'`)).toBe(`'${REDACTED}'`);
    // \x with no two hex digits after it escapes nothing.
    expect(hidden([KEY], `\\xZ${KEY}`)).toBe(`\\xZ${REDACTED}`);
  });

  it('hides a credential right after a backslash that escapes nothing (a Windows path), or that starts no \\u escape', () => {
    expect(hidden(['users-secret-1234'], 'C:\\users-secret-1234')).toBe(`C:\\${REDACTED}`);
    expect(hidden(['ABCD-secret'], 'at \\x41BCD-secret')).toBe(`at ${REDACTED}`);
    // \d escapes nothing, whatever follows it.
    expect(hidden(['db01-secret-key'], 'C:\\db01-secret-key')).toBe(`C:\\${REDACTED}`);
  });

  it('keeps a backslash that escapes nothing as part of the text: a text that differs from a credential by one is left', () => {
    expect(hidden(['keyZ-secret-1'], 'key\\Z-secret-1')).toBe('key\\Z-secret-1');
  });

  it('reads the named HTML entities and numeric ones, and leaves a number past Unicode as written', () => {
    const value = `<a href='x'>"${KEY}"</a>`;
    const html = value.replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll("'", '&apos;').replaceAll('"', '&quot;');
    expect(hidden([value], `[${html}]`)).toBe(`[${REDACTED}]`);
    expect(hidden([KEY], `&#9999999;${KEY}&#x110000;`)).toBe(`&#9999999;${REDACTED}&#x110000;`);
  });

  it('reads UTF-8 in %XX escapes of 2, 3 and 4 bytes, mixed with \\u escapes of the same characters', () => {
    const value = 'ü-é-ß-€-→-😀-🔑-secret';
    const chars = [...value];
    const nonAscii = chars.filter((char) => char.codePointAt(0)! > 0x7f);
    for (const percentFirst of [true, false]) {
      let seen = 0;
      const text = chars
        .map((char) => {
          if (char.codePointAt(0)! <= 0x7f) return char;
          seen += 1;
          return (seen % 2 === 1) === percentFirst ? encodeURIComponent(char) : unicode(char);
        })
        .join('');
      expect(seen).toBe(nonAscii.length);
      expect(hidden([value], `"${text}"`), text).toBe(`"${REDACTED}"`);
    }
  });

  it('reads a broken UTF-8 %XX sequence as one replacement character, and finds a credential right after it', () => {
    const value = 'AB-secret-value';
    const encodedA = `%41B-secret-value`;
    for (const broken of ['%C3', '%C0', '%C1', '%80', '%F5', '%FF', '%E2%82', '%F0%9F%98', '%F4%90%80%80', '%C3%C3'])
      for (const text of [`${broken}${value}`, `${broken}${encodedA}`])
        expect(hidden([value], text), text).toMatch(new RegExp(`^${broken.replace(/%/g, '%')}.*\\[REDACTED\\]$`));
    expect(hidden([value], `%E2%82${encodedA}`)).toBe(`%E2%82${REDACTED}`);
    expect(hidden([value], `%C3${encodedA}`)).toBe(`%C3${REDACTED}`);
    expect(hidden([value], `%F4%90%80%80${value}`)).toBe(`%F4%90%80%80${REDACTED}`);
  });

  it('decodes up to four layers of encoding, and stops there', () => {
    let text = KEY.replace('-', '/');
    const value = text;
    for (let layer = 1; layer <= 4; layer += 1) {
      text = encodeURIComponent(text);
      expect(hidden([value], text), `${layer} layers`).toBe(REDACTED);
    }
    const fifth = encodeURIComponent(text);
    expect(hidden([value], fifth)).toBe(fifth);
  });

  it('hides unknown bearer tokens and Basic credentials after any run of spaces, unpadded too; leaves "Basic" prose', () => {
    expect(hidden([], 'Bearer   abcdefghijklmnopqrstuvwxyz0123')).toBe(`Bearer   ${REDACTED}`);
    expect(hidden([], `Basic  ${base64('user:pass')}`)).toBe(`Basic  ${REDACTED}`);
    expect(base64('user:pass')).not.toContain('=');
    for (const prose of ['Basic abcde fails', 'Basic authentication', 'Basic dXNlcg== (no colon)', 'the value is undefined'])
      expect(hidden([KEY], prose)).toBe(prose);
  });

  it('hides every credential header whole, whatever its value; takes headers as pairs or a Map too', () => {
    const names = ['Authorization', 'Proxy-Authorization', 'Cookie', 'Set-Cookie', 'API-Key', 'X-API-Key', 'Ocp-Apim-Subscription-Key'];
    const headers = names.map((name) => [name, 'any value at all'] as const);
    const expected = Object.fromEntries(names.map((name) => [name.toLowerCase(), REDACTED]));
    expect(new Redactor().redactHeaders(headers)).toEqual(expected);
    expect(new Redactor().redactHeaders(new Map(headers))).toEqual(expected);
    expect(new Redactor([KEY]).redactHeaders([['X-Echo', `k=${KEY}`]])).toEqual({ 'x-echo': `k=${REDACTED}` });
  });
});
