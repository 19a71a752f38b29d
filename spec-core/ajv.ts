// The one ajv set-up of the kit: JSON Schema 2020-12 (the dialect of OpenAPI 3.1), every error reported, formats
// checked. The suite's response validators and the sandbox's request validators compile from instances made here,
// so the same schema accepts the same value in both. ajv is loaded when the first instance is made, not with this module:
// a process that only loads precompiled validators (the contract suite's workers) never loads it.
import { createRequire } from 'node:module';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type addFormatsModule from 'ajv-formats';

export type { Ajv2020 };

const require = createRequire(import.meta.url);

export interface SpecAjvOptions {
  /**
   * Keep each validator's source, for ajv's standalone code (`ajv/dist/standalone`): a module of validators that needs
   * no ajv to run, only its small runtime helpers and ajv-formats' formats, which it requires by these names.
   */
  standalone?: boolean;
}

/**
 * A fresh ajv instance. `strict: false` because OpenAPI adds keywords JSON Schema does not know (`example`,
 * `x-assumption`); types are never coerced, so a string "5" is not a number 5.
 * With `bundles`, each document is added under `idOf(api)`, so `$ref: "<id>#/components/..."` reaches into it.
 */
export function createSpecAjv<Name extends string>(
  bundles?: Record<Name, object>,
  idOf?: (api: Name) => string,
  options: SpecAjvOptions = {},
): Ajv2020 {
  const { Ajv2020: Ajv, _ } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  // ajv-formats is CommonJS: its default export is the module object.
  const addFormats = require('ajv-formats') as typeof addFormatsModule.default;
  const ajv = new Ajv({
    strict: false,
    allErrors: true,
    validateFormats: true,
    coerceTypes: false,
    ...(options.standalone ? { code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` } } : {}),
  });
  addFormats(ajv);
  // OpenAPI's "password" is a UI hint, not a constraint.
  ajv.addFormat('password', true);
  for (const [api, doc] of Object.entries(bundles ?? {}) as Array<[Name, object]>) ajv.addSchema(doc, idOf ? idOf(api) : api);
  return ajv;
}
