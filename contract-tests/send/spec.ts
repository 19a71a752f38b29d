// The bundled specs as the suite reads them: every operation with its base URL variable, and ajv validators of
// dist/openapi/*.json (2020-12 dialect; $refs resolve inside each bundle), precompiled once per version of the specs
// (send/validators.ts) or compiled when first asked for.
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { type Ajv2020, createSpecAjv } from '../../spec-core/ajv.ts';
import { API_NAMES, type ApiName } from '../../spec-core/apis.ts';
import { collectAssumptions, type Assumption } from '../../spec-core/assumptions.ts';
import { loadBundles } from '../../spec-core/bundles.ts';
import { operationsOf } from '../../spec-core/operations.ts';
import { escapePointer, nodeAt as nodeInDoc, resolveRef as resolveInDoc } from '../../spec-core/pointer.ts';
import type { LpVariable } from './target.ts';
import { loadValidators, type PrecompiledValidators, writeValidators } from './validators.ts';

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

export const bundles: Record<ApiName, Json> = loadBundles();

let assumptionList: Assumption[] | undefined;
/** The x-assumptions of the bundles loaded above, collected once (not read from disk again). */
export function specAssumptions(): Assumption[] {
  assumptionList ??= API_NAMES.flatMap((api) => collectAssumptions(api, bundles[api]));
  return assumptionList;
}

function baseVariableOf(servers: unknown, where: string): LpVariable {
  const url = String((servers as Array<{ url?: string }> | undefined)?.[0]?.url ?? '');
  const variable = SERVER_VARIABLES[/^\{(\w+)\}/.exec(url)?.[1] ?? ''];
  if (!variable) throw new Error(`${where}: server URL "${url}" names none of ${Object.keys(SERVER_VARIABLES).join(', ')}`);
  return variable;
}

/** The node at a JSON pointer ("/components/schemas/Vehicle") of one bundle, or undefined. */
export function nodeAt(api: ApiName, pointer: string): Json | undefined {
  return nodeInDoc(bundles[api], pointer) as Json | undefined;
}

/** Resolves a local $ref ("#/components/...") inside one bundle. */
export function resolveRef<T>(api: ApiName, node: T | { $ref: string }): T {
  return resolveInDoc<T>(bundles[api], node);
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

export const operations: Operation[] = listOperations(bundles);

export function operationById(operationId: string): Operation {
  const found = operations.find((op) => op.operationId === operationId);
  if (!found) throw new Error(`no operation "${operationId}" in the bundles`);
  return found;
}

const idOf = (api: ApiName) => `urn:lp:${api}`;

/** The schemas an answer is checked against (judge/conformance.ts): each documented header's and content's, as ajv ids. */
export function answerSchemaKeys(within: Operation[] = operations): string[] {
  const keys = new Set<string>();
  for (const operation of within)
    for (const [status, documented] of Object.entries(operation.responses)) {
      const pointer = `${operation.pointer}/responses/${escapePointer(status)}`;
      for (const [name, raw] of Object.entries(documented.headers ?? {})) {
        const ref = (raw as { $ref?: string }).$ref;
        if (resolveRef<HeaderObject>(operation.api, raw)?.schema)
          keys.add(`${idOf(operation.api)}#${ref ? ref.replace(/^#/, '') : `${pointer}/headers/${escapePointer(name)}`}/schema`);
      }
      for (const [type, media] of Object.entries(documented.content ?? {}))
        if (media.schema) keys.add(`${idOf(operation.api)}#${pointer}/content/${escapePointer(type)}/schema`);
    }
  return [...keys];
}

/**
 * Writes the module of the answers' validators for these bundles (send/validators.ts), unless it is there: the global
 * setup's, before any worker starts. A schema it cannot hold is compiled where it is asked for.
 */
export function prepareValidators(): void {
  writeValidators(bundles, idOf, answerSchemaKeys());
}

let precompiled: PrecompiledValidators | undefined;
let ajv: Ajv2020 | undefined;
const validators = new Map<string, ValidateFunction>();

/** An ajv validator for the schema at a JSON pointer of a bundle: the precompiled one, or compiled once when asked. */
export function validatorAt(api: ApiName, pointer: string): ValidateFunction {
  const key = `${idOf(api)}#${pointer}`;
  let validate = validators.get(key);
  if (!validate) {
    precompiled ??= loadValidators(bundles, answerSchemaKeys());
    validate = precompiled.get(key);
    if (!validate) {
      ajv ??= createSpecAjv(bundles, idOf);
      validate = ajv.getSchema(key);
    }
    if (!validate) throw new Error(`no schema at ${api}#${pointer}`);
    validators.set(key, validate);
  }
  return validate;
}
