// Robustness from the spec, not from examples: the cases of property/robustness-checks.ts, generated from an operation
// of the bundles and a valid request of the model (support/model.ts). Three dimensions, each a fixed list crossed
// with what the spec says of the operation: the request content types it does NOT list (and none at all), the HTTP
// methods its path does NOT document, and every string field of its body and every string query or path parameter
// replaced, one at a time, by values from the whole of Unicode. Pure: no request is sent here.
import type { ModelEntry, RequestParts } from '../send/model.ts';
import type { Operation } from '../send/spec.ts';

type Json = Record<string, unknown>;
/** Resolves a local $ref of the operation's bundle (support/spec.ts's resolveRef, bound to the operation's API). */
export type Resolve = (node: unknown) => Json;

// --- content types -------------------------------------------------------------------------------------------------

export const MULTIPART_BOUNDARY = 'contract-robustness-boundary-7d3f';

/** A fixed, broad list of request content types; each operation gets those its spec does not list. */
export const CONTENT_TYPES: readonly string[] = [
  'application/json',
  'application/x-www-form-urlencoded',
  'text/plain',
  'application/xml',
  `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`,
  'application/octet-stream',
  'application/json; charset=utf-8',
];

export interface ContentTypeCase {
  /** The Content-Type header to send; undefined: no Content-Type at all (the body as bytes, which fetch leaves unlabelled). */
  contentType: string | undefined;
  /** Safe to print. */
  label: string;
}

/** The request content types the operation lists (its requestBody's media types, as written). */
export function listedContentTypes(operation: Operation): string[] {
  return Object.keys(operation.requestBody?.content ?? {}).map((type) => type.toLowerCase());
}

/**
 * Every content type of the list the operation does not list (compared as written: a JSON type with a charset is
 * not what a spec listing `application/json` names), and, for an operation with a body, none at all.
 */
export function contentTypeCases(operation: Operation, hasBody: boolean): ContentTypeCase[] {
  const listed = listedContentTypes(operation);
  const cases: ContentTypeCase[] = CONTENT_TYPES.filter((type) => !listed.includes(type)).map((type) => ({
    contentType: type,
    label: `Content-Type "${type}"`,
  }));
  if (hasBody) cases.push({ contentType: undefined, label: 'no Content-Type' });
  return cases;
}

/** A media type without its parameters, lowercased ("application/json; charset=utf-8" is "application/json"). */
export const essenceOf = (type: string) => type.split(';')[0]!.trim().toLowerCase();

/** The parts with the Content-Type header set to `type`, or removed (any spelling of the name). */
export function withContentType(parts: RequestParts, type: string | undefined): RequestParts {
  const headers = Object.fromEntries(Object.entries(parts.headers).filter(([name]) => name.toLowerCase() !== 'content-type'));
  if (type !== undefined) headers['content-type'] = type;
  return { ...parts, headers };
}

// --- methods ---------------------------------------------------------------------------------------------------------

export const HTTP_METHODS: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The methods of the list that the operation's path (in its API) does not document. */
export function undocumentedMethods(operation: Operation, all: readonly Operation[]): string[] {
  const documented = new Set(all.filter((o) => o.api === operation.api && o.path === operation.path).map((o) => o.method.toUpperCase()));
  return HTTP_METHODS.filter((method) => !documented.has(method));
}

/** Methods whose requests fetch refuses to give a body. */
export const BODILESS_METHODS: readonly string[] = ['GET', 'HEAD'];

// --- Unicode ---------------------------------------------------------------------------------------------------------

/** One code point of many scripts (and a combining mark, an astral emoji, a mathematical letter), cycled for the long value. */
const MIXED_SCRIPTS = [...'aé λж عש कก中ひ한🚚𝔘\u0301ß'];
const mixedScripts = (codePoints: number) => Array.from({ length: codePoints }, (_, i) => MIXED_SCRIPTS[i % MIXED_SCRIPTS.length]).join('');
export const LONG_CODE_POINTS = 5000;
/**
 * In a URL the long value is cut to what fits 4 KiB percent-encoded (as property/malformed-inputs.test.ts keeps its
 * query strings): 5000 such code points take some 35 KB there, which a server's HTTP layer refuses (414, or Node's 431)
 * before the operation sees the value, so it would test the request-line limit, not the handling of Unicode.
 */
export const URL_ENCODED_LIMIT = 4096;
let urlCodePoints = 0;
while (encodeURIComponent(mixedScripts(urlCodePoints + 1)).length <= URL_ENCODED_LIMIT) urlCodePoints++;
export const URL_LONG_CODE_POINTS = urlCodePoints;

/**
 * Values from the whole of Unicode, each a well-formed string (a lone surrogate cannot be encoded in UTF-8, so fetch
 * could not send one: it is left out). Kinds are safe to print; the values are never printed.
 */
// Three values carry every category, so each field costs three requests and a long one, not eleven: a server that
// fails on any of them fails on the value that holds it (the failure names the value's kind, and the categories in it).
export const UNICODE_VALUES: ReadonlyArray<readonly [kind: string, value: string]> = [
  [
    'letters outside ASCII (Latin, Cyrillic, Greek, CJK, Hangul, Arabic, Hebrew) with combining marks and astral emoji',
    'Ünïcödé ßøæ Привет Ωμέγα 漢字テスト한국어 مرحبا שלום e\u0301\u0308\u0323 Z\u0336\u0338a\u030a 🚚📦\u{1F1E9}\u{1F1EA}\u{1F3FD}',
  ],
  [
    'control and invisible characters: a NUL, a right-to-left override (U+202E), zero-width characters (ZWJ, ZWNJ, ZWSP, BOM)',
    'contract\u0000probe \u202Egnp.exe\u202C a\u200Db\u200Cc\u200Bd\uFEFF👩\u200D👩\u200D👧',
  ],
  [
    'one code point of every plane (noncharacters, private use, U+10FFFF)',
    Array.from({ length: 17 }, (_, plane) => String.fromCodePoint(plane * 0x10000 + (plane === 0 ? 0xfffe : 0xffff))).join('') +
      '\uE000\u{F0000}\u{10FFFF}',
  ],
];
/** The long value of mixed scripts: in a body, and in a URL (cut to fit, see URL_ENCODED_LIMIT). */
const LONG_IN_BODY = [`${LONG_CODE_POINTS} code points of mixed scripts`, mixedScripts(LONG_CODE_POINTS)] as const;
const LONG_IN_URL = [
  `${URL_LONG_CODE_POINTS} code points of mixed scripts (as many as fit ${URL_ENCODED_LIMIT} bytes percent-encoded)`,
  mixedScripts(URL_LONG_CODE_POINTS),
] as const;

/** Where a string field of a request travels. */
export type FieldPlace = 'query' | 'path' | 'form' | 'json';

export interface StringField {
  in: FieldPlace;
  name: string;
  /** A client_id is damaged only behind a prefix that keeps it clearly a wrong client (a 4xx, never another client). */
  wrongClient?: boolean;
}

/** Fields never damaged: a credential, and a milestone's load (a damaged one could land on another load). */
export const NEVER_DAMAGED: Readonly<Record<string, string>> = {
  client_secret: 'a credential',
  load_id: 'the load of a milestone: a damaged one could land on another load',
};
/** Fields damaged only as a clearly wrong client. */
const WRONG_CLIENT_FIELDS = new Set(['client_id']);
export const WRONG_CLIENT_PREFIX = 'contract-not-a-client-';

const isStringSchema = (schema: Json): boolean =>
  schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string'));

/** A parameter's schema is a string, or an array of strings (then one item carries the value). */
function isStringParameter(schema: Json, resolve: Resolve): boolean {
  if (isStringSchema(schema)) return true;
  const isArray = schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array'));
  return isArray && schema.items !== undefined && isStringSchema(resolve(schema.items));
}

/**
 * The string properties of a body schema, $refs resolved; under a oneOf/anyOf with a discriminator, only the branch
 * the valid body's discriminator value names (the other branches are other requests: other model entries); without
 * one, every branch; allOf: every part.
 */
export function stringProperties(schema: unknown, body: Json | undefined, resolve: Resolve, depth = 0): string[] {
  if (depth > 8 || !schema || typeof schema !== 'object') return [];
  const node = resolve(schema);
  const names = Object.entries((node.properties as Json | undefined) ?? {})
    .filter(([, property]) => isStringSchema(resolve(property)))
    .map(([name]) => name);
  for (const part of (node.allOf as unknown[] | undefined) ?? []) names.push(...stringProperties(part, body, resolve, depth + 1));
  for (const key of ['oneOf', 'anyOf'] as const) {
    const branches = (node[key] as unknown[] | undefined) ?? [];
    if (!branches.length) continue;
    const discriminator = node.discriminator as { propertyName?: string; mapping?: Record<string, string> } | undefined;
    const chosen = discriminator?.propertyName ? body?.[discriminator.propertyName] : undefined;
    const ref = typeof chosen === 'string' ? discriminator?.mapping?.[chosen] : undefined;
    const picked = ref ? branches.filter((b) => (b as { $ref?: string }).$ref === ref) : [];
    for (const branch of picked.length ? picked : branches) names.push(...stringProperties(branch, body, resolve, depth + 1));
  }
  return [...new Set(names)];
}

/**
 * Every string query and path parameter of the operation and every string field of its request body (the media type
 * the entry sends), less those never damaged; client_id is marked to be damaged as a clearly wrong client.
 */
export function stringFields(entry: ModelEntry, operation: Operation, parts: RequestParts, resolve: Resolve): StringField[] {
  const fields: StringField[] = [];
  for (const parameter of operation.parameters) {
    const place = parameter.in;
    if ((place === 'query' || place === 'path') && parameter.schema && isStringParameter(resolve(parameter.schema), resolve))
      fields.push({ in: place, name: String(parameter.name) });
  }
  if (entry.body !== 'none' && operation.requestBody) {
    const wanted = entry.body === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
    const content = operation.requestBody.content;
    const media = content[wanted] ?? Object.values(content)[0];
    const body = (entry.body === 'form' ? parts.form : parts.json) as Json | undefined;
    for (const name of stringProperties(media?.schema, body, resolve)) fields.push({ in: entry.body, name });
  }
  return fields
    .filter((field) => !(field.name in NEVER_DAMAGED))
    .map((field) => (WRONG_CLIENT_FIELDS.has(field.name) ? { ...field, wrongClient: true } : field));
}

/** The Unicode values a field gets, named: the list, and the long value sized for where the field travels. */
export const unicodeValuesFor = (field: StringField): ReadonlyArray<readonly [kind: string, value: string]> => [
  ...UNICODE_VALUES,
  field.in === 'query' || field.in === 'path' ? LONG_IN_URL : LONG_IN_BODY,
];

/** The value a field gets: the Unicode value, behind the wrong-client prefix where the field names a client. */
export const damagedValue = (field: StringField, value: string) => (field.wrongClient ? `${WRONG_CLIENT_PREFIX}${value}` : value);

/** The parts with one field holding `value` (every other part as it was); an absent optional field is added. */
export function withField(parts: RequestParts, operation: Operation, field: StringField, value: string): RequestParts {
  const next: RequestParts = { ...parts, headers: { ...parts.headers }, query: [...parts.query] };
  switch (field.in) {
    case 'query': {
      const others = parts.query.filter(([name]) => name !== field.name);
      next.query = [...others, [field.name, value]];
      return next;
    }
    case 'form':
      next.form = { ...(parts.form ?? {}), [field.name]: value };
      return next;
    case 'json':
      next.json = { ...((parts.json as Json | undefined) ?? {}), [field.name]: value };
      return next;
    case 'path': {
      // The valid path's segments, as the spec's path template places them; the field's segment replaced.
      const names = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const match = operation.pathPattern.exec(parts.path);
      if (!match) throw new Error(`${operation.operationId}: the valid path does not match ${operation.path}`);
      const segments = new Map(names.map((name, i) => [name, match[i + 1] ?? '']));
      segments.set(field.name, encodeURIComponent(value));
      next.path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => segments.get(name) ?? '');
      return next;
    }
  }
}
