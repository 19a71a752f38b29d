// The bundled specs as the suite reads them: every operation with its base URL variable, and ajv validators
// compiled from dist/openapi/*.json (2020-12 dialect; $refs resolve inside each bundle).
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { API_NAMES, bundlePath, type ApiName } from '../../spec-core/apis.ts';
import type { LpVariable } from './target.ts';

// ajv-formats is CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

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
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  pathPattern: RegExp;
}

const SERVER_VARIABLES: Record<string, LpVariable> = {
  base_url: 'LP_BASE_URL',
  auth_url: 'LP_AUTH_URL',
  fleet_base_url: 'LP_FLEET_BASE_URL',
};

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

export const bundles: Record<ApiName, Json> = Object.fromEntries(
  API_NAMES.map((api) => {
    try {
      return [api, JSON.parse(readFileSync(bundlePath(api, 'json'), 'utf8')) as Json];
    } catch (error) {
      throw new Error(`cannot read the bundle ${bundlePath(api, 'json')} (run "npm run bundle"): ${(error as Error).message}`);
    }
  }),
) as Record<ApiName, Json>;

function baseVariableOf(servers: unknown, where: string): LpVariable {
  const url = String((servers as Array<{ url?: string }> | undefined)?.[0]?.url ?? '');
  const variable = SERVER_VARIABLES[/^\{(\w+)\}/.exec(url)?.[1] ?? ''];
  if (!variable) throw new Error(`${where}: server URL "${url}" names none of ${Object.keys(SERVER_VARIABLES).join(', ')}`);
  return variable;
}

/** The node at a JSON pointer ("/components/schemas/Vehicle") of one bundle, or undefined. */
export function nodeAt(api: ApiName, pointer: string): Json | undefined {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((at, key) => (at as Json | undefined)?.[key], bundles[api]) as Json | undefined;
}

/** Resolves a local $ref ("#/components/...") inside one bundle. */
export function resolveRef<T>(api: ApiName, node: T | { $ref: string }): T {
  let current: unknown = node;
  for (let depth = 0; depth < 10 && current && typeof current === 'object' && '$ref' in current; depth++) {
    current = nodeAt(api, String((current as { $ref: string }).$ref).replace(/^#/, ''));
  }
  return current as T;
}

function listOperations(): Operation[] {
  const found: Operation[] = [];
  for (const api of API_NAMES) {
    const doc = bundles[api];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
      const baseVariable = baseVariableOf(item.servers ?? doc.servers, `${api} ${path}`);
      for (const method of HTTP_METHODS) {
        const operation = item[method] as Json | undefined;
        if (!operation) continue;
        found.push({
          api,
          operationId: String(operation.operationId),
          method: method.toUpperCase(),
          path,
          baseVariable,
          pointer: `/paths/${escapePointer(path)}/${method}`,
          responses: operation.responses as Record<string, ResponseObject>,
          security: (operation.security ?? doc.security ?? []) as SecurityRequirement[],
          parameters: [...((item.parameters as Json[]) ?? []), ...((operation.parameters as Json[]) ?? [])].map((p) =>
            resolveRef(api, p),
          ),
          requestBody: operation.requestBody ? resolveRef(api, operation.requestBody as Json) as Operation['requestBody'] : undefined,
          // Literal segments escaped, each {parameter} one segment.
          pathPattern: new RegExp(`^${path.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join('([^/]+)')}$`),
        });
      }
    }
  }
  return found;
}

export const operations: Operation[] = listOperations();

export function operationById(operationId: string): Operation {
  const found = operations.find((op) => op.operationId === operationId);
  if (!found) throw new Error(`no operation "${operationId}" in the bundles`);
  return found;
}

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
// OpenAPI's "password" is a UI hint, not a constraint.
ajv.addFormat('password', true);
for (const api of API_NAMES) ajv.addSchema(bundles[api], `urn:lp:${api}`);

const validators = new Map<string, ValidateFunction>();

/** An ajv validator for the schema at a JSON pointer of a bundle (compiled once). */
export function validatorAt(api: ApiName, pointer: string): ValidateFunction {
  const key = `urn:lp:${api}#${pointer}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.getSchema(key);
    if (!validate) throw new Error(`no schema at ${api}#${pointer}`);
    validators.set(key, validate);
  }
  return validate;
}

export function formatAjvErrors(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || '(body)'} ${e.message ?? 'is invalid'}`)
    .join('; ');
}

export { escapePointer };
