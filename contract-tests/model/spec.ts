// The bundled specs as the suite reads them: every operation with its base URL variable. Everything here is a function
// of a bundles object (memoized per object, so a self-test's copy gets its own); the kit's own bundles are loaded from
// dist/openapi when first asked for, never at import, and nothing here reads the environment.
import { API_NAMES, type ApiName } from '../../spec-core/apis.ts';
import { collectAssumptions, type Assumption } from '../../spec-core/assumptions.ts';
import { loadBundles } from '../../spec-core/bundles.ts';
import { operationsOf } from '../../spec-core/operations.ts';
import { nodeAt as nodeInDoc, resolveRef as resolveInDoc } from '../../spec-core/pointer.ts';
import type { LpVariable } from '../../config/environment.ts';

type Json = Record<string, unknown>;

export interface MediaType {
  schema?: Json;
}
export interface HeaderObject {
  required?: boolean;
  schema?: Json;
}
export interface ResponseObject {
  description?: string;
  headers?: Record<string, HeaderObject | { $ref: string }>;
  content?: Record<string, MediaType>;
}
export interface SecurityRequirement {
  [scheme: string]: string[];
}

export interface Operation {
  api: ApiName;
  operationId: string;
  method: string;
  path: string;
  /** The LP_* variable that holds the server address of this operation. */
  baseVariable: LpVariable;
  /** JSON pointer of the operation inside its bundle. */
  pointer: string;
  responses: Record<string, ResponseObject>;
  security: SecurityRequirement[];
  parameters: Json[];
  requestBody?: { required?: boolean; content: Record<string, MediaType & { examples?: Record<string, { value?: unknown }> }> };
  pathPattern: RegExp;
  /** The section of the published documentation that describes the operation (its `x-seed-section`). */
  seedSection?: string;
}

const SERVER_VARIABLES: Record<string, LpVariable> = {
  base_url: 'LP_BASE_URL',
  auth_url: 'LP_AUTH_URL',
  fleet_base_url: 'LP_FLEET_BASE_URL',
};

export type Bundles = Record<ApiName, Json>;

/** `build` of a bundles object, computed once per object. */
export function memoByBundles<T>(build: (docs: Bundles) => T): (docs: Bundles) => T {
  const built = new WeakMap<Bundles, T>();
  return (docs) => {
    if (!built.has(docs)) built.set(docs, build(docs));
    return built.get(docs) as T;
  };
}

let loaded: Bundles | undefined;
/** The kit's bundles (dist/openapi/*.json), read once, when first asked for. */
export const specBundles = (): Bundles => {
  loaded ??= loadBundles();
  return loaded;
};

const assumptionsOf = memoByBundles((docs) => API_NAMES.flatMap((api) => collectAssumptions(api, docs[api])));
/** The x-assumptions of the kit's bundles, collected once (not read from disk again). */
export const specAssumptions = (): Assumption[] => assumptionsOf(specBundles());

function baseVariableOf(servers: unknown, where: string): LpVariable {
  const url = String((servers as Array<{ url?: string }> | undefined)?.[0]?.url ?? '');
  const variable = SERVER_VARIABLES[/^\{(\w+)\}/.exec(url)?.[1] ?? ''];
  if (!variable) throw new Error(`${where}: server URL "${url}" names none of ${Object.keys(SERVER_VARIABLES).join(', ')}`);
  return variable;
}

/** The node at a JSON pointer ("/components/schemas/Vehicle") of one bundle, or undefined. */
export function nodeAt(api: ApiName, pointer: string): Json | undefined {
  return nodeInDoc(specBundles()[api], pointer) as Json | undefined;
}

/** Resolves a local $ref ("#/components/...") inside one bundle. */
export function resolveRef<T>(api: ApiName, node: T | { $ref: string }): T {
  return resolveInDoc<T>(specBundles()[api], node);
}

/** Every operation of the given bundles (a copy may hold more: the self-test adds a made-up one). */
export function listOperations(docs: Partial<Record<ApiName, Json>>): Operation[] {
  return API_NAMES.flatMap((api) => {
    const doc = docs[api];
    if (!doc) return [];
    const resolve = <T>(node: unknown) => resolveInDoc<T>(doc, node);
    return operationsOf(doc).map(({ path, method, pointer, op: operation, item }) => ({
      api,
      operationId: String(operation.operationId),
      method: method.toUpperCase(),
      path,
      baseVariable: baseVariableOf(item.servers ?? doc.servers, `${api} ${path}`),
      pointer,
      responses: operation.responses as Record<string, ResponseObject>,
      security: (operation.security ?? doc.security ?? []) as SecurityRequirement[],
      parameters: [...((item.parameters as Json[]) ?? []), ...((operation.parameters as Json[]) ?? [])].map((p) => resolve<Json>(p)),
      requestBody: operation.requestBody ? resolve<Operation['requestBody']>(operation.requestBody) : undefined,
      ...(typeof operation['x-seed-section'] === 'string' ? { seedSection: operation['x-seed-section'] } : {}),
      // Literal segments escaped, each {parameter} one segment.
      pathPattern: new RegExp(
        `^${path
          .split(/\{[^}]+\}/)
          .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
          .join('([^/]+)')}$`,
      ),
    }));
  });
}

const operationsOfBundles = memoByBundles(listOperations);
/** Every operation of the kit's bundles. */
export const specOperations = (): Operation[] => operationsOfBundles(specBundles());

export function operationById(operationId: string): Operation {
  const found = specOperations().find((op) => op.operationId === operationId);
  if (!found) throw new Error(`no operation "${operationId}" in the bundles`);
  return found;
}
