// The one redactor of the kit: the client scrubs its errors with it, the contract suite its output and reports.
// A server or a log may echo a credential in any spelling a request carried it in, or in one it made up, so a known
// credential is found
// - as is, URL- or form-encoded (%XX in either case, + for a space), JSON- or JS-escaped (\/, \", \u002f, any \uXXXX or
//   \xXX), HTML-escaped (&#47;, &#x2F;, &amp;), and any mix and nesting of these (encoded twice, JSON inside a query);
// - in base64, standard or URL-safe, padded or not, alone or inside a longer value (Basic auth's base64 of
//   user:password): the whole base64 value is hidden then;
// - in hex, either case.
// Bearer and Basic credentials that are not known are hidden too. Uses only what browsers have as well as Node.

/** @internal */
export const REDACTED = '[REDACTED]';

// Very short values would redact ordinary words; real credentials are longer.
const MIN_CREDENTIAL_LENGTH = 4;
// A base64 fragment shorter than this could occur by chance.
const MIN_BASE64_FRAGMENT = 6;
const UNKNOWN_BEARER = /(Bearer\s+)[A-Za-z0-9\-._~+/]{16,}=*/g;
const UNKNOWN_BASIC = /(Basic\s+)([A-Za-z0-9+/]{4,}=*)/g;
/** Headers whose value is a credential whatever it is. */
const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'api-key',
  'x-api-key',
  'ocp-apim-subscription-key',
]);

interface Spellings {
  /**
   * The value in canonical form (see canonicalize), to look for in the canonical form of a text; undefined when that
   * form is too short to look for (a value made mostly of escapes), and the value is then looked for only as it is.
   */
  canonical: string | undefined;
  value: string;
  /**
   * For a value that itself contains escapes (`%41`, `\u0041`): the value as written, in the form a text carrying it
   * encoded once more (`%2541`) canonicalizes to. Canonical forms decode one level, so without this only the decoded
   * characters would be found.
   */
  literal?: string | undefined;
  /** Its UTF-8 bytes in hex, in lower case (looked for in either case). */
  hex: string;
  /** Canonical forms of the base64 fragments that encode only the value's bytes, at each of the three byte alignments. */
  base64: readonly string[];
}

/** Room after a cut for the longest spelling of a credential that starts before it (a 64-character secret encoded four
 * times over is under 2,500 characters). */
const REDACTION_MARGIN_CHARS = 4096;

/**
 * The part of a text to redact before cutting it to its first `chars` characters: those and the margin, so that no
 * credential starting before the cut is left half-hidden, without redacting a long text whole.
 * @internal
 */
export function redactionWindow(text: string, chars: number): string {
  // Stryker disable next-line MethodExpression: redacting the whole text gives the same first characters; the cut only saves work
  return text.slice(0, chars + REDACTION_MARGIN_CHARS);
}

/** @internal */
export type HeaderSource = Headers | Iterable<readonly [string, string]> | Record<string, string | readonly string[] | undefined>;

/** @internal */
export class Redactor {
  readonly #credentials = new Map<string, Spellings>();
  /** Every needle of every credential, by its first characters: a text is read once, however many credentials. */
  readonly #needles = new NeedleIndex();

  constructor(values: Iterable<string | undefined> = []) {
    for (const value of values) this.add(value);
  }

  /** A credential to hide from now on (values under 4 characters are ignored: they would hide ordinary words). */
  add(value: string | undefined): void {
    if (value === undefined || value.length < MIN_CREDENTIAL_LENGTH || this.#credentials.has(value)) return;
    const spellings = spellingsOf(value);
    this.#credentials.set(value, spellings);
    this.#needles.add(spellings);
  }

  /** Stop hiding a credential (a rotated-out token). */
  delete(value: string): void {
    const spellings = this.#credentials.get(value);
    if (!spellings) return;
    this.#credentials.delete(value);
    this.#needles.delete(spellings);
  }

  redact(text: string): string {
    const known = this.#credentials.size ? this.#redactKnown(text) : text;
    return known
      .replace(UNKNOWN_BEARER, `$1${REDACTED}`)
      .replace(UNKNOWN_BASIC, (whole, prefix: string, value: string) => (isBasicCredential(value) ? `${prefix}${REDACTED}` : whole));
  }

  /** A deep copy of a JSON-like value with every string (keys too) redacted. */
  redactValue<T>(value: T): T {
    return JSON.parse(JSON.stringify(value ?? null), (_key, item: unknown) => {
      if (typeof item === 'string') return this.redact(item);
      if (item && typeof item === 'object' && !Array.isArray(item))
        return Object.fromEntries(Object.entries(item).map(([key, v]) => [this.redact(key), v]));
      return item;
    }) as T;
  }

  /**
   * Every header, names in lower case: a credential header's value (Authorization, API-Key, Cookie, ...) hidden whole,
   * any other header's value redacted like text (a request-id header may echo a key).
   */
  redactHeaders(headers: HeaderSource): Record<string, string> {
    const entries: Iterable<readonly [string, string | readonly string[] | undefined]> =
      headers instanceof Headers || Symbol.iterator in headers ? (headers as Iterable<readonly [string, string]>) : Object.entries(headers);
    const result: Record<string, string> = {};
    for (const [rawName, rawValue] of entries) {
      if (rawValue === undefined) continue;
      const name = rawName.toLowerCase();
      const value = typeof rawValue === 'string' ? rawValue : rawValue.join(', ');
      result[name] = CREDENTIAL_HEADERS.has(name) ? REDACTED : this.redact(value);
    }
    return result;
  }

  #redactKnown(text: string): string {
    const ranges: Array<[number, number]> = [];
    const canonical = canonicalize(text);
    for (const [at, needle] of this.#needles.find(canonical.text, 'canonical')) {
      const [from, to] = canonical.original(at, at + needle.text.length);
      ranges.push(needle.base64 ? wholeBase64Value(text, from, to) : [from, to]);
    }
    for (const [at, needle] of this.#needles.find(text, 'as-is')) ranges.push([at, at + needle.text.length]);
    // A credential in hex is at least 8 hex digits long; most texts have no such run.
    // Stryker disable next-line ConditionalExpression: it only skips a search that finds nothing in a text without such a run
    if (HEX_RUN.test(text))
      for (const [at, needle] of this.#needles.find(
        text.replace(/[A-F]/g, (c) => c.toLowerCase()),
        'hex',
      ))
        ranges.push([at, at + needle.text.length]);
    return ranges.length ? replaceRanges(text, ranges) : text;
  }
}

/** Where a needle is looked for: the canonical form of a text, the text as it is, or the text with hex in lower case. */
type NeedleText = 'canonical' | 'as-is' | 'hex';
interface Needle {
  text: string;
  in: NeedleText;
  /** The credential it spells (two credentials may share a spelling: deleting one keeps the other's). */
  of: Spellings;
  /** A base64 fragment: the whole base64 value around it is hidden. */
  base64?: true;
}

/** The bit of a text's position in NeedleIndex's pairs: the low bytes of its first two characters. */
// Stryker disable next-line all: any function of the first two characters, used alike for needles and texts, finds the same
const pairAt = (text: string, at: number): number => ((text.charCodeAt(at) & 0xff) << 8) | (text.charCodeAt(at + 1) & 0xff);

/** Needles by their first MIN_CREDENTIAL_LENGTH characters (every needle is at least that long). */
class NeedleIndex {
  readonly #byStart = new Map<string, Needle[]>();
  /**
   * A bit for every pair of first characters a needle starts with (pairAt): most positions of a text start none, and
   * are passed over without cutting out their first characters to look them up (a text is read at every position).
   * Set as needles come; made again after a delete.
   */
  readonly #pairs = new Uint8Array(65_536 / 8);
  #pairsStale = false;

  add(spellings: Spellings): void {
    for (const needle of needlesOf(spellings)) {
      const key = needle.text.slice(0, MIN_CREDENTIAL_LENGTH);
      const list = this.#byStart.get(key);
      if (list) list.push(needle);
      else this.#byStart.set(key, [needle]);
      this.#markPair(key);
    }
  }

  delete(spellings: Spellings): void {
    for (const key of new Set(needlesOf(spellings).map((needle) => needle.text.slice(0, MIN_CREDENTIAL_LENGTH)))) {
      const kept = this.#byStart.get(key)!.filter((n) => n.of !== spellings);
      // Stryker disable next-line ConditionalExpression: an empty list finds nothing; deleting its key only frees memory
      if (kept.length) this.#byStart.set(key, kept);
      else this.#byStart.delete(key);
    }
    this.#pairsStale = true;
  }

  /** Every occurrence (overlapping ones too) of the needles meant for this kind of text. */
  *find(text: string, kind: NeedleText): Generator<[number, Needle]> {
    if (this.#pairsStale) this.#remakePairs();
    const pairs = this.#pairs;
    // Stryker disable next-line ArithmeticOperator: past the last four characters a slice is shorter than every key
    for (let at = 0; at + MIN_CREDENTIAL_LENGTH <= text.length; at += 1) {
      const pair = pairAt(text, at);
      // Stryker disable next-line all: it only passes over a position no needle starts at; looked up, it finds nothing
      if ((pairs[pair >> 3]! & (1 << (pair & 7))) === 0) continue;
      const candidates = this.#byStart.get(text.slice(at, at + MIN_CREDENTIAL_LENGTH));
      if (candidates) for (const needle of candidates) if (needle.in === kind && text.startsWith(needle.text, at)) yield [at, needle];
    }
  }

  #markPair(key: string): void {
    const pair = pairAt(key, 0);
    this.#pairs[pair >> 3]! |= 1 << (pair & 7);
  }

  #remakePairs(): void {
    this.#pairs.fill(0);
    for (const key of this.#byStart.keys()) this.#markPair(key);
    this.#pairsStale = false;
  }
}

/** What is looked for of one credential: its canonical form (or the value as it is), its literal form, base64, hex. */
function needlesOf(spellings: Spellings): Needle[] {
  const of = spellings;
  return [
    spellings.canonical !== undefined ? { text: spellings.canonical, in: 'canonical', of } : { text: spellings.value, in: 'as-is', of },
    ...(spellings.literal ? [{ text: spellings.literal, in: 'canonical', of } as const] : []),
    ...spellings.base64.map((text) => ({ text, in: 'canonical', base64: true, of }) as const),
    { text: spellings.hex, in: 'hex', of },
  ];
}

/** Basic auth's value is base64 of user:password; "Basic authentication" in prose is not. */
function isBasicCredential(value: string): boolean {
  try {
    // Stryker disable next-line ArithmeticOperator,StringLiteral: atob decodes base64 without its padding, and fails on a length it cannot decode either way
    // Stryker disable BlockStatement: the catch below (a comment cannot lead it): an empty one returns undefined, read as false as well
    return atob(value.padEnd(Math.ceil(value.length / 4) * 4, '=')).includes(':');
  } catch {
    // Stryker restore BlockStatement
    return false;
  }
}

function spellingsOf(value: string): Spellings {
  const bytes = new TextEncoder().encode(value);
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  const base64 = new Set<string>();
  // Stryker disable next-line EqualityOperator: a fourth alignment gives the fragments of the first again
  for (let alignment = 0; alignment < 3; alignment += 1) {
    const padded = new Uint8Array(alignment + bytes.length);
    padded.set(bytes, alignment);
    // Only the characters whose 6 bits all come from the value: the others depend on its neighbours.
    const fragment = toBase64(padded).slice(Math.ceil((8 * alignment) / 6), Math.floor((8 * (alignment + bytes.length)) / 6));
    if (fragment.length < MIN_BASE64_FRAGMENT) continue;
    base64.add(canonicalize(fragment).text);
    base64.add(canonicalize(fragment.replaceAll('+', '-').replaceAll('/', '_')).text);
  }
  const canonical = canonicalize(value).text;
  const literal = canonicalize(encodeURIComponent(value)).text;
  return {
    canonical: canonical.length >= MIN_CREDENTIAL_LENGTH ? canonical : undefined,
    value,
    // Stryker disable next-line ConditionalExpression,LogicalOperator: a literal equal to the canonical form finds the same ranges, and one under 4 characters is never found (the index reads 4 at a time)
    literal: literal !== canonical && literal.length >= MIN_CREDENTIAL_LENGTH ? literal : undefined,
    hex,
    base64: [...base64],
  };
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

const BASE64_CHAR = /[A-Za-z0-9+/_-]/;
// Stryker disable next-line Regex: it only skips a search that finds nothing in a text without 8 hex digits in a row
const HEX_RUN = /[0-9a-fA-F]{8}/;

/** The whole base64 value around a fragment (with its padding), so that no partial character of a credential is left. */
function wholeBase64Value(text: string, from: number, to: number): [number, number] {
  let start = from;
  let end = to;
  while (start > 0 && BASE64_CHAR.test(text[start - 1]!)) start -= 1;
  // Stryker disable next-line EqualityOperator: a range one past the end of the text replaces the same characters
  while (end < text.length && BASE64_CHAR.test(text[end]!)) end += 1;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: past the end of the text there is no '='
  while (end < text.length && text[end] === '=') end += 1;
  return [start, end];
}

function replaceRanges(text: string, ranges: Array<[number, number]>): string {
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [from, to] of ranges) {
    const last = merged[merged.length - 1];
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  let result = '';
  let done = 0;
  for (const [from, to] of merged) {
    result += `${text.slice(done, from)}${REDACTED}`;
    done = to;
  }
  return result + text.slice(done);
}

interface Canonical {
  text: string;
  /** The range of the original text that canonical range [from, to) came from. */
  original(from: number, to: number): [number, number];
}

// Texts without these characters are their own canonical form, which is the common case.
const ESCAPE_CHARS = /[\\%+&]/g;
// Stryker disable next-line Regex: it tests slices of at most 4 characters, for which ^ and $ change nothing
const HEX4 = /^[0-9a-fA-F]{4}$/;
// Stryker disable next-line Regex: it tests slices of at most 2 characters, for which ^ and $ change nothing
const HEX2 = /^[0-9a-fA-F]{2}$/;
const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|(amp|lt|gt|quot|apos));/y;
const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

// Layers of encoding decoded (a URL-encoded value inside a URL-encoded parameter, JSON inside a query string, ...).
const MAX_DECODE_DEPTH = 4;

/**
 * One spelling for every way of writing the same characters: escapes decoded (JSON and JS backslash escapes; %XX
 * sequences as UTF-8; HTML character references), layer after layer as long as a layer decodes to something new, and +
 * read as a space (as form encoding has it, so a literal + and an encoded space become the same). Every spelling of a
 * value then has the canonical form of the value.
 */
function canonicalize(text: string): Canonical {
  let result = decodeLayer(text);
  for (let depth = 1; depth < MAX_DECODE_DEPTH; depth += 1) {
    const next = decodeLayer(result.text);
    // Stryker disable next-line ConditionalExpression: decoding a text that no longer changes gives it again
    if (next.text === result.text) break;
    const outer = result;
    result = { text: next.text, original: (from, to) => outer.original(...next.original(from, to)) };
  }
  return result;
}

/** One layer of escapes decoded (backslash escapes at any depth already: escaped backslashes are skipped over). */
function decodeLayer(text: string): Canonical {
  ESCAPE_CHARS.lastIndex = 0;
  // Stryker disable next-line ConditionalExpression: a text without escape characters decodes to itself
  if (!ESCAPE_CHARS.test(text)) return { text, original: (from, to) => [from, to] };
  // Decoding only shortens, so the canonical text is at most as long as the original.
  const starts = new Int32Array(text.length);
  const ends = new Int32Array(text.length);
  const parts: string[] = [];
  let length = 0;
  const emit = (chars: string, from: number, to: number) => {
    parts.push(chars === '+' ? ' ' : chars);
    for (let i = 0; i < chars.length; i += 1, length += 1) {
      starts[length] = from;
      ends[length] = to;
    }
  };
  let at = 0;
  while (at < text.length) {
    // Plain characters up to the next escape character are copied as they are.
    ESCAPE_CHARS.lastIndex = at;
    const next = ESCAPE_CHARS.exec(text)?.index ?? text.length;
    // Stryker disable next-line ConditionalExpression,BlockStatement: a plain character goes through decodeAt, which finds no escape there, and is copied the same
    if (next > at) {
      parts.push(text.slice(at, next));
      for (let i = at; i < next; i += 1, length += 1) {
        starts[length] = i;
        ends[length] = i + 1;
      }
      at = next;
      continue;
    }
    const decoded = decodeAt(text, at);
    if (decoded) {
      emit(decoded.chars, at, decoded.next);
      at = decoded.next;
    } else {
      emit(text[at]!, at, at + 1);
      at += 1;
    }
  }
  return { text: parts.join(''), original: (from, to) => [starts[from]!, ends[to - 1]!] };
}

/** The escape starting at `at`, decoded, or undefined when there is none. */
function decodeAt(text: string, at: number): { chars: string; next: number } | undefined {
  const char = text[at];
  if (char === '\\') {
    let after = at;
    while (text[after] === '\\') after += 1;
    const kind = text[after];
    if (kind === 'u' && HEX4.test(text.slice(after + 1, after + 5)))
      return { chars: String.fromCharCode(parseInt(text.slice(after + 1, after + 5), 16)), next: after + 5 };
    if (kind === 'x' && HEX2.test(text.slice(after + 1, after + 3)))
      return { chars: String.fromCharCode(parseInt(text.slice(after + 1, after + 3), 16)), next: after + 3 };
    if (kind === '/' || kind === '"' || kind === "'") return { chars: kind, next: after + 1 };
    // Escaped backslashes (\\, \\\\) are one backslash; what follows is read on its own.
    return { chars: '\\', next: after };
  }
  if (char === '%') return decodePercent(text, at);
  // Stryker disable next-line ConditionalExpression: at a character other than '&' the entity pattern finds nothing
  if (char === '&') {
    ENTITY.lastIndex = at;
    const match = ENTITY.exec(text);
    if (!match) return undefined;
    const [whole, decimal, hex, name] = match;
    if (name !== undefined) return { chars: NAMED_ENTITIES[name]!, next: at + whole.length };
    const code = decimal !== undefined ? Number(decimal) : parseInt(hex!, 16);
    // A number past Unicode stands for no character: it is left as written.
    if (code > 0x10ffff) return undefined;
    return { chars: String.fromCodePoint(code), next: at + whole.length };
  }
  return undefined;
}

/** One character as %XX UTF-8 bytes (1 to 4 of them). */
function decodePercent(text: string, at: number): { chars: string; next: number } | undefined {
  const byteAt = (offset: number) =>
    text[offset] === '%' && HEX2.test(text.slice(offset + 1, offset + 3)) ? parseInt(text.slice(offset + 1, offset + 3), 16) : -1;
  const lead = byteAt(at);
  // Stryker disable next-line EqualityOperator: %00 left as written is still read around, and no credential holds a NUL
  if (lead < 0) return undefined;
  const length = lead < 0x80 ? 1 : lead >= 0xc2 && lead < 0xe0 ? 2 : lead >= 0xe0 && lead < 0xf0 ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
  let code = length === 1 ? lead : length === 2 ? lead & 0x1f : length === 3 ? lead & 0x0f : lead & 0x07;
  for (let i = 1; i < length; i += 1) {
    const byte = byteAt(at + 3 * i);
    if (byte < 0x80 || byte > 0xbf) return { chars: '\ufffd', next: at + 3 };
    code = (code << 6) | (byte & 0x3f);
  }
  if (length === 0 || code > 0x10ffff) return { chars: '\ufffd', next: at + 3 };
  return { chars: String.fromCodePoint(code), next: at + 3 * length };
}
