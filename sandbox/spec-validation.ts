// Request validation driven by the bundled specs (dist/openapi/*.json): one compiled
// validator per operation for its query parameters and its request body.
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { createSpecAjv, type Ajv2020 } from '../spec-core/ajv.ts';
import { API_NAMES, type ApiName } from '../spec-core/apis.ts';
import { loadBundles } from '../spec-core/bundles.ts';
import { operationsOf } from '../spec-core/operations.ts';
import { escapePointer } from '../spec-core/pointer.ts';

type Parameter = { name: string; in: string; required?: boolean; schema: Record<string, unknown> };
type Operation = {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
};

/** The outcome of a validation: either the normalised value or one readable problem per violation. */
export type ValidationResult<T> = { ok: true; value: T } | { ok: false; problems: string[] };

export type OperationValidator = {
  operationId: string;
  /** Names of the declared query parameters (unknown ones are refused by the caller). */
  queryNames: ReadonlySet<string>;
  validateQuery(query: Record<string, unknown>): ValidationResult<Record<string, unknown>>;
  validatePath(params: Record<string, unknown>): ValidationResult<Record<string, unknown>>;
  validateBody(body: unknown): ValidationResult<Record<string, unknown>>;
};

function describe(errors: ErrorObject[] | null | undefined, where: string): string[] {
  return (errors ?? [])
    .filter((error) => error.keyword !== 'if' && error.keyword !== 'oneOf')
    .map((error) => {
      const path = error.instancePath ? `${where} ${error.instancePath.slice(1).replace(/\//g, '.')}` : where;
      if (error.keyword === 'additionalProperties') {
        return `${where}: unknown ${String(error.params.additionalProperty)}`;
      }
      if (error.keyword === 'const') return `${path} must be ${JSON.stringify(error.params.allowedValue)}`;
      if (error.keyword === 'enum') return `${path} must be one of ${JSON.stringify(error.params.allowedValues)}`;
      return `${path} ${error.message ?? 'is invalid'}`;
    });
}

export type SpecValidators = {
  operation(operationId: string): OperationValidator;
  /** A validator for one named schema of a bundle, e.g. ('token', 'AuthorizationCodeGrantRequest'). */
  component(spec: ApiName, schemaName: string): (value: unknown) => ValidationResult<Record<string, unknown>>;
};

/** Loads all bundles once and compiles the validators of every operation. */
export function loadSpecValidators(): SpecValidators {
  const bundles = loadBundles();
  const ajv = createSpecAjv(bundles, (spec) => `${spec}.json`);
  const validators = new Map<string, OperationValidator>();
  for (const spec of API_NAMES) {
    for (const { pointer, op } of operationsOf(bundles[spec])) {
      const operation = op as Operation;
      if (operation.operationId) validators.set(operation.operationId, compileOperation(ajv, `${spec}.json#${pointer}`, operation));
    }
  }
  const components = new Map<string, (value: unknown) => ValidationResult<Record<string, unknown>>>();
  return {
    operation(operationId) {
      const validator = validators.get(operationId);
      if (!validator) throw new Error(`no operation ${operationId} in the bundles`);
      return validator;
    },
    component(spec, schemaName) {
      const key = `${spec}/${schemaName}`;
      let check = components.get(key);
      if (!check) {
        const validate = ajv.compile({ $ref: `${spec}.json#/components/schemas/${schemaName}` });
        check = (value) =>
          validate(value)
            ? { ok: true, value: value as Record<string, unknown> }
            : { ok: false, problems: describe(validate.errors, 'body') };
        components.set(key, check);
      }
      return check;
    },
  };
}

function compileOperation(ajv: Ajv2020, pointer: string, operation: Operation): OperationValidator {
  const parameters = operation.parameters ?? [];
  const query = parameters.filter((parameter) => parameter.in === 'query');
  const queryIndex = new Map(query.map((parameter) => [parameter.name, parameters.indexOf(parameter)]));
  const querySchema = {
    type: 'object',
    properties: Object.fromEntries(
      query.map((parameter) => [parameter.name, { $ref: `${pointer}/parameters/${queryIndex.get(parameter.name)}/schema` }]),
    ),
    required: query.filter((parameter) => parameter.required).map((parameter) => parameter.name),
  };
  const arrayParameters = new Set(query.filter((parameter) => parameter.schema.type === 'array').map((p) => p.name));
  const validateQuery = ajv.compile(querySchema);
  const validatePathSchema = ajv.compile({
    type: 'object',
    properties: Object.fromEntries(
      parameters.flatMap((parameter, index) =>
        parameter.in === 'path' ? [[parameter.name, { $ref: `${pointer}/parameters/${index}/schema` }]] : [],
      ),
    ),
  });

  const mediaType = Object.keys(operation.requestBody?.content ?? {})[0];
  const validateBodySchema: ValidateFunction | undefined = mediaType
    ? ajv.compile({ $ref: `${pointer}/requestBody/content/${escapePointer(mediaType)}/schema` })
    : undefined;

  return {
    operationId: operation.operationId,
    queryNames: new Set(query.map((parameter) => parameter.name)),
    validateQuery(raw) {
      // Query strings carry no types: repeated parameters arrive as arrays, single ones as strings.
      const value: Record<string, unknown> = {};
      for (const name in raw) {
        const given = raw[name];
        value[name] = arrayParameters.has(name) && !Array.isArray(given) ? [given] : given;
      }
      return validateQuery(value) ? { ok: true, value } : { ok: false, problems: describe(validateQuery.errors, 'query parameter') };
    },
    validatePath(params) {
      return validatePathSchema(params)
        ? { ok: true, value: params }
        : { ok: false, problems: describe(validatePathSchema.errors, 'path parameter') };
    },
    validateBody(body) {
      if (!validateBodySchema) return { ok: true, value: {} };
      return validateBodySchema(body)
        ? { ok: true, value: body as Record<string, unknown> }
        : { ok: false, problems: describe(validateBodySchema.errors, 'body') };
    },
  };
}
