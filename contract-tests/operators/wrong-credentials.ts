// Wrong values of a credential, for the checks that a target refuses them. One wrong value is not enough: a server
// that compares only a prefix, or looks the value up with a prefix match, accepts some wrong values and not others.
import type { Redactor } from '../send/redact.ts';

/** The configured value with a suffix, cut short by one character, and with its middle character changed; each
 * registered with the run's redactor. */
export function wrongValues(value: string, redactor: Redactor): string[] {
  // Cut before any base64 padding ('abc=' and 'abc' decode alike), and change a middle character rather than the
  // last one: the last base64 character may carry only padding bits that a decoder ignores.
  const unpadded = value.replace(/=+$/, '');
  const middle = Math.floor(unpadded.length / 2);
  const changed = `${unpadded.slice(0, middle)}${unpadded[middle] === 'x' ? 'y' : 'x'}${value.slice(middle + 1)}`;
  const variants = [`${value}-wrong`, unpadded.slice(0, -1), changed];
  // A one-character credential has no shorter prefix worth sending (the empty value is a missing one).
  const wrong = [...new Set(variants.filter((variant) => variant !== '' && variant !== value))];
  // Near-copies of a secret are as sensitive as the secret: a server may echo them in an error body.
  for (const variant of wrong) redactor.add(variant);
  return wrong;
}

/** How a wrong value was made, for failure messages (never the value itself: it is derived from a secret). */
export function describeWrong(value: string, wrong: string): string {
  if (wrong.startsWith(value)) return 'the configured value with a suffix';
  if (value.startsWith(wrong)) return 'the configured value cut short';
  return 'the configured value with one character changed';
}
