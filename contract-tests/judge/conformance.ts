// Checks one response against the bundled spec: no 5xx, a documented status, the documented content type,
// a body valid against the response schema (extra fields allowed) and the required headers. Each problem names the
// place of the spec it breaks, and the check lists every place it held, so that verdicts.ts can tell a violated
// contract from a contradicted assumption and credit the assumptions a response confirms.
import type { ValidateFunction } from 'ajv';
import type { ApiName } from '../../spec-core/apis.ts';
import { escapePointer } from '../../spec-core/pointer.ts';
import { nodeAt, resolveRef, type HeaderObject, type Operation } from '../model/spec.ts';
import { validatorAt } from './validators.ts';
import { readJson } from './exchange-facts.ts';
import { headerGrammar } from './header-grammar.ts';

export interface ObservedResponse {
  status: number;
  headers: Headers;
  bodyText: string;
}

export interface Finding {
  message: string;
  /** JSON pointer (in the operation's bundle) of the place of the spec the response breaks; none for a 5xx or a body that is not what its own Content-Type says. */
  location?: string;
  /** A body that fits none of the branches of an anyOf or oneOf: what each branch found (verdicts.ts judges the branch
   * whose findings an x-assumption covers, if any, as a contradiction of it). */
  alternatives?: Finding[][];
}

export interface Inspection {
  problems: Finding[];
  /** Places of the spec the response was checked against and kept. */
  held: string[];
}

/** The documented response for a status: exact code first, then the range ("4XX"), then "default". */
export function documentedResponseKey(operation: Operation, status: number): string | undefined {
  const candidates = [String(status), `${String(status)[0]}XX`, 'default'];
  return candidates.find((key) => key in operation.responses);
}

export { mediaTypeOf } from '../model/media-types.ts';
import { mediaTypeOf } from '../model/media-types.ts';

function mediaTypeMatches(documented: string, actual: string): boolean {
  const [type, subtype] = documented.toLowerCase().split('/');
  const [actualType, actualSubtype] = actual.split('/');
  return (type === '*' || type === actualType) && (subtype === '*' || subtype === actualSubtype);
}

/** Follows local $refs from a pointer to the schema they name (once per pointer: the bundles do not change in a run). */
function dereference(api: ApiName, pointer: string): string {
  const key = `${api}#${pointer}`;
  const known = dereferenced.get(key);
  if (known !== undefined) return known;
  let at = pointer;
  for (let depth = 0; depth < 10; depth++) {
    const ref = nodeAt(api, at)?.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/')) break;
    at = ref.slice(1);
  }
  dereferenced.set(key, at);
  return at;
}
const dereferenced = new Map<string, string>();

/**
 * Where in the bundle each ajv error lies. ajv names a place inside a $ref target from the bundle root
 * ("#/components/schemas/Vehicle/properties/vin/type") and any other place from the validated schema ("#/type").
 * The summary errors of anyOf/oneOf are dropped: their branches' own errors say where the body failed.
 */
function schemaFindings(api: ApiName, schemaPointer: string, validate: ValidateFunction, prefix: string): Finding[] {
  const root = dereference(api, schemaPointer);
  const locate = (schemaPath: string) => {
    const path = schemaPath.replace(/^#/, '');
    return /^\/(components|paths)\//.test(path) ? path : `${root}${path}`;
  };
  const errors = (validate.errors ?? []).map((error) => ({ error, location: locate(error.schemaPath) }));
  const findingOf = ({ error, location }: (typeof errors)[number]): Finding => ({
    message: `${prefix} ${error.instancePath || '(body)'} ${error.message ?? 'is invalid'}`,
    location,
  });
  const combinators = errors.filter(({ error }) => error.keyword === 'anyOf' || error.keyword === 'oneOf');
  const claimed = new Set<unknown>();
  const findings: Finding[] = [];
  for (const combinator of combinators) {
    const branches = (nodeAt(api, combinator.location) as unknown[] | undefined) ?? [];
    const alternatives = branches.map((branch, i) => {
      const ref = (branch as { $ref?: string } | undefined)?.$ref;
      const prefixes = [`${combinator.location}/${i}/`, ...(ref?.startsWith('#/') ? [`${ref.slice(1)}/`] : [])];
      const mine = errors.filter(
        (e) =>
          e !== combinator &&
          !claimed.has(e) &&
          e.error.instancePath.startsWith(combinator.error.instancePath) &&
          prefixes.some((p) => e.location.startsWith(p)),
      );
      for (const e of mine) claimed.add(e);
      return mine.map(findingOf);
    });
    claimed.add(combinator);
    findings.push({
      message: `${prefix} ${combinator.error.instancePath || '(body)'} fits none of its ${branches.length} shapes`,
      alternatives,
    });
  }
  findings.push(...errors.filter((e) => !claimed.has(e)).map(findingOf));
  return findings.slice(0, 10);
}

/** What heldLocations reads of one schema node: its keywords' places, its branches, its properties, its items. */
interface SchemaPlaces {
  keywords: string[];
  branches: string[];
  properties: Map<string, string> | undefined;
  items: string | undefined;
}
const schemaPlaces = new Map<string, SchemaPlaces | null>();

/** The places of the schema node at a pointer, through $refs; read from the bundle once per run. */
function placesAt(api: ApiName, schemaPointer: string): SchemaPlaces | null {
  const key = `${api}#${schemaPointer}`;
  let places = schemaPlaces.get(key);
  if (places !== undefined) return places;
  const at = dereference(api, schemaPointer);
  const node = nodeAt(api, at);
  places = node
    ? {
        keywords: Object.keys(node)
          .filter((k) => !k.startsWith('x-') && k !== 'description' && k !== 'example' && k !== 'title')
          .map((k) => `${at}/${escapePointer(k)}`),
        branches: (['anyOf', 'oneOf', 'allOf'] as const).flatMap((combinator) => {
          const branches = node[combinator];
          return Array.isArray(branches) ? [...branches.keys()].map((i) => `${at}/${combinator}/${i}`) : [];
        }),
        properties: node.properties
          ? new Map(Object.keys(node.properties as object).map((name) => [name, `${at}/properties/${escapePointer(name)}`]))
          : undefined,
        items: node.items ? `${at}/items` : undefined,
      }
    : null;
  schemaPlaces.set(key, places);
  return places;
}

/** Places a valid body was checked against: each keyword of each schema node the body reached (through $refs). */
function heldLocations(api: ApiName, schemaPointer: string, value: unknown, found: string[] = [], depth = 0): string[] {
  const places = placesAt(api, schemaPointer);
  if (!places || depth > 20) return found;
  found.push(...places.keywords);
  for (const branch of places.branches) heldLocations(api, branch, value, found, depth + 1);
  if (places.properties && value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [name, child] of Object.entries(value)) {
      const property = places.properties.get(name);
      if (property !== undefined) heldLocations(api, property, child, found, depth + 1);
    }
  }
  // One element shows what the schema of every element covers; all were validated.
  if (places.items !== undefined && Array.isArray(value) && value.length) heldLocations(api, places.items, value[0], found, depth + 1);
  return found;
}

/** The documented headers of an answer, each judged by the grammar HTTP gives it or by its schema. */
function inspectHeaders(
  api: Operation['api'],
  documented: Operation['responses'][string],
  pointer: string,
  response: ObservedResponse,
  where: string,
  { problems, held }: Inspection,
): void {
  for (const [name, rawHeader] of Object.entries(documented.headers ?? {})) {
    const header = resolveRef<HeaderObject>(api, rawHeader);
    // A header may be a $ref to components/headers; its schema lives there.
    const headerRef = (rawHeader as { $ref?: string }).$ref;
    const headerPointer = headerRef ? headerRef.replace(/^#/, '') : `${pointer}/headers/${escapePointer(name)}`;
    const value = response.headers.get(name);
    if (value === null) {
      if (header.required)
        problems.push({ message: `${where}: required header ${name} is missing`, location: `${headerPointer}/required` });
      continue;
    }
    // A header HTTP gives a grammar is judged by it (a relative Location is a URI-reference), not by the schema's format.
    const grammar = headerGrammar(name);
    if (grammar) {
      if (grammar.accepts(value)) held.push(headerPointer);
      else problems.push({ message: `${where}: header ${name} "${value}" is not ${grammar.name}`, location: `${headerPointer}/schema` });
      continue;
    }
    if (header.schema) {
      const schemaType = (resolveRef(api, header.schema) as { type?: string }).type;
      const parsed = schemaType === 'integer' || schemaType === 'number' ? Number(value) : value;
      const validate = validatorAt(api, `${headerPointer}/schema`);
      if (validate(parsed)) held.push(...heldLocations(api, `${headerPointer}/schema`, parsed));
      else problems.push(...schemaFindings(api, `${headerPointer}/schema`, validate, `${where}: header ${name} "${value}":`));
    }
  }
}

/**
 * Everything of an answer inspectResponse reads, as one text: the operation, the status, the headers its documented
 * response names and the content type, and the body. Two answers with the same key inspect alike (judge/answer-memo.ts).
 */
export function inspectionKey(operation: Operation, response: ObservedResponse): string {
  const key = documentedResponseKey(operation, response.status);
  const names = key ? Object.keys(operation.responses[key]!.headers ?? {}) : [];
  const headers = [...names, 'content-type'].map((name) => response.headers.get(name));
  return `${operation.api}#${operation.operationId}\n${response.status}\n${JSON.stringify(headers)}\n${response.bodyText}`;
}

export function inspectResponse(operation: Operation, response: ObservedResponse): Inspection {
  const problems: Finding[] = [];
  const held: string[] = [];
  const where = `${operation.operationId} answered ${response.status}`;
  // A 5xx is a violation wherever it comes from: no location, so no assumption can cover it.
  if (response.status >= 500) problems.push({ message: `${where}: a 5xx status (the server failed on this request)` });
  const key = documentedResponseKey(operation, response.status);
  if (!key) {
    problems.push({
      message: `${where}: status not documented (documented: ${Object.keys(operation.responses).join(', ')})`,
      location: `${operation.pointer}/responses/${response.status}`,
    });
    return { problems, held };
  }
  const documented = operation.responses[key]!;
  const pointer = `${operation.pointer}/responses/${escapePointer(key)}`;
  const api = operation.api;

  inspectHeaders(api, documented, pointer, response, where, { problems, held });

  const content = documented.content;
  held.push(pointer);
  if (!content || Object.keys(content).length === 0) return { problems, held };
  const actualType = mediaTypeOf(response.headers.get('content-type'));
  if (response.bodyText.length === 0) {
    // An error status may come without a body (gateways do that); a success must carry what it documents.
    // Located at the response, not at its content: an assumption about the content type never covers a missing body.
    if (response.status < 400)
      problems.push({ message: `${where}: empty body, documented ${Object.keys(content).join(' or ')}`, location: pointer });
    else held.push(`${pointer}/content`);
    return { problems, held };
  }
  let mediaKey = Object.keys(content).find((documentedType) => mediaTypeMatches(documentedType, actualType));
  if (!mediaKey) {
    problems.push({
      message: `${where}: content type "${actualType || '(none)'}" is not documented (${Object.keys(content).join(', ')})`,
      location: `${pointer}/content`,
    });
    // The label differs (which may be an assumption's); a JSON body is still judged against the one JSON schema
    // documented, so the promises about its fields (the seed's) hold whatever the content type said.
    const jsonKeys = Object.keys(content).filter((type) => /[/+]json$/.test(type));
    if (jsonKeys.length !== 1 || !readJson(response.bodyText)) return { problems, held };
    mediaKey = jsonKeys[0]!;
  } else held.push(`${pointer}/content/${escapePointer(mediaKey)}`);
  const mediaPointer = `${pointer}/content/${escapePointer(mediaKey)}`;
  if (!content[mediaKey]!.schema) return { problems, held };
  const schemaPointer = `${mediaPointer}/schema`;
  let body: unknown = response.bodyText;
  if (/[/+]json$/.test(mediaKey)) {
    const read = readJson(response.bodyText);
    if (!read) {
      // Not JSON although its own Content-Type says so: the server contradicts itself, which no assumption of ours
      // covers (a body in another format under another content type is the format assumption's business, above).
      problems.push({ message: `${where}: body is not valid JSON although the content type is ${actualType}` });
      return { problems, held };
    }
    body = read.json;
  }
  const validate = validatorAt(api, schemaPointer);
  if (validate(body)) held.push(...heldLocations(api, schemaPointer, body));
  else problems.push(...schemaFindings(api, schemaPointer, validate, `${where}: body does not match the schema:`));
  return { problems, held };
}

/** The problems of a response as text, whatever their verdict (for the checker's own tests and for dredd-like uses). */
export function checkResponse(operation: Operation, response: ObservedResponse): string[] {
  return [...new Set(inspectResponse(operation, response).problems.map((p) => p.message))];
}
