// The size limits the specs set on request values (`maxLength`, `maxItems`), read from the bundles so that the probes
// of contract-tests/property/input-limits.test.ts and the contradicting proxy follow the specs when a limit moves.
// Every limit is an x-assumption (seed 8: size limits are not shown).
import type { ApiName } from '../../spec-core/apis.ts';
import { nodeAt, operationById, resolveRef } from '../send/spec.ts';

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
