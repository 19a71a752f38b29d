// The one ajv set-up of the kit: JSON Schema 2020-12 (the dialect of OpenAPI 3.1), every error reported, formats
// checked. The suite's response validators and the sandbox's request validators compile from instances made here,
// so the same schema accepts the same value in both.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export type { Ajv2020 };

/**
 * A fresh ajv instance. `strict: false` because OpenAPI adds keywords JSON Schema does not know (`example`,
 * `x-assumption`); types are never coerced, so a string "5" is not a number 5.
 * With `bundles`, each document is added under `idOf(api)`, so `$ref: "<id>#/components/..."` reaches into it.
 */
export function createSpecAjv<Name extends string>(bundles?: Record<Name, object>, idOf?: (api: Name) => string): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true, coerceTypes: false });
  addFormats(ajv);
  // OpenAPI's "password" is a UI hint, not a constraint.
  ajv.addFormat('password', true);
  for (const [api, doc] of Object.entries(bundles ?? {}) as Array<[Name, object]>) ajv.addSchema(doc, idOf ? idOf(api) : api);
  return ajv;
}
