// The grammar HTTP gives the headers the specs document with a meaning of their own (RFC 9110): a header is judged by
// it, never by a JSON-schema format meant for bodies. Location is a URI-reference, which a relative reference is
// (resolved against the request's URI: every browser follows it); Retry-After is delta-seconds or an HTTP-date;
// WWW-Authenticate is a list of challenges.
import { parseChallenges } from './oauth-syntax.ts';

export interface HeaderGrammar {
  /** The clause the grammar comes from (judge/clauses/standings.ts). */
  clause: string;
  /** The grammar, named for a message. */
  name: string;
  /** Whether a value keeps it. */
  accepts(value: string): boolean;
}

// RFC 3986 4.1: URI-reference = URI / relative-ref, in the characters of 2.2 and 2.3 and percent-encodings; a scheme,
// when there is one, starts with a letter.
const URI_CHARACTERS = /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

function isUriReference(value: string): boolean {
  if (!URI_CHARACTERS.test(value)) return false;
  const colon = value.indexOf(':');
  const firstSlash = value.search(/[/?#]/);
  // A colon before any "/", "?" or "#" makes the part before it a scheme, which must be one (RFC 3986 4.2).
  if (colon >= 0 && (firstSlash < 0 || colon < firstSlash) && !SCHEME.test(value)) return false;
  return value.indexOf('#') === value.lastIndexOf('#');
}

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
// RFC 9110 5.6.7: IMF-fixdate, and the two obsolete forms a recipient must accept (rfc850-date, asctime-date).
const HTTP_DATE = new RegExp(
  [
    `^${DAY}, \\d{2} ${MONTH} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT$`,
    `^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \\d{2}-${MONTH}-\\d{2} \\d{2}:\\d{2}:\\d{2} GMT$`,
    `^${DAY} ${MONTH} (?:\\d{2}| \\d) \\d{2}:\\d{2}:\\d{2} \\d{4}$`,
  ].join('|'),
);

export const HEADER_GRAMMARS: Readonly<Record<string, HeaderGrammar>> = {
  location: { clause: 'RFC9110-10.2.2-location', name: 'a URI-reference (RFC 9110 10.2.2, RFC 3986 4.1)', accepts: isUriReference },
  'retry-after': {
    clause: 'RFC9110-10.2.3-retry-after',
    name: 'delta-seconds or an HTTP-date (RFC 9110 10.2.3)',
    accepts: (value) => /^\d+$/.test(value) || HTTP_DATE.test(value),
  },
  'www-authenticate': {
    clause: 'RFC9110-11.6.1-www-authenticate',
    name: 'a list of challenges (RFC 9110 11.6.1)',
    accepts: (value) => parseChallenges(value) !== undefined,
  },
};

/** The grammar of a header HTTP gives one to, by name in any case; undefined for the others. */
export const headerGrammar = (name: string): HeaderGrammar | undefined => HEADER_GRAMMARS[name.toLowerCase()];
