// Near misses of a value that security rests on: what a server accepts when it compares sloppily (ignoring case,
// matching a prefix or a substring, trimming, decoding twice, cutting at a NUL byte). Every variant differs from
// the value, so a target must refuse each one. Variants are named by how they were made: failure messages and test
// names carry the name, never the value (a near copy of a secret is as sensitive as the secret).
import { redactor } from '../support/contract-fetch.ts';

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

/** The near misses of `value` that `carrier` can transport; registered with the redactor when `secret`. */
export function nearMisses(value: string, carrier: Carrier, options: { secret?: boolean } = {}): NearMiss[] {
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
  if (options.secret) for (const { value: variant } of variants) redactor.add(variant);
  return variants;
}

/** A variant as it travels in a path segment or a query value: encoded once, as any client would. */
export const asComponent = (value: string) => encodeURIComponent(value);
