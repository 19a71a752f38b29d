// Refusals disclose nothing: a refused answer (any 4xx) carries no property of its operation's success schema and none
// of the identifying values this run has seen in accepted answers (tokens, codes, vehicle numbers, VINs, customer
// numbers, plates), unless the request itself carried that value (an error may name what it was asked). Checked on
// every answer by the contract fetch, so every check of every operation applies it. A security property: a violation.
import type { ApiName } from '../../spec-core/apis.ts';
import { type Operation, resolveRef } from '../model/spec.ts';
import { readJson } from './exchange-facts.ts';

/** Fields whose values identify a resource or grant access: what a refusal must never show. */
const IDENTIFYING = [
  'access_token',
  'refresh_token',
  'id_token',
  'vehicleNumber',
  'vin',
  'customerNumber',
  'customerVehicleNumber',
  'licensePlate',
];
/** At most this many values are remembered per worker (the run's answers are bounded, this keeps it so). */
const MAX_SEEN = 5000;
/** Shorter values are too likely to appear in any text by chance. */
const MIN_LENGTH = 4;

/** Identifying values from accepted answers, and the operation that answered each. */
const seen = new Map<string, string>();
/** The same values by their first MIN_LENGTH characters, with their place in `seen`: a refusal is read once, at each of
 * its characters, instead of once for each value seen (thousands, in a run with long vehicle lists). */
const byStart = new Map<string, Array<{ value: string; index: number }>>();

type Json = Record<string, unknown>;

function walk(value: unknown, visit: (key: string, value: unknown) => void, depth = 0): void {
  if (depth > 6 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) walk(item, visit, depth + 1);
    return;
  }
  for (const [key, inner] of Object.entries(value as Json)) {
    visit(key, inner);
    walk(inner, visit, depth + 1);
  }
}

const parse = (text: string): unknown => readJson(text)?.json;

/** Remembers the identifying values of an accepted answer (a 2xx body, a redirect's code). */
export function learnAccepted(operationId: string, bodyText: string, location: string | null): void {
  const remember = (value: unknown) => {
    if (typeof value !== 'string' || value.length < MIN_LENGTH || seen.size >= MAX_SEEN || seen.has(value)) return;
    const start = value.slice(0, MIN_LENGTH);
    const list = byStart.get(start) ?? [];
    list.push({ value, index: seen.size });
    byStart.set(start, list);
    seen.set(value, operationId);
  };
  walk(parse(bodyText), (key, value) => {
    if (IDENTIFYING.includes(key)) remember(value);
  });
  if (location && URL.canParse(location)) remember(new URL(location).searchParams.get('code'));
}

const propertyNamesCache = new Map<string, Set<string>>();

/** Every property name of a schema, deep (properties, items, allOf/oneOf/anyOf), $refs resolved. */
function propertyNames(api: ApiName, schema: unknown, into: Set<string>, depth = 0): Set<string> {
  if (depth > 8 || !schema || typeof schema !== 'object') return into;
  const node = resolveRef<Json>(api, schema as Json);
  for (const [name, inner] of Object.entries((node.properties as Json | undefined) ?? {})) {
    into.add(name);
    propertyNames(api, inner, into, depth + 1);
  }
  if (node.items) propertyNames(api, node.items, into, depth + 1);
  for (const key of ['allOf', 'oneOf', 'anyOf'])
    for (const part of (node[key] as unknown[] | undefined) ?? []) propertyNames(api, part, into, depth + 1);
  return into;
}

/** The success schemas' property names that no documented error schema of the operation has. */
function successOnlyProperties(operation: Operation): Set<string> {
  const cached = propertyNamesCache.get(operation.operationId);
  if (cached) return cached;
  const success = new Set<string>();
  const errors = new Set<string>();
  for (const [status, response] of Object.entries(operation.responses)) {
    const resolved = resolveRef(operation.api, response);
    for (const media of Object.values(resolved.content ?? {}))
      propertyNames(operation.api, media.schema, /^2/.test(status) ? success : errors);
  }
  const only = new Set([...success].filter((name) => !errors.has(name)));
  propertyNamesCache.set(operation.operationId, only);
  return only;
}

/** The values seen that a text holds, in the order they were seen. */
function seenValuesIn(text: string): string[] {
  const found = new Map<string, number>();
  for (let at = 0; at + MIN_LENGTH <= text.length; at++)
    for (const { value, index } of byStart.get(text.slice(at, at + MIN_LENGTH)) ?? [])
      if (!found.has(value) && text.startsWith(value, at)) found.set(value, index);
  return [...found].sort((a, b) => a[1] - b[1]).map(([value]) => value);
}

/**
 * What a refused answer (4xx) discloses: success-schema properties whose value the request did not carry, and
 * identifying values of accepted answers that the request did not carry. Never the value itself in the message.
 */
export function disclosures(operation: Operation, requestText: string, status: number, bodyText: string): string[] {
  if (status < 400 || status >= 500 || bodyText === '') return [];
  const found: string[] = [];
  const only = successOnlyProperties(operation);
  walk(parse(bodyText), (key, value) => {
    if (!only.has(key)) return;
    // An error may name what it was asked ("no vehicle V-1"): a value the request carried discloses nothing.
    if ((typeof value === 'string' || typeof value === 'number') && requestText.includes(String(value))) return;
    found.push(`property "${key}" of the success answer`);
  });
  for (const value of seenValuesIn(bodyText))
    if (!requestText.includes(value)) found.push(`a value this run saw in an accepted answer of ${seen.get(value)}`);
  return [...new Set(found)].map(
    (what) => `${operation.operationId} refused the request (${status}) but its answer discloses ${what} (refusals must disclose nothing)`,
  );
}
