// The shape of an operator of the negative space, and how a made value is put in a parameter's place. An operator
// turns a valid request into variants: one parameter's value changed (omitted, padded, encoded, ...), or the request as
// a whole (another method, another channel for a credential, another media type). It says why when it cannot apply.
import type { CredentialId } from '../model/credentials.ts';
import { CREDENTIALS } from '../model/credentials.ts';
import type { DocumentedParameter, RegistryEntry } from '../model/operations.ts';
import { type Change, copyParts, type RequestParts } from '../send/parts.ts';

export interface Variant {
  /** How it was made, naming the parameter: safe to print (never a value). */
  label: string;
  change: Change;
  /** Another method than the operation's. */
  method?: string;
  /** The values it puts in place (near copies of a secret are registered with the redactor before it is sent). */
  values: string[];
}

/** Why an operator cannot apply to a parameter or an operation (the self-test accepts only a stated reason). */
export interface Inapplicable {
  inapplicable: string;
}

export type Made = Variant[] | Inapplicable;
export const isInapplicable = (made: Made): made is Inapplicable => !Array.isArray(made);

/** A parameter as an operator sees it: where it travels, and the value it holds in the request the operator changes. */
export interface ParameterInPlace {
  entry: RegistryEntry;
  parameter: DocumentedParameter;
  value: string;
  /** Where the value finally travels when not in the parameter's own place (a form field moved into HTTP Basic travels
   * in a header): long values are sized for it. */
  carriedIn?: 'header';
}

export interface ParameterOperator {
  id: string;
  scope: 'parameter';
  /** What it does, for the coverage and the test names. */
  title: string;
  variants(target: ParameterInPlace): Made;
}

export interface OperationOperator {
  id: string;
  scope: 'operation';
  title: string;
  /** `parts` is a valid request of the entry, credentials in place. */
  variants(entry: RegistryEntry, parts: RequestParts, samples: Record<string, string>): Made;
}

export type Operator = ParameterOperator | OperationOperator;

const credentialPrefix = (id: CredentialId | undefined) => {
  const where = id ? CREDENTIALS[id].where : undefined;
  return where?.in === 'header' ? (where.prefix ?? '') : '';
};

/** Removes every instance of the parameter (a path parameter: an empty segment, sent as written). */
export function removeParameter(parts: RequestParts, parameter: DocumentedParameter): RequestParts {
  const next = copyParts(parts);
  const { name } = parameter;
  if (parameter.in === 'path') next.raw = { ...next.raw, path: { ...next.raw?.path, [name]: '' } };
  if (parameter.in === 'query') next.query = next.query.filter(([n]) => n !== name);
  if (parameter.in === 'form' && next.form) next.form = next.form.filter(([n]) => n !== name);
  if (parameter.in === 'json' && next.json && typeof next.json === 'object') {
    const { [name]: _, ...rest } = next.json as Record<string, unknown>;
    next.json = rest;
  }
  if (parameter.in === 'header')
    for (const key of Object.keys(next.headers)) if (key.toLowerCase() === name.toLowerCase()) delete next.headers[key];
  return next;
}

/** The form's other fields encoded, then the parameter's values as written (`raw`) or encoded. */
function formBody(parts: RequestParts, name: string, values: string[], raw: boolean): string {
  const others = new URLSearchParams((parts.form ?? []).filter(([n]) => n !== name)).toString();
  const mine = values.map((v) => `${encodeURIComponent(name)}=${raw ? v : encodeURIComponent(v)}`).join('&');
  return [others, mine].filter(Boolean).join('&');
}

/**
 * The parts with the parameter holding `values` (several: repeated), as written when `raw` (already percent-encoded on
 * purpose) or encoded as any client would. A header's values are joined as HTTP joins a repeated field (", "), each
 * behind the credential's prefix ("Bearer "); a JSON field takes the values as written JSON text when `raw`.
 */
export function putValues(parts: RequestParts, parameter: DocumentedParameter, values: string[], raw = false): RequestParts {
  const { name } = parameter;
  const next = removeParameter(parts, parameter);
  if (next.raw?.path && name in next.raw.path) delete next.raw.path[name];
  switch (parameter.in) {
    case 'path':
      if (raw) next.raw = { ...next.raw, path: { ...next.raw?.path, [name]: values.join('/') } };
      else next.path[name] = values.join('/');
      break;
    case 'query':
      if (raw)
        next.raw = {
          ...next.raw,
          query: [next.raw?.query, ...values.map((v) => `${encodeURIComponent(name)}=${v}`)].filter(Boolean).join('&'),
        };
      else for (const v of values) next.query.push([name, v]);
      break;
    case 'form':
      if (raw || values.length > 1) next.raw = { ...next.raw, body: formBody(parts, name, values, raw) };
      else next.form = [...(next.form ?? []), [name, values[0]!]];
      break;
    case 'json':
      if (raw || values.length > 1) {
        const rest = JSON.stringify(next.json ?? {}).slice(1);
        const members = values.map((v) => `${JSON.stringify(name)}:${raw ? v : JSON.stringify(v)}`).join(',');
        next.raw = { ...next.raw, body: `{${members}${rest === '}' ? '}' : `,${rest}`}` };
      } else next.json = { ...((next.json as Record<string, unknown> | undefined) ?? {}), [name]: values[0] };
      break;
    case 'header':
      next.headers[name] = values.map((v) => `${credentialPrefix(parameter.credential)}${v}`).join(', ');
  }
  return next;
}

/** A variant putting one value in the parameter's place. */
export const putVariant = (target: ParameterInPlace, label: string, value: string, raw = false): Variant => ({
  label: `${target.parameter.name} ${label}`,
  change: (parts) => putValues(parts, target.parameter, [value], raw),
  values: [value],
});

/** Header values travel as bytes: non-Latin-1 characters go as their UTF-8 bytes; NUL, CR and LF cannot go at all. */
export function asHeaderValue(value: string): string | undefined {
  if (/[\0\r\n]/.test(value)) return undefined;
  return Buffer.from(value, 'utf8').toString('latin1').trim();
}
