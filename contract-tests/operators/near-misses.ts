// Near misses of a value that security rests on: what a server accepts when it compares sloppily (ignoring case,
// matching a prefix or a substring, trimming, decoding twice, cutting at a NUL byte). Every variant differs from
// the value, so a target must refuse each one. Variants are named by how they were made: failure messages and test
// names carry the name, never the value (a near copy of a secret is as sensitive as the secret).
import type { Redactor } from '../send/redact.ts';

export interface NearMiss {
  /** How the variant was made, e.g. "upper case"; safe to print. */
  kind: string;
  value: string;
}

/**
 * Where the value travels. Header values lose surrounding whitespace on the way (fetch strips it, and HTTP defines
 * field values without it) and cannot carry control characters, so those variants are only sent in forms, queries
 * and paths.
 */
export type Carrier = 'header' | 'form' | 'query' | 'path';

const swapCase = (value: string) => [...value].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
/** Every character as %XX: the literal text a server that decodes once too often turns back into the value. */
const percentEncoded = (value: string) =>
  [...new TextEncoder().encode(value)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/** The near misses of `value` that `carrier` can transport; registered with `redactor` (the run's) when one is given,
 * as it is for a secret. */
export function nearMisses(value: string, carrier: Carrier, options: { redactor?: Redactor } = {}): NearMiss[] {
  const candidates: NearMiss[] = [
    { kind: 'upper case', value: value.toUpperCase() },
    { kind: 'lower case', value: value.toLowerCase() },
    { kind: 'case swapped', value: swapCase(value) },
    { kind: 'with a prefix', value: `x${value}` },
    { kind: 'with a suffix', value: `${value}x` },
    { kind: 'percent-encoded', value: percentEncoded(value) },
    { kind: 'with an extra path segment', value: `${value}/x` },
  ];
  if (carrier !== 'header') {
    candidates.push(
      { kind: 'with surrounding spaces', value: ` ${value} ` },
      { kind: 'with a trailing newline', value: `${value}\n` },
      { kind: 'with a leading tab', value: `\t${value}` },
      { kind: 'with a NUL byte and a suffix', value: `${value}\u0000x` },
    );
  }
  const seen = new Set<string>([value]);
  const variants = candidates.filter(({ value: variant }) => !seen.has(variant) && Boolean(seen.add(variant)));
  if (options.redactor) for (const { value: variant } of variants) options.redactor.add(variant);
  return variants;
}

/** A variant as it travels in a path segment or a query value: encoded once, as any client would. */
export const asComponent = (value: string) => encodeURIComponent(value);

/**
 * Near misses of a registered redirect URI (RFC 6749 section 3.1.2.3 asks for simple string comparison): what a
 * server accepts when it matches a prefix, a substring or a host, ignores case, trims, decodes or normalises.
 */
export function redirectUriNearMisses(registered: string): NearMiss[] {
  const url = new URL(registered);
  const { protocol, host, hostname, port, pathname, search } = url;
  const withPath = (path: string) => `${protocol}//${host}${path}${search}`;
  const firstLetter = pathname.search(/[A-Za-z]/);
  const otherPort = String((Number(port || (protocol === 'https:' ? 443 : 80)) % 65535) + 1);
  const candidates: NearMiss[] = [
    { kind: 'with its path in upper case', value: withPath(pathname.toUpperCase()) },
    { kind: 'with a trailing slash', value: withPath(`${pathname.replace(/\/$/, '')}/`) },
    { kind: 'with an extra path segment', value: withPath(`${pathname.replace(/\/$/, '')}/extra`) },
    { kind: 'with a suffix on its last segment', value: withPath(`${pathname}x`) },
    { kind: 'with a dot segment to another path', value: withPath(`${pathname.replace(/\/$/, '')}/../evil`) },
    { kind: 'with an encoded slash and dot segment', value: withPath(`${pathname.replace(/\/$/, '')}%2F..%2Fevil`) },
    {
      kind: 'with a path character percent-encoded',
      value:
        firstLetter < 0
          ? registered
          : withPath(
              `${pathname.slice(0, firstLetter)}%${pathname.charCodeAt(firstLetter).toString(16).toUpperCase()}${pathname.slice(firstLetter + 1)}`,
            ),
    },
    {
      kind: 'with a query parameter appended',
      value: `${registered.replace(/#.*$/, '')}${search ? '&' : '?'}next=https%3A%2F%2Fattacker.invalid%2F`,
    },
    { kind: 'with a fragment', value: `${registered}#x` },
    {
      kind: 'on another port',
      value: `${protocol}//${hostname.includes(':') ? `[${hostname}]` : hostname}:${otherPort}${pathname}${search}`,
    },
    { kind: 'with the other scheme', value: `${protocol === 'https:' ? 'http:' : 'https:'}//${host}${pathname}${search}` },
    { kind: 'under a host that starts with the registered one', value: `${protocol}//${hostname}.attacker.invalid${pathname}${search}` },
    { kind: 'with the registered host as user info', value: `${protocol}//${host}@attacker.invalid${pathname}${search}` },
    { kind: 'inside another address', value: `https://attacker.invalid/${registered}` },
    { kind: 'with surrounding spaces', value: ` ${registered} ` },
    { kind: 'with a trailing newline', value: `${registered}\n` },
  ];
  const seen = new Set<string>([registered]);
  return candidates.filter(({ value }) => !seen.has(value) && Boolean(seen.add(value)));
}

/** States a client may send (RFC 6749 appendix A.5: any printable ASCII) that a server rebuilding the query by hand,
 * decoding twice, trimming or changing case would not return unchanged. */
export function trickyStates(unique: string): NearMiss[] {
  return [
    { kind: 'mixed case', value: `MiXeD-CaSe-${unique}` },
    { kind: 'surrounding spaces', value: ` ${unique} ` },
    { kind: 'literal percent sequences', value: `%41%2F%25%zz-${unique}` },
    { kind: 'plus signs and spaces', value: `a+b c++${unique}` },
    { kind: 'quotes, brackets and backslashes', value: `"'<>\`\\{}|^[]-${unique}` },
    { kind: 'something that looks like more parameters', value: `${unique}&code=forged&state=forged` },
    { kind: 'a fragment mark', value: `${unique}#fragment` },
    { kind: 'an address', value: `https://attacker.invalid/?next=${unique}` },
    { kind: '128 characters', value: `${unique}-`.padEnd(128, 'S') },
  ];
}
