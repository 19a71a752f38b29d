// The property-based inputs of every operation, derived from its schemas in the registry: for each place a request
// carries documented values in (its body, its query, its path), fast-check arbitraries of valid and of invalid values
// of that place, and the change that puts one in a valid request in place of the valid values. Pure: nothing is sent.
import fc from 'fast-check';
import type { DocumentedParameter, RegistryEntry } from '../model/operations.ts';
import { type Change, withPath } from '../send/parts.ts';
import { invalidObjectArbitrary, type Schema, validArbitrary } from './schema-arbitrary.ts';

export type FuzzPlace = 'body' | 'query' | 'path';
export type FuzzKind = 'valid' | 'invalid';

export interface FuzzTarget {
  entry: RegistryEntry;
  place: FuzzPlace;
  /** What is generated, for the test's name ("form bodies", "query strings", "path parameters"). */
  what: string;
  /** The documented parameters the generated values replace. */
  replaced: DocumentedParameter[];
  arbitrary(kind: FuzzKind): fc.Arbitrary<Record<string, unknown>>;
  /** The valid request with the generated values in place; `pinned` keeps the values of protected parameters. */
  change(input: Record<string, unknown>, pinned?: Record<string, string>): Change;
}

const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
const formOf = (value: Record<string, unknown>) => new URLSearchParams(Object.entries(value).map(([k, v]) => [k, text(v)])).toString();

function queryOf(value: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, v] of Object.entries(value)) for (const item of Array.isArray(v) ? v : [v]) params.append(key, text(item));
  return params.toString();
}

/** A protected field keeps its valid value wherever the generated one is a string (an invalid one stays invalid). */
const pin = (input: Record<string, unknown>, pinned: Record<string, string> = {}) => {
  const copy = { ...input };
  for (const [name, value] of Object.entries(pinned)) if (typeof copy[name] === 'string') copy[name] = value;
  return copy;
};

/** An object schema over the parameters of one place. */
const objectOf = (parameters: DocumentedParameter[]): Schema => ({
  type: 'object',
  properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema as Schema])),
  required: parameters.filter((p) => p.required).map((p) => p.name),
});

const objectArbitrary = (entry: RegistryEntry, schema: Schema, kind: FuzzKind) =>
  kind === 'valid'
    ? (validArbitrary(entry.operation.api, schema) as fc.Arbitrary<Record<string, unknown>>)
    : invalidObjectArbitrary(entry.operation.api, schema);

// Path values no identifier takes: blank, a lone percent sign, an encoded slash, a dash, far too long, non-ASCII.
const INVALID_PATH_VALUES = [' ', '%', '%2F', '-', 'a'.repeat(500), '\u00e9\u00e8'];

function bodyTarget(entry: RegistryEntry): FuzzTarget | undefined {
  // The operation's whole body schema: on an endpoint with several shapes (grant types) any of them is generated.
  const schema = entry.mediaType ? entry.operation.requestBody?.content[entry.mediaType]?.schema : undefined;
  if (!schema || entry.body === 'none') return undefined;
  const form = entry.body === 'form';
  return {
    entry,
    place: 'body',
    what: form ? 'form bodies' : 'JSON bodies',
    replaced: entry.parameters.filter((p) => p.in === 'form' || p.in === 'json'),
    arbitrary: (kind) => objectArbitrary(entry, schema as Schema, kind),
    // The credential headers stay; the body is the generated one.
    change: (input, pinned) => (parts) => {
      const body = pin(input, pinned);
      return { ...parts, form: undefined, json: undefined, raw: { ...parts.raw, body: form ? formOf(body) : JSON.stringify(body) } };
    },
  };
}

function queryTarget(entry: RegistryEntry): FuzzTarget | undefined {
  const replaced = entry.parameters.filter((p) => p.in === 'query');
  if (!replaced.length) return undefined;
  return {
    entry,
    place: 'query',
    what: 'query strings',
    replaced,
    arbitrary: (kind) => objectArbitrary(entry, objectOf(replaced), kind),
    change: (input, pinned) => (parts) => ({ ...parts, query: [], raw: { ...parts.raw, query: queryOf(pin(input, pinned)) } }),
  };
}

function pathTarget(entry: RegistryEntry): FuzzTarget | undefined {
  const replaced = entry.parameters.filter((p) => p.in === 'path');
  if (!replaced.length) return undefined;
  const valid = fc.tuple(...replaced.map((p) => validArbitrary(entry.operation.api, p.schema as Schema).map(String)));
  const named = (values: string[]) => Object.fromEntries(replaced.map((p, i) => [p.name, values[i]!]));
  // Invalid: one path parameter holds a value no identifier takes, the others valid ones.
  const invalid = fc
    .tuple(valid, fc.nat(replaced.length - 1), fc.constantFrom(...INVALID_PATH_VALUES))
    .map(([values, index, bad]) => values.map((v, i) => (i === index ? bad : v)));
  return {
    entry,
    place: 'path',
    what: 'path parameters',
    replaced,
    arbitrary: (kind) => (kind === 'valid' ? valid : invalid).map(named),
    change: (input) => withPath(Object.fromEntries(Object.entries(input).map(([k, v]) => [k, String(v)]))),
  };
}

/** The fuzz targets of the operations: each place of each operation once (of an operation with several body shapes,
 * the first entry `pick` accepts, as the body generated is any of its shapes). */
export function fuzzTargets<E extends RegistryEntry>(entries: readonly E[], pick: (entry: E) => boolean = () => true) {
  const ids = [...new Set(entries.map((e) => e.operationId))];
  return ids.flatMap((id) => {
    const shapes = entries.filter((e) => e.operationId === id);
    const entry = shapes.find(pick) ?? shapes[0]!;
    return [bodyTarget(entry), queryTarget(entry), pathTarget(entry)].flatMap((t) => (t ? [{ ...t, entry }] : []));
  });
}
