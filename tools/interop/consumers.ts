// The bundles as partners' own tools read them: four independent consumers, each asked what it makes of every API.
// Each function returns what the tool reported (errors and warnings as text), so a test can show a partner's view of
// the specs. Known bugs of tools we do not run here are in tools/interop/README.md with their upstream references.
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { API_NAMES, bundlePath, type ApiName } from '../../spec-core/apis.ts';
import type { Bundle } from '../../spec-core/bundles.ts';
import { testWaitMs } from '../../config/test-waits.ts';

const require = createRequire(import.meta.url);

/** What one tool said about one API: no problems is a pass. */
export type ConsumerReport = { tool: string; api: ApiName | 'all'; problems: string[] };

/** @readme/openapi-parser (ReadMe's fork of swagger-parser): schema validation, then full dereferencing. */
export async function readmeParser(api: ApiName, bundle: Bundle): Promise<ConsumerReport> {
  const { dereference, validate } = await import('@readme/openapi-parser');
  const problems: string[] = [];
  // Both calls mutate their input, so each gets its own copy.
  const result = await validate(structuredClone(bundle) as never);
  if (!result.valid) problems.push(...result.errors.map((e) => `validate: ${e.message}`));
  problems.push(...result.warnings.map((w) => `validate warning: ${w.message}`));
  try {
    const resolved = await dereference(structuredClone(bundle) as never);
    if (JSON.stringify(resolved).includes('"$ref"')) problems.push('dereference: a $ref is left in the result');
  } catch (error) {
    problems.push(`dereference: ${(error as Error).message}`);
  }
  return { tool: '@readme/openapi-parser', api, problems };
}

/** The converter's callback API, promised. Its package has no types. */
type PostmanConversion = { result: boolean; reason?: string; output?: { type: string; data: PostmanCollectionJson }[] };
export type PostmanCollectionJson = Record<string, any>;
/**
 * Loaded on first use, as the other consumers are: the docs and the Postman scripts import this module, and their --help
 * needs none of them.
 */
const converter = () =>
  require('openapi-to-postmanv2') as {
    convertV2(
      input: { type: 'json'; data: string },
      options: object,
      callback: (error: Error | null, result: PostmanConversion) => void,
    ): void;
  };

/** The options the kit converts with: folders by tag, example values, no optional parameter switched on. */
export const POSTMAN_OPTIONS = {
  folderStrategy: 'Tags',
  parametersResolution: 'Example',
  enableOptionalParameters: false,
  includeAuthInfoInExample: false,
  requestNameSource: 'Fallback',
} as const;

/** openapi-to-postmanv2 (Postman's own importer): one collection per bundle. */
export async function postmanConversion(api: ApiName, bundle: Bundle): Promise<ConsumerReport & { collection?: PostmanCollectionJson }> {
  const result = await promisify(converter().convertV2)({ type: 'json', data: JSON.stringify(bundle) }, POSTMAN_OPTIONS);
  const collection = result.output?.find((o) => o.type === 'collection')?.data;
  const problems = result.result ? [] : [`convert: ${result.reason ?? 'failed without a reason'}`];
  if (result.result && !collection) problems.push('convert: no collection in the output');
  return { tool: 'openapi-to-postmanv2', api, problems, ...(collection ? { collection } : {}) };
}

const execFileAsync = promisify(execFile);
const TSC = require.resolve('typescript/bin/tsc');

/**
 * @hey-api/openapi-ts (a generated fetch SDK, as a partner would make one): a client per API into `outDir`, then one
 * `tsc --strict` over all of them (one compiler start instead of three).
 */
export async function heyApiClients(outDir: string): Promise<ConsumerReport> {
  const { createClient } = await import('@hey-api/openapi-ts');
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const problems: string[] = [];
  for (const api of API_NAMES) {
    try {
      await createClient({
        input: bundlePath(api, 'json'),
        output: join(outDir, api),
        plugins: ['@hey-api/client-fetch'],
        logs: { level: 'silent' },
      });
    } catch (error) {
      problems.push(`${api}: generate: ${(error as Error).message}`);
    }
  }
  if (problems.length > 0) return { tool: '@hey-api/openapi-ts', api: 'all', problems };
  writeFileSync(
    join(outDir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noUncheckedIndexedAccess: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2022', 'DOM', 'DOM.Iterable'],
      },
      include: API_NAMES.map((api) => `${api}/**/*.ts`),
    }),
  );
  try {
    await execFileAsync(process.execPath, [TSC, '-p', join(outDir, 'tsconfig.json'), '--pretty', 'false'], {
      timeout: testWaitMs(60_000),
      maxBuffer: 4 << 20,
    });
  } catch (error) {
    const { stdout, message } = error as { stdout?: string; message: string };
    problems.push(...(stdout?.trim() ? stdout.trim().split('\n') : [`tsc: ${message}`]));
  }
  return { tool: '@hey-api/openapi-ts', api: 'all', problems };
}

/**
 * Spectral with its `spectral:oas` ruleset (the recommended rules, as `spectral lint` runs them by default): the linter
 * many partners' API gateways and CI run over a spec. It reads the YAML bundle as text, as the CLI would.
 */
export async function spectralOas(api: ApiName, yamlText: string): Promise<ConsumerReport> {
  // Loaded here, not with this module: Spectral costs 0.7 CPU-s to load, and the docs and the Postman scripts import this
  // module for postmanConversion alone.
  const [{ default: spectralCore }, { default: spectralParsers }, { oas }] = await Promise.all([
    import('@stoplight/spectral-core'),
    import('@stoplight/spectral-parsers'),
    import('@stoplight/spectral-rulesets'),
  ]);
  const spectral = new spectralCore.Spectral();
  spectral.setRuleset({ extends: [[oas as never, 'recommended']] });
  const results = await spectral.run(new spectralCore.Document(yamlText, spectralParsers.Yaml, `${api}.yaml`));
  const problems = results.map((r) => `${r.code} at ${r.path.join('.') || '/'}: ${r.message}`);
  return { tool: 'spectral:oas', api, problems };
}
