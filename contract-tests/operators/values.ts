// The values the operators put in a parameter's place, derived from its valid value and its schema: case changes,
// encodings, near misses, injection characters, the Unicode classes, the boundaries of its format and one over its
// limit. Pure: no request is sent here, and a value is named by how it was made, never printed.

/** A made value: how it was made (safe to print), the value, and whether it goes on the wire as written (already
 * percent-encoded: the operators that encode on purpose). */
export interface MadeValue {
  label: string;
  value: string;
  raw?: boolean;
}

const swapCase = (value: string) => [...value].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
/** Every byte of the value as %XX. */
export const percentEncoded = (value: string) =>
  [...new TextEncoder().encode(value)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/** Drops variants equal to the value or to an earlier one. */
export function distinct(value: string, made: MadeValue[]): MadeValue[] {
  const seen = new Set<string>([value]);
  return made.filter((m) => !seen.has(m.value) && Boolean(seen.add(m.value)));
}

export const caseChanges = (value: string): MadeValue[] =>
  distinct(value, [
    { label: 'upper case', value: value.toUpperCase() },
    { label: 'lower case', value: value.toLowerCase() },
    { label: 'case swapped', value: swapCase(value) },
  ]);

/** One character off, without ever landing on the value itself (a middle character, not base64 padding). */
export function nearMissValues(value: string): MadeValue[] {
  const unpadded = value.replace(/=+$/, '');
  const middle = Math.floor(unpadded.length / 2);
  const changed = `${unpadded.slice(0, middle)}${unpadded[middle] === 'x' ? 'y' : 'x'}${value.slice(middle + 1)}`;
  return distinct(
    value,
    [
      { label: 'with a prefix', value: `x${value}` },
      { label: 'with a suffix', value: `${value}x` },
      { label: 'cut by one character', value: unpadded.slice(0, -1) },
      { label: 'one character changed', value: changed },
    ].filter((m) => m.value !== ''),
  );
}

/** Characters that break a query, a path or a string built by hand (SQL, shells, file paths, C strings). */
export const injectionValues = (value: string): MadeValue[] => [
  { label: 'a single quote appended', value: `${value}'` },
  { label: 'a double quote appended', value: `${value}"` },
  { label: 'a backslash appended', value: `${value}\\` },
  { label: 'a semicolon appended', value: `${value};` },
  { label: 'a NUL byte appended', value: `${value}\u0000` },
  { label: 'a parent-directory prefix', value: `../${value}` },
  { label: 'a quoted always-true condition appended', value: `${value}' OR '1'='1` },
];

/** Values from the whole of Unicode, each a well-formed string (a lone surrogate cannot be sent in UTF-8). */
/** Values of whitespace only, blank but not empty, in three kinds of space: ASCII (spaces and a tab), the no-break space,
 * and the wide spaces of other scripts. Each under four characters, so none is ever taken for a credential to redact. */
export const BLANK_VALUES: readonly MadeValue[] = [
  { label: 'blank: spaces and a tab', value: ' \t ' },
  { label: 'blank: a no-break space (U+00A0)', value: '\u00a0' },
  { label: 'blank: an em space and an ideographic space (U+2003, U+3000)', value: '\u2003\u3000' },
];

export const UNICODE_VALUES: readonly MadeValue[] = [
  {
    label: 'letters outside ASCII (Latin, Cyrillic, Greek, CJK, Hangul, Arabic, Hebrew) with combining marks and astral emoji',
    value: 'Ünïcödé ßøæ Привет Ωμέγα 漢字テスト한국어 مرحبا שלום e\u0301\u0308\u0323 Z\u0336\u0338a\u030a 🚚📦\u{1F1E9}\u{1F1EA}\u{1F3FD}',
  },
  {
    label: 'control and invisible characters: a NUL, a right-to-left override, zero-width characters',
    value: 'contract\u0000probe \u202Egnp.exe\u202C a\u200Db\u200Cc\u200Bd\uFEFF👩\u200D👩\u200D👧',
  },
  {
    label: 'one code point of every plane (noncharacters, private use, U+10FFFF)',
    value:
      Array.from({ length: 17 }, (_, plane) => String.fromCodePoint(plane * 0x10000 + (plane === 0 ? 0xfffe : 0xffff))).join('') +
      '\uE000\u{F0000}\u{10FFFF}',
  },
];

const MIXED_SCRIPTS = [...'aé λж عש कก中ひ한🚚𝔘\u0301ß'];
const mixedScripts = (codePoints: number) => Array.from({ length: codePoints }, (_, i) => MIXED_SCRIPTS[i % MIXED_SCRIPTS.length]).join('');
/** A long value: 5000 code points in a body; in a URL as many as fit 4 KiB percent-encoded (a longer request line is
 * refused by the HTTP layer before the operation sees the value, which tests the server's limits, not its Unicode). */
export function longUnicode(inUrl: boolean): MadeValue {
  // Made once per process: every application of the Unicode operator asks for it, and making it again each time cost
  // a live run about half a CPU-second per worker.
  const where = inUrl ? 'url' : 'body';
  LONG_UNICODE[where] ??= mixedScriptsValue(inUrl ? pointsThatFit(4096) : 5000);
  return LONG_UNICODE[where];
}
const mixedScriptsValue = (points: number): MadeValue =>
  Object.freeze({ label: `${points} code points of mixed scripts`, value: mixedScripts(points) });
const LONG_UNICODE: { url?: MadeValue; body?: MadeValue } = {};

/** The most code points of mixedScripts whose percent-encoding fits `bytes`. */
function pointsThatFit(bytes: number): number {
  let length = 0;
  for (let points = 0; ; points++) {
    length += encodeURIComponent(MIXED_SCRIPTS[points % MIXED_SCRIPTS.length]!).length;
    if (length > bytes) return points;
  }
}

/** Boundaries of a date-time (RFC 3339, the seed's "ISO 8601 timestamp in UTC"). */
export const DATE_TIME_BOUNDARIES: readonly MadeValue[] = [
  { label: 'a leap second', value: '2016-12-31T23:59:60Z' },
  { label: 'a leap day', value: '2024-02-29T12:00:00Z' },
  { label: 'February 29 of a common year', value: '2025-02-29T12:00:00Z' },
  { label: 'the offset +00:00 instead of Z', value: '2026-11-22T14:30:00+00:00' },
  { label: 'the offset -00:00', value: '2026-11-22T14:30:00-00:00' },
  { label: 'an offset of +05:30', value: '2026-11-22T20:00:00+05:30' },
  { label: 'a fraction of a second', value: '2026-11-22T14:30:00.5Z' },
  { label: 'nanoseconds', value: '2026-11-22T14:30:00.123456789Z' },
  { label: 'the first instant of year 1', value: '0001-01-01T00:00:00Z' },
  { label: 'the Unix epoch', value: '1970-01-01T00:00:00Z' },
  { label: 'the last second of year 9999', value: '9999-12-31T23:59:59Z' },
  { label: 'lower-case t and z', value: '2026-11-22t14:30:00z' },
  { label: 'a space instead of T', value: '2026-11-22 14:30:00Z' },
  { label: 'hour 24', value: '2026-11-22T24:00:00Z' },
];

/** Near misses of a URI (a redirect URI is compared as a string, RFC 6749 3.1.2.3). */
export function uriBoundaries(value: string): MadeValue[] {
  if (!URL.canParse(value)) return [];
  const url = new URL(value);
  const path = url.pathname.replace(/\/$/, '');
  const at = (pathname: string) => `${url.protocol}//${url.host}${pathname}${url.search}`;
  return distinct(value, [
    { label: 'a trailing slash', value: at(`${path}/`) },
    { label: 'a dot segment', value: at(`${path}/../${path.split('/').pop() ?? ''}`) },
    {
      label: 'the default port written out',
      value: `${url.protocol}//${url.hostname}:${url.port || (url.protocol === 'https:' ? 443 : 80)}${url.pathname}${url.search}`,
    },
    { label: 'upper-case scheme and host', value: `${url.protocol.toUpperCase()}//${url.host.toUpperCase()}${url.pathname}${url.search}` },
    { label: 'a fragment', value: `${value}#x` },
    { label: 'a query added', value: `${value}${url.search ? '&' : '?'}x=1` },
  ]);
}

/** A value of exactly `length` characters that starts like `value`. */
export const ofLength = (value: string, length: number) => `${value}${'x'.repeat(Math.max(0, length))}`.slice(0, length);
