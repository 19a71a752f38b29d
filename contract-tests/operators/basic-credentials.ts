// The client password inside HTTP Basic, through the same operators as any parameter. RFC 6749 2.3.1 lets a client
// send its client_id and client_secret as Basic's user and password, each form-urlencoded first; the parameter operators
// change them only as form fields. Here each parameter operator changes one of them as a form field would carry it, and
// the pair then moves into the Authorization header exactly as written (the form-urlencoding is RFC 6749's own), so a
// server that decodes Basic carelessly (a padded id trimmed, an encoded one decoded twice, a long one cut) is judged by
// the same exchange checks as everywhere else: a wrong credential accepted, a 5xx, a credential echoed.
import type { RegistryEntry } from '../model/operations.ts';
import { bodyOf, type RequestParts, withHeaders, withRaw } from '../send/parts.ts';
import type { Made, OperationOperator, ParameterOperator, Variant } from './operator.ts';
import { isInapplicable } from './operator.ts';
import { PARAMETER_OPERATORS } from './parameter-operators.ts';

/** Basic's two places, and the form field each is taken from. */
const SLOTS = [
  { field: 'client_id', place: 'user' },
  { field: 'client_secret', place: 'password' },
] as const;
const CREDENTIAL_FIELDS = new Set<string>(SLOTS.map((slot) => slot.field));

/** Operators that say nothing new inside Basic: a repeated field has no place in one header, and Basic holds text. */
const NOT_IN_BASIC = new Set(['repeat', 'json-types']);

/** The form body's pairs as written (names decoded, values still form-urlencoded: Basic takes them so). */
function writtenPairs(body: string): Array<[string, string]> {
  return body
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      const name = at < 0 ? pair : pair.slice(0, at);
      return [decodeURIComponent(name.replace(/\+/g, ' ')), at < 0 ? '' : pair.slice(at + 1)];
    });
}

/** The parts with the client password moved from the form into HTTP Basic, each value exactly as the form carried it. */
export function inBasic(parts: RequestParts): RequestParts {
  const pairs = writtenPairs(bodyOf(parts) ?? '');
  const written = (field: string) => pairs.find(([name]) => name === field)?.[1] ?? '';
  const basic = Buffer.from(`${written('client_id')}:${written('client_secret')}`).toString('base64');
  const others = pairs.filter(([name]) => !CREDENTIAL_FIELDS.has(name)).map(([name, value]) => `${encodeURIComponent(name)}=${value}`);
  return withRaw({ body: others.join('&') })(withHeaders({ Authorization: `Basic ${basic}` })(parts));
}

/** One parameter operator's variants of one Basic place. */
function variantsOf(operator: ParameterOperator, entry: RegistryEntry, field: string, place: string, value: string): Variant[] {
  const parameter = entry.parameters.find((p) => p.in === 'form' && p.name === field);
  if (!parameter) return [];
  const made = operator.variants({ entry, parameter, value, carriedIn: 'header' });
  if (isInapplicable(made)) return [];
  return made.map((variant) => ({
    label: `HTTP Basic ${place} (${field}): ${variant.label}`,
    change: (parts) => inBasic(variant.change(parts)),
    values: variant.values,
  }));
}

export const basicCredentials: OperationOperator = {
  id: 'basic-credentials',
  scope: 'operation',
  title: 'the client password inside HTTP Basic through the parameter operators',
  variants(entry, _parts, samples): Made {
    if (!SLOTS.every(({ field }) => entry.parameters.some((p) => p.in === 'form' && p.name === field && p.credential)))
      return { inapplicable: 'the operation takes no client password (RFC 6749 2.3.1)' };
    // RFC 6749 4.1.3: the code exchange's request carries the code, spent by its first use.
    if (entry.parameters.some((p) => p.in === 'form' && p.name === 'code'))
      return {
        inapplicable: 'each variant would spend an authorization code; the client credentials grant sends the same client password',
      };
    const made = PARAMETER_OPERATORS.filter((operator) => !NOT_IN_BASIC.has(operator.id)).flatMap((operator) =>
      SLOTS.flatMap(({ field, place }) => (samples[field] === undefined ? [] : variantsOf(operator, entry, field, place, samples[field]))),
    );
    return made.length ? made : { inapplicable: 'the valid request holds no client_id and client_secret to change' };
  },
};
