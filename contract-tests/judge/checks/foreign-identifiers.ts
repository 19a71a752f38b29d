// Security: no answer names another lessee (seed 1 and 5.3), whatever its status: a refusal of the foreign vehicle that
// says whose it is breaks isolation as a list that shows it does. On every exchange, in the headers and the body: the
// foreign customer number (LP_FLEET_FOREIGN_CUSTOMER_NUMBER), and the foreign vehicle number
// (LP_FLEET_FOREIGN_VEHICLE_NUMBER) unless the request named it. A value the request carried may come back (an error
// that quotes the filter it refuses discloses nothing). A value is found as a whole token, never inside a longer one;
// one of digits alone shorter than six is not looked for (a Content-Length or a count could spell it by chance).
import type { Exchange } from '../../send/fetch.ts';
import { requestText } from './refusal-disclosure.ts';
import { type ExchangeCheck, violation } from '../exchange-check.ts';
import { operationIdOf } from '../exchange-facts.ts';
import { PROMISES } from '../promises.ts';
import { escapeRegExp } from '../verdicts.ts';

const FOREIGN = [
  ['customer number', 'LP_FLEET_FOREIGN_CUSTOMER_NUMBER'],
  ['vehicle number', 'LP_FLEET_FOREIGN_VEHICLE_NUMBER'],
] as const;

/** A value as a whole token (not inside a longer run of letters, digits, '-' or '_'), made once per value: the check
 * runs on every exchange of the run. */
const tokens = new Map<string, RegExp>();
function mentions(text: string, value: string): boolean {
  const token = tokens.get(value) ?? new RegExp(`(?<![A-Za-z0-9_-])${escapeRegExp(value)}(?![A-Za-z0-9_-])`);
  tokens.set(value, token);
  return token.test(text);
}

/** Where the answer names it: its headers (by name) and its body. */
function placesOf(seen: Exchange, value: string): string[] {
  const places = [...seen.response.headers].filter(([, text]) => mentions(text, value)).map(([name]) => `the ${name} header`);
  if (mentions(seen.bodyText, value)) places.push('the body');
  return places;
}

export const foreignIdentifiers: ExchangeCheck = {
  id: 'foreign-identifiers-undisclosed',
  promise: PROMISES.lessee,
  source: { security: 'lessee isolation' },
  clauses: ['security-lessee-isolation'],
  operations: '*',
  statuses: 'any',
  needs: 'hasDataSemantics',
  judge(seen, context) {
    return FOREIGN.flatMap(([what, variable]) => {
      const value = context.env[variable];
      if (!value || (/^\d+$/.test(value) && value.length < 6)) return [];
      // The answer first: the request's text is read only for an answer that names the value.
      const places = placesOf(seen, value);
      return places.length && !mentions(requestText(seen), value)
        ? [
            violation(
              foreignIdentifiers,
              `${operationIdOf(seen) ?? 'the answer'} answered ${seen.response.status} naming another lessee's ${what} (${variable}) in ${places.join(' and ')}`,
            ),
          ]
        : [];
    });
  },
};
