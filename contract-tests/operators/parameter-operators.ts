// The operators that change one parameter, applied to every parameter and credential the registry knows: omitted,
// empty, repeated, padded, case-changed, percent-encoded once and twice, near misses, injection characters, the Unicode
// classes, the boundaries of its format, one over its limit, and (JSON fields) the other JSON types. Each says why when
// it cannot apply to a parameter; the self-test holds every parameter to every operator.
import {
  asHeaderValue,
  type Made,
  type ParameterInPlace,
  type ParameterOperator,
  putValues,
  putVariant,
  removeParameter,
  type Variant,
} from './operator.ts';
import {
  BLANK_VALUES,
  caseChanges,
  DATE_TIME_BOUNDARIES,
  distinct,
  injectionValues,
  longUnicode,
  type MadeValue,
  nearMissValues,
  ofLength,
  percentEncoded,
  UNICODE_VALUES,
  uriBoundaries,
} from './values.ts';

type Schema = { format?: string; maxLength?: number; minLength?: number; maxItems?: number; type?: unknown; items?: Schema };

const HEADER_TRIMS = 'HTTP field values lose surrounding whitespace on the way (RFC 9110 5.5): a padded header is the same request';
const inUrl = (target: ParameterInPlace) => target.parameter.in === 'path' || target.parameter.in === 'query';

/** Made values as variants; in a header, as the bytes a header can carry (those it cannot carry are left out). */
function asVariants(target: ParameterInPlace, made: MadeValue[]): Variant[] {
  const sent = new Set<string>();
  return made.flatMap((m) => {
    if (target.parameter.in !== 'header') return [putVariant(target, m.label, m.value, m.raw)];
    const value = asHeaderValue(m.value);
    // Trimmed on the way, two values can be the same bytes (a blank header is an empty one): sent once.
    if (value === undefined || value === target.value || sent.has(value)) return [];
    sent.add(value);
    return [putVariant(target, m.label, value)];
  });
}

const valueOperator = (id: string, title: string, make: (target: ParameterInPlace) => MadeValue[] | string): ParameterOperator => ({
  id,
  scope: 'parameter',
  title,
  variants(target): Made {
    const made = make(target);
    if (typeof made === 'string') return { inapplicable: made };
    const variants = asVariants(target, made);
    return variants.length ? variants : { inapplicable: 'none of its values can travel where the parameter does' };
  },
});

const omit: ParameterOperator = {
  id: 'omit',
  scope: 'parameter',
  title: 'left out',
  variants: (target) => [
    { label: `${target.parameter.name} left out`, change: (parts) => removeParameter(parts, target.parameter), values: [] },
  ],
};

/** Empty, and blank (whitespace only): a value a schema's minLength lets through, which a server must still handle. An empty
 * path segment is the request with the parameter left out, so a path parameter gets only the blank values. */
const empty = valueOperator('empty', 'empty or blank', (target) => [
  ...(target.parameter.in === 'path' ? [] : [{ label: 'empty', value: '' }]),
  ...BLANK_VALUES,
]);

const repeat: ParameterOperator = {
  id: 'repeat',
  scope: 'parameter',
  title: 'repeated',
  variants(target): Made {
    const { parameter, value } = target;
    if (parameter.in === 'path') return { inapplicable: 'a path parameter is one segment: a second one is another address' };
    const json = parameter.in === 'json';
    const put = (label: string, values: string[]): Variant => ({
      label: `${parameter.name} ${label}`,
      change: (parts) => putValues(parts, parameter, json ? values.map((v) => JSON.stringify(v)) : values, json),
      values,
    });
    return [put('repeated', [value, value]), put('repeated after another value', ['contract-other', value])];
  },
};

const pad = valueOperator('pad', 'padded with whitespace', (target) =>
  target.parameter.in === 'header'
    ? HEADER_TRIMS
    : [
        { label: 'with a leading space', value: ` ${target.value}` },
        { label: 'with a trailing space', value: `${target.value} ` },
        { label: 'with a leading tab', value: `\t${target.value}` },
        { label: 'with a trailing newline', value: `${target.value}\n` },
      ],
);

const changeCase = valueOperator('case', 'case-changed', (target) => {
  const made = caseChanges(target.value);
  return made.length ? made : 'its value has no letters whose case could change';
});

/** In a URL or a form the encoding goes on the wire as written (the server decodes it); elsewhere it is literal text. */
const encodedOnce = (target: ParameterInPlace): MadeValue => ({
  label: 'percent-encoded, every byte',
  value: percentEncoded(target.value),
  raw: ['path', 'query', 'form'].includes(target.parameter.in),
});

const percentOnce = valueOperator('percent-once', 'percent-encoded once', (target) => [encodedOnce(target)]);

const percentTwice = valueOperator('percent-twice', 'percent-encoded twice', (target) => {
  const once = encodedOnce(target);
  return [{ label: 'percent-encoded twice', value: once.value.replace(/%/g, '%25'), raw: once.raw }];
});

const nearMiss = valueOperator('near-miss', 'a near miss of its value', (target) => nearMissValues(target.value));

const injection = valueOperator('injection', 'injection characters', (target) => injectionValues(target.value));

/** A long value must fit a URL or a header (a server's HTTP layer refuses longer ones before the operation sees them). */
const inUrlOrHeader = (target: ParameterInPlace) => inUrl(target) || target.parameter.in === 'header' || target.carriedIn === 'header';

// Sized as in a URL also when it travels inside another header (HTTP Basic): percent-encoded, then base64, it must fit.
const unicode = valueOperator('unicode', 'the Unicode classes', (target) => [
  ...UNICODE_VALUES,
  longUnicode(inUrl(target) || target.carriedIn === 'header'),
]);

const formatBoundary = valueOperator('format-boundary', 'the boundaries of its format', (target) => {
  const schema = target.parameter.schema as Schema;
  const item = schema.items ?? schema;
  const made: MadeValue[] = [];
  if (item.format === 'date-time') made.push(...DATE_TIME_BOUNDARIES);
  if (item.format === 'uri') made.push(...uriBoundaries(target.value));
  if (typeof item.maxLength === 'number')
    made.push({ label: `of exactly ${item.maxLength} characters (its limit)`, value: ofLength(target.value, item.maxLength) });
  if (typeof item.minLength === 'number' && item.minLength > 1)
    made.push({ label: `of ${item.minLength - 1} characters (one under its minimum)`, value: ofLength(target.value, item.minLength - 1) });
  const values = distinct(target.value, made);
  return values.length ? values : 'the spec documents no format, pattern or length for it';
});

/** Far over any limit a server could have set without documenting it: 4 KiB in a URL or a header, 64 KiB in a body. */
const farOver = (target: ParameterInPlace) => (inUrlOrHeader(target) ? 4096 : 65536);

const overLimit: ParameterOperator = {
  id: 'over-limit',
  scope: 'parameter',
  title: 'one over its limit',
  variants(target): Made {
    const schema = target.parameter.schema as Schema;
    const item = schema.items ?? schema;
    const variants: Variant[] = [];
    const length = typeof item.maxLength === 'number' ? item.maxLength + 1 : farOver(target);
    const label =
      typeof item.maxLength === 'number'
        ? `of ${length} characters (limit ${item.maxLength})`
        : `of ${length} characters (no limit documented)`;
    variants.push(...asVariants(target, [{ label, value: ofLength(target.value, length) }]));
    if (typeof schema.maxItems === 'number') {
      const values = Array.from({ length: schema.maxItems + 1 }, (_, i) => (i === 0 ? target.value : `${target.value}-${i}`));
      variants.push({
        label: `${target.parameter.name} ${values.length} times (limit ${schema.maxItems})`,
        change: (parts) => putValues(parts, target.parameter, values),
        values,
      });
    }
    return variants;
  },
};

/** Encodings a decoder must refuse or survive: a lone %, an invalid escape, bytes that are not UTF-8, an encoded slash,
 * and (query and form) a name without "=". Sent as written. */
const malformedEncoding: ParameterOperator = {
  id: 'malformed-encoding',
  scope: 'parameter',
  title: 'a malformed percent-encoding',
  variants(target): Made {
    const { parameter, value } = target;
    if (!['path', 'query', 'form'].includes(parameter.in))
      return { inapplicable: 'a header or a JSON string has no percent-encoding to break' };
    const encoded = encodeURIComponent(value);
    const variants = [
      putVariant(target, 'with a lone %', `${encoded}%`, true),
      putVariant(target, 'with an invalid escape %zz', `${encoded}%zz`, true),
      putVariant(target, 'with bytes that are not UTF-8', `${encoded}%C3%28%FF`, true),
      putVariant(target, 'with an encoded slash', `${encoded}%2F..%2Fx`, true),
    ];
    if (parameter.in !== 'path')
      variants.push({
        label: `${parameter.name} without "="`,
        change: (parts) => {
          const next = putValues(parts, parameter, ['x'], true);
          const where = parameter.in === 'query' ? 'query' : 'body';
          const name = encodeURIComponent(parameter.name);
          return { ...next, raw: { ...next.raw, [where]: next.raw?.[where]?.replace(`${name}=x`, name) } };
        },
        values: [],
      });
    return variants;
  },
};

const jsonTypes: ParameterOperator = {
  id: 'json-types',
  scope: 'parameter',
  title: 'another JSON type',
  variants(target): Made {
    if (target.parameter.in !== 'json') return { inapplicable: 'only a JSON field can hold another type than a string' };
    return ['null', '12345', 'true', '[]', '{"$ne":null}'].map((text) => ({
      label: `${target.parameter.name} as ${text}`,
      change: (parts) => putValues(parts, target.parameter, [text], true),
      values: [],
    }));
  },
};

export const PARAMETER_OPERATORS: readonly ParameterOperator[] = [
  omit,
  empty,
  repeat,
  pad,
  changeCase,
  percentOnce,
  percentTwice,
  nearMiss,
  injection,
  unicode,
  formatBoundary,
  overLimit,
  malformedEncoding,
  jsonTypes,
];
