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
import { createSpecAjv } from '../../spec-core/ajv.ts';
import { repoRoot } from '../../spec-core/apis.ts';

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
