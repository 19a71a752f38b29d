// The answers' validators, precompiled once per version of the specs (judge/validators.ts), judge every body as the ones
// ajv compiles when asked: the same verdict and the same errors, schema by schema, on the specs' own examples and on
// bodies that break them. A module written for other bundles is never loaded for these.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSpecAjv } from '../../spec-core/ajv.ts';
import { type ApiName, repoRoot } from '../../spec-core/apis.ts';
import { nodeAt, specBundles } from '../model/spec.ts';
import { answerSchemaKeys, loadValidators, writeValidators } from '../judge/validators.ts';

// Under dist/, as the run's: the module requires ajv's runtime and ajv-formats from the repository's node_modules.
const dir = mkdtempSync(join(repoRoot, 'dist', '.contract-validators-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const idOf = (api: ApiName) => `urn:lp:${api}`;
const keys = answerSchemaKeys();

/** The examples the spec gives beside a schema (its media type's `example` and `examples`), and the schema's own. */
function examplesOf(key: string): unknown[] {
  const [api, pointer] = key.replace(/^urn:lp:/, '').split('#') as [ApiName, string];
  const media = nodeAt(api, pointer.replace(/\/schema$/, '')) ?? {};
  const schema = nodeAt(api, pointer) ?? {};
  const named = Object.values((media.examples ?? {}) as Record<string, { value?: unknown }>).map((e) => e.value);
  return [media.example, schema.example, ...named, ...((schema.examples as unknown[] | undefined) ?? [])].filter((e) => e !== undefined);
}

/** Bodies that break a valid one: each field retyped or left out, an item of a list broken, a list for an object. */
function broken(valid: unknown): unknown[] {
  if (Array.isArray(valid)) return [valid.length ? [...valid, ...broken(valid[0])] : [{}], {}];
  if (!valid || typeof valid !== 'object') return [null, 5, 'x', [valid]];
  const entries = Object.entries(valid as Record<string, unknown>);
  return [
    [valid],
    ...entries.map(([name]) => Object.fromEntries(entries.filter(([n]) => n !== name))),
    ...entries.map(([name, value]) => ({ ...valid, [name]: typeof value === 'string' ? 7 : 'seven' })),
  ];
}

const ANY = [{}, [], '', 'x', 0, -1.5, true, null, { error: 'invalid_request', error_description: '\u0001' }, [{ vehicleNumber: 1 }]];

describe('the precompiled validators of the answers', () => {
  writeValidators(specBundles(), idOf, keys, dir);
  const precompiled = loadValidators(specBundles(), keys, dir);
  const ajv = createSpecAjv(specBundles(), idOf);

  it('hold every schema an answer is checked against, and judge each body as the compiled ones do', () => {
    expect(keys.length).toBeGreaterThan(20);
    let bodies = 0;
    for (const key of keys) {
      const mine = precompiled.get(key);
      const theirs = ajv.getSchema(key)!;
      expect(mine, key).toBeTypeOf('function');
      expect(mine, `${key} is not ajv's own compiled function`).not.toBe(theirs);
      const examples = examplesOf(key);
      for (const body of [...ANY, ...examples, ...examples.flatMap(broken)]) {
        const verdict = (validate: typeof theirs) => [validate(body), JSON.stringify(validate.errors ?? null)];
        expect(verdict(mine!), `${key} on ${JSON.stringify(body)}`).toEqual(verdict(theirs));
        bodies++;
      }
    }
    // Examples that pass and bodies that fail both reached every schema.
    expect(bodies).toBeGreaterThan(keys.length * ANY.length);
  });

  it("loads nothing for other bundles, and a module of other bundles takes the old one's place", () => {
    const changed = structuredClone(specBundles());
    (changed.fleet as { info: { version: string } }).info.version = 'changed';
    expect(loadValidators(changed, keys, dir).get(keys[0]!)).toBeUndefined();
    writeValidators(changed, idOf, keys, dir);
    expect(readdirSync(dir).filter((name) => name.endsWith('.cjs'))).toHaveLength(1);
    expect(loadValidators(changed, keys, dir).get(keys[0]!)).toBeTypeOf('function');
    expect(loadValidators(specBundles(), keys, dir).get(keys[0]!)).toBeUndefined();
  });
});
