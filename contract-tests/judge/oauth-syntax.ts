// The syntax of what OAuth servers send, as RFC 6749, RFC 6750 and RFC 9110 define it: the characters of an error's
// members, a JSON object's member names in order (repeats kept), WWW-Authenticate challenges, and how many bits an
// issued value's alphabet and length can carry. Read by the exchange checks and by the clause checks.

/** RFC 6749 A.7/A.8 and RFC 6750 3: error and error_description are %x20-21 / %x23-5B / %x5D-7E. */
const NQSCHAR = /^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/;
/** RFC 6749 A.9 and RFC 6750 3: error_uri is %x21 / %x23-5B / %x5D-7E, and a URI reference. */
const URI_CHARS = /^[\x21\x23-\x5b\x5d-\x7e]*$/;
/** RFC 6750 3: scope is scope-tokens of %x21 / %x23-5B / %x5D-7E, separated by single spaces. */
const SCOPE_TOKENS = /^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/;

/** What breaks the characters of an OAuth error's error, error_description and error_uri (and scope, in a bearer
 * challenge); `error` may be absent only when `errorRequired` is false. */
export function errorCharacterProblems(
  fields: { error?: unknown; error_description?: unknown; error_uri?: unknown; scope?: unknown },
  errorRequired = true,
): string[] {
  const problems: string[] = [];
  if (fields.error === undefined ? errorRequired : typeof fields.error !== 'string' || fields.error === '' || !NQSCHAR.test(fields.error))
    problems.push('error is missing, empty or has characters outside %x20-21 / %x23-5B / %x5D-7E');
  if (fields.error_description !== undefined && (typeof fields.error_description !== 'string' || !NQSCHAR.test(fields.error_description)))
    problems.push('error_description has characters outside %x20-21 / %x23-5B / %x5D-7E');
  if (
    fields.error_uri !== undefined &&
    (typeof fields.error_uri !== 'string' || !URI_CHARS.test(fields.error_uri) || !URL.canParse(fields.error_uri, 'https://base.invalid/'))
  )
    problems.push('error_uri is not a URI reference in %x21 / %x23-5B / %x5D-7E');
  if (fields.scope !== undefined && (typeof fields.scope !== 'string' || !SCOPE_TOKENS.test(fields.scope)))
    problems.push('scope is not space-separated scope-tokens of %x21 / %x23-5B / %x5D-7E');
  return problems;
}

/** The member names of a JSON object text in order, repeats kept (JSON.parse keeps only the last of a repeated
 * name); undefined when the text is not a JSON object. */
export function topLevelMemberNames(text: string): string[] | undefined {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  } catch {
    return undefined;
  }
  // The text is valid JSON from here on: a scanner needs no error handling.
  let at = 0;
  const space = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at]!)) at++;
  };
  const string = () => {
    const start = at++;
    while (text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
    at++;
    return JSON.parse(text.slice(start, at)) as string;
  };
  const skipValue = () => {
    space();
    if (text[at] === '"') {
      string();
      return;
    }
    if (text[at] !== '{' && text[at] !== '[') {
      at += /^[^,\]}\s]+/.exec(text.slice(at))![0].length;
      return;
    }
    let depth = 0;
    do {
      if (text[at] === '"') {
        string();
        continue;
      }
      if (text[at] === '{' || text[at] === '[') depth++;
      else if (text[at] === '}' || text[at] === ']') depth--;
      at++;
    } while (depth > 0);
  };
  const names: string[] = [];
  space();
  at++; // the object's {
  space();
  while (text[at] === '"') {
    names.push(string());
    space();
    at++; // :
    skipValue();
    space();
    if (text[at] === ',') at++;
    space();
  }
  return names;
}

/** The names that occur more than once. */
export const repeatedNames = (names: readonly string[]): string[] => [...new Set(names.filter((name, i) => names.indexOf(name) !== i))];

/** One challenge of a WWW-Authenticate value: its scheme, and its auth-params (names lower-cased) or its token68. */
export interface Challenge {
  scheme: string;
  params: Array<[string, string]>;
  token68?: string;
}

const HTTP_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/;
const PARAM_START = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+[ \t]*=/;

/** The challenges of a WWW-Authenticate value (RFC 9110 11.6.1: auth-scheme [ 1*SP ( token68 / #auth-param ) ],
 * comma-separated); undefined when it does not parse. */
export function parseChallenges(header: string): Challenge[] | undefined {
  const challenges: Challenge[] = [];
  let rest = header;
  const skip = (pattern: RegExp) => {
    rest = rest.replace(pattern, '');
  };
  skip(/^[\s,]+/);
  while (rest) {
    const scheme = HTTP_TOKEN.exec(rest)?.[0];
    if (!scheme) return undefined;
    rest = rest.slice(scheme.length);
    const challenge: Challenge = { scheme, params: [] };
    challenges.push(challenge);
    if (/^ +[A-Za-z0-9._~+/-]+=*[ \t]*(,|$)/.test(rest)) {
      skip(/^ +/);
      challenge.token68 = /^[A-Za-z0-9._~+/-]+=*/.exec(rest)![0];
      rest = rest.slice(challenge.token68.length);
    } else if (/^ /.test(rest)) {
      skip(/^ +/);
      while (PARAM_START.test(rest)) {
        const name = HTTP_TOKEN.exec(rest)![0];
        rest = rest.slice(name.length);
        skip(/^[ \t]*=[ \t]*/);
        let value: string;
        const quoted = /^"((?:[^"\\]|\\.)*)"/.exec(rest);
        if (quoted) value = quoted[1]!.replace(/\\(.)/g, '$1');
        else {
          const token = HTTP_TOKEN.exec(rest)?.[0];
          if (!token) return undefined;
          value = token;
        }
        rest = rest.slice((quoted?.[0] ?? value).length);
        challenge.params.push([name.toLowerCase(), value]);
        if (!/^[ \t]*(,|$)/.test(rest)) return undefined;
        skip(/^[ \t]*,?[ \t]*/);
        // Empty list elements are allowed (RFC 9110 5.6.1); what follows is another auth-param or the next challenge.
        skip(/^(,[ \t]*)+/);
      }
    }
    if (rest && !/^[ \t]*,/.test(rest) && challenge.params.length === 0) return undefined;
    skip(/^[\s,]+/);
  }
  return challenges;
}

/** Bits an issued value can carry at most: its length (without base64 padding) times log2 of the smallest usual
 * alphabet that holds it (hex, base 36, alphanumeric, base64url, base64, URL-safe, printable ASCII). */
export function encodingCapacityBits(value: string): number {
  const alphabets: Array<[RegExp, number]> = [
    [/^[0-9a-f]*$/, 16],
    [/^[0-9A-F]*$/, 16],
    [/^[0-9a-z]*$/, 36],
    [/^[0-9A-Z]*$/, 36],
    [/^[0-9A-Za-z]*$/, 62],
    [/^[0-9A-Za-z_-]*$/, 64],
    [/^[0-9A-Za-z+/]*=*$/, 64],
    [/^[0-9A-Za-z._~+/=-]*$/, 68],
  ];
  const size = alphabets.find(([pattern]) => pattern.test(value))?.[1] ?? 95;
  return value.replace(/=+$/, '').length * Math.log2(size);
}
