// The response validators, compiled once per version of the specs: ajv's standalone code of every schema an answer is
// checked against (judge/conformance.ts), written under dist/ and loaded with Node's require by every process of a run.
// Compiling them took each of a live run's workers a tenth of its CPU (ajv itself, its meta-schema, then a validator at
// a time); the run's global setup writes the module when the bundles changed, and each worker only loads it. A schema
// the module does not hold is compiled as it is asked for, as before.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type standaloneModule from 'ajv/dist/standalone/index.js';
import { type Ajv2020, createSpecAjv } from '../../spec-core/ajv.ts';
import { type ApiName, repoRoot } from '../../spec-core/apis.ts';
import { escapePointer } from '../../spec-core/pointer.ts';
import { type HeaderObject, type Operation, resolveRef, specBundles, specOperations } from '../model/spec.ts';

const require = createRequire(import.meta.url);

/** Where the modules go: one per digest of the bundles and the ajv that compiled them. */
export const VALIDATORS_DIR = join(repoRoot, 'dist/.contract-validators');
/** Changes whenever the module's shape or the ajv options change, so that an older module is never loaded. */
const FORMAT = 'standalone-1';

/** A schema of a bundle: its ajv id ("urn:lp:fleet#/paths/..."). */
export type SchemaKey = string;

export interface PrecompiledValidators {
  /** The validator of a schema, or undefined when the module does not hold it (or there is no module). */
  get(key: SchemaKey): ValidateFunction | undefined;
}

function digestOf(bundles: object, keys: readonly SchemaKey[]): string {
  const versions = ['ajv', 'ajv-formats'].map((name) => (require(`${name}/package.json`) as { version: string }).version);
  return createHash('sha256')
    .update(JSON.stringify([FORMAT, versions, keys, bundles]))
    .digest('hex')
    .slice(0, 16);
}

const fileOf = (dir: string, digest: string) => join(dir, `${digest}.cjs`);

/** The module of these bundles' validators, if one was written (undefined otherwise: compile as asked). */
export function loadValidators(bundles: object, keys: readonly SchemaKey[], dir = VALIDATORS_DIR): PrecompiledValidators {
  const file = fileOf(dir, digestOf(bundles, keys));
  let module: Record<SchemaKey, ValidateFunction> | undefined;
  try {
    module = existsSync(file) ? (require(file) as Record<SchemaKey, ValidateFunction>) : undefined;
  } catch {
    // Removed meanwhile by a run of other bundles: compile as asked.
  }
  return { get: (key) => (module && Object.hasOwn(module, key) ? module[key] : undefined) };
}

/**
 * Writes the module of these bundles' validators unless it is there already; removes the modules of older bundles.
 * Written to a file of its own and renamed, so that a process loading it never reads half of it.
 */
export function writeValidators<Name extends string>(
  bundles: Record<Name, object>,
  idOf: (api: Name) => string,
  keys: readonly SchemaKey[],
  dir = VALIDATORS_DIR,
): void {
  const digest = digestOf(bundles, keys);
  const file = fileOf(dir, digest);
  if (existsSync(file)) return;
  const ajv = createSpecAjv(bundles, idOf, { standalone: true });
  const standaloneCode = require('ajv/dist/standalone/index.js') as typeof standaloneModule.default;
  const code = standaloneCode(ajv, Object.fromEntries(keys.map((key) => [key, key])));
  mkdirSync(dir, { recursive: true });
  const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(partial, code);
  renameSync(partial, file);
  for (const name of readdirSync(dir)) if (name.endsWith('.cjs') && name !== `${digest}.cjs`) rmSync(join(dir, name), { force: true });
}

const idOf = (api: ApiName) => `urn:lp:${api}`;

/** The schemas an answer is checked against (judge/conformance.ts): each documented header's and content's, as ajv ids. */
export function answerSchemaKeys(within: Operation[] = specOperations()): string[] {
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
 * Writes the module of the answers' validators for these bundles (above), unless it is there: the global
 * setup's, before any worker starts. A schema it cannot hold is compiled where it is asked for.
 */
export function prepareValidators(): void {
  writeValidators(specBundles(), idOf, answerSchemaKeys());
}

let precompiled: PrecompiledValidators | undefined;
let ajv: Ajv2020 | undefined;
const validators = new Map<string, ValidateFunction>();

/** An ajv validator for the schema at a JSON pointer of a bundle: the precompiled one, or compiled once when asked. */
export function validatorAt(api: ApiName, pointer: string): ValidateFunction {
  const key = `${idOf(api)}#${pointer}`;
  let validate = validators.get(key);
  if (!validate) {
    precompiled ??= loadValidators(specBundles(), answerSchemaKeys());
    validate = precompiled.get(key);
    if (!validate) {
      ajv ??= createSpecAjv(specBundles(), idOf);
      validate = ajv.getSchema(key);
    }
    if (!validate) throw new Error(`no schema at ${api}#${pointer}`);
    validators.set(key, validate);
  }
  return validate;
}
