// The size limits the specs set on request values (`maxLength`, `maxItems`), read from the bundles so that the probes
// of contract-tests/property/input-limits.test.ts and the contradicting proxy follow the specs when a limit moves.
// Every limit is an x-assumption (seed 8: size limits are not shown); `limitProbes` derives, for every operation of
// the registry whose operation or body schema carries one, the parameter to probe one character over its limit.
import type { ApiName } from '../../spec-core/apis.ts';
import { type Assumption, collectAssumptions } from '../../spec-core/assumptions.ts';
import { CREDENTIALS } from '../model/credentials.ts';
import type { ModelEntry } from '../model/model-entries.ts';
import type { DocumentedParameter } from '../model/operations.ts';
import { specBundles, nodeAt, operationById, resolveRef } from '../model/spec.ts';
import type { EarlierValue, VariableValue } from '../model/valid-requests.ts';

interface Bounds {
  maxLength?: number;
  maxItems?: number;
}

function bounded(where: string, node: unknown, key: keyof Bounds): number {
  const value = (node as Bounds | undefined)?.[key];
  if (typeof value !== 'number') throw new Error(`${where} has no ${key} in the bundle`);
  return value;
}

/** `maxLength` of each property of a request schema that has one ("/components/schemas/ServiceTokenRequest"). */
export function fieldLimits(api: ApiName, schemaPointer: string): Record<string, number> {
  const properties = (nodeAt(api, schemaPointer)?.properties ?? {}) as Record<string, unknown>;
  const limits: Record<string, number> = {};
  for (const [name, schema] of Object.entries(properties)) {
    const max = (resolveRef(api, schema as Bounds) as Bounds | undefined)?.maxLength;
    if (typeof max === 'number') limits[name] = max;
  }
  return limits;
}

/** `maxLength` of one property of a request schema; throws when the spec sets none. */
export function fieldLimit(api: ApiName, schemaPointer: string, field: string): number {
  return bounded(`${api}#${schemaPointer}/properties/${field}`, { maxLength: fieldLimits(api, schemaPointer)[field] }, 'maxLength');
}

function parameterSchema(operationId: string, name: string): { schema: Bounds & { items?: Bounds }; where: string } {
  const parameter = operationById(operationId).parameters.find((p) => p.name === name);
  return { schema: (parameter?.schema ?? {}) as Bounds & { items?: Bounds }, where: `${operationId} parameter ${name}` };
}

/** `maxLength` of a parameter, or of each value of an array parameter; throws when the spec sets none. */
export function parameterLimit(operationId: string, name: string): number {
  const { schema, where } = parameterSchema(operationId, name);
  return bounded(where, schema.items ?? schema, 'maxLength');
}

/** `maxItems` of an array parameter; throws when the spec sets none. */
export function parameterCountLimit(operationId: string, name: string): number {
  const { schema, where } = parameterSchema(operationId, name);
  return bounded(where, schema, 'maxItems');
}

/** `maxLength` of every parameter of an operation that has one (of its values, for arrays). */
export function parameterLimits(operationId: string): Record<string, number> {
  const limits: Record<string, number> = {};
  for (const parameter of operationById(operationId).parameters) {
    const schema = (parameter.schema ?? {}) as Bounds & { items?: Bounds };
    const max = (schema.items ?? schema).maxLength;
    if (typeof max === 'number') limits[String(parameter.name)] = max;
  }
  return limits;
}

/** A value one character over `max`: `prefix` padded with `fill`. */
export const oneOver = (max: number, prefix = '', fill = 'x') => `${prefix}${fill.repeat(Math.max(0, max + 1 - prefix.length))}`;

/** The section of the published documentation whose gap the size limits fill: "size limits are not shown". */
const SIZE_LIMITS_SECTION = '8';

export interface LimitProbe {
  entry: ModelEntry;
  /** The x-assumption that sets the entry's limits (on its operation or its body schema). */
  assumption: Assumption;
  /** The parameter probed one over its limit, or why none is (`parameter` undefined). */
  parameter?: DocumentedParameter;
  why?: string;
  /** Its `maxLength` (of each value, for an array). */
  max?: number;
  /** Its `maxItems`, for an array. */
  count?: number;
}

type Bounded = Bounds & { format?: string; pattern?: string; enum?: unknown[]; const?: unknown; items?: Bounded };

/**
 * How well an over-long value of the parameter shows the limit, lower first; undefined when it cannot: only where a
 * server without the limit answers otherwise than the assumed refusal (400) does the refusal show the limit. A value
 * another operation issued (a code, a vehicle number) is refused as unknown (invalid_grant, 404); a wrong secret is
 * 401; a value the client makes up (a state, a milestone's type, a filter value) is served. A configured value (the
 * client, the scope, the redirect URI), a formatted or listed one (refused for its form anyway) and a protected one
 * are never probed.
 */
function rank(entry: ModelEntry, parameter: DocumentedParameter): number | undefined {
  const schema = parameter.schema as Bounded;
  const item = schema.items ?? schema;
  // `password` only hides a value as it is typed: it sets no form a server could refuse it for.
  const formed = (item.format !== undefined && item.format !== 'password') || item.pattern || item.enum || item.const !== undefined;
  if (typeof item.maxLength !== 'number' || formed) return undefined;
  if (entry.table.protect?.[parameter.name]) return undefined;
  if (parameter.credential) return CREDENTIALS[parameter.credential].secret ? 1 : undefined;
  const value = entry.table.values?.[parameter.name] ?? entry.table.samples?.[parameter.name];
  if ((value as Partial<EarlierValue> | undefined)?.from) return 0;
  return (value as Partial<VariableValue> | undefined)?.variable ? undefined : 2;
}

/** The size-limit x-assumption of each entry that has one, with the parameter to probe (`docs`: a copy of the bundles). */
export function limitProbes(model: readonly ModelEntry[], docs: Partial<Record<ApiName, unknown>> = specBundles()): LimitProbe[] {
  const assumptions = new Map<ApiName, Assumption[]>();
  const of = (api: ApiName) => assumptions.get(api) ?? assumptions.set(api, collectAssumptions(api, docs[api])).get(api)!;
  return model.flatMap((entry): LimitProbe[] => {
    const places = [entry.operation.pointer, entry.bodySchemaPointer];
    const assumption = of(entry.operation.api).find((a) => a.seed === SIZE_LIMITS_SECTION && !a.untestable && places.includes(a.pointer));
    if (!assumption) return [];
    const ranked = entry.parameters.flatMap((p) => {
      const r = rank(entry, p);
      return r === undefined ? [] : [{ p, r }];
    });
    const parameter = ranked.sort((a, b) => a.r - b.r)[0]?.p;
    if (!parameter)
      return [{ entry, assumption, why: 'no bounded parameter whose over-long value a server without the limit would answer otherwise' }];
    const schema = parameter.schema as Bounded;
    const max = (schema.items ?? schema).maxLength!;
    return [{ entry, assumption, parameter, max, ...(typeof schema.maxItems === 'number' ? { count: schema.maxItems } : {}) }];
  });
}
