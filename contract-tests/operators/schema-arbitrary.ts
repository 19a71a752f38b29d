// fast-check arbitraries derived from the bundled JSON schemas: values that validate (valid) and values that break
// exactly one rule of the schema (invalid), for the property-based checks of every operation.
import fc from 'fast-check';
import type { ApiName } from '../../spec-core/apis.ts';
import { resolveRef } from '../model/spec.ts';

export interface Schema {
  $ref?: string;
  type?: string;
  const?: unknown;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  oneOf?: Schema[];
  anyOf?: Schema[];
}

const isoUtc = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true })
  .map((d) => d.toISOString().replace(/\.\d{3}Z$/, 'Z'));

// An absolute http(s) URL: a domain and up to three path segments of unreserved characters. (fast-check's webUrl builds
// its percent-encoding tables when first made: 2 to 3 CPU-seconds of a live run's worker, for five samples.)
const webUrl = fc
  .tuple(fc.constantFrom('https', 'http'), fc.domain(), fc.array(fc.stringMatching(/^[a-z0-9._~-]{1,12}$/), { maxLength: 3 }))
  .map(([scheme, host, path]) => `${scheme}://${host}/${path.join('/')}`);

/** An arbitrary of values valid against the schema (the subset of JSON Schema the specs use). */
export function validArbitrary(api: ApiName, raw: Schema): fc.Arbitrary<unknown> {
  const schema = resolveRef<Schema>(api, raw as Schema & { $ref: string });
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => validArbitrary(api, s)));
  switch (schema.type) {
    case 'string':
      // A format wins over a pattern: the patterns here only narrow a format (event_time), never widen it.
      if (schema.format === 'date-time') return isoUtc;
      if (schema.format === 'uri') return webUrl;
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
      {
        const minLength = Math.max(schema.minLength ?? 0, 1);
        return fc.string({ minLength, maxLength: Math.min(schema.maxLength ?? minLength + 23, minLength + 23), unit: 'grapheme-ascii' });
      }
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 });
    case 'array':
      return fc.array(validArbitrary(api, schema.items ?? {}), { minLength: 1, maxLength: 3 });
    case 'object': {
      const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, validArbitrary(api, s)]));
      return fc.record(properties, { requiredKeys: schema.required ?? [] });
    }
    default:
      return fc.jsonValue();
  }
}

// Values of the wrong kind for any typed field.
const wrongType = fc.constantFrom<unknown>(42, true, null, { nested: 'object' }, ['array']);
const malformedString = fc.constantFrom('', ' ', 'not-a-valid-value', '2026-13-45T25:61:00Z', '%00', 'x'.repeat(300));

/** An object valid against the schema except for one rule: a required field dropped, or one field of the wrong type or form. */
export function invalidObjectArbitrary(api: ApiName, raw: Schema): fc.Arbitrary<Record<string, unknown>> {
  const schema = resolveRef<Schema>(api, raw as Schema & { $ref: string });
  const variants = schema.oneOf ?? schema.anyOf ?? [schema];
  return fc.oneof(
    ...variants.map((variantRaw) => {
      const variant = resolveRef<Schema>(api, variantRaw as Schema & { $ref: string });
      const required = variant.required ?? [];
      const fields = Object.keys(variant.properties ?? {});
      return fc
        .tuple(
          validArbitrary(api, variant) as fc.Arbitrary<Record<string, unknown>>,
          fc.constantFrom(...(fields.length ? fields : ['_'])),
          wrongType,
          malformedString,
          fc.nat(2),
        )
        .map(([valid, field, badValue, badString, how]) => {
          const copy = { ...valid };
          if (how === 0 && required.length) delete copy[required[Math.abs(field.length) % required.length]!];
          else if (how === 1) copy[field] = badValue;
          else copy[field] = badString;
          return copy;
        });
    }),
  );
}
