// Loading the bundled specs. The bundles (dist/openapi/<api>.{json,yaml}) are the artifact every runtime reader
// loads: they are built from openapi/ by `npm run bundle`, so a missing one says exactly that.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';
import { API_NAMES, bundleDir, bundlePath, repoRoot, type ApiName } from './apis.ts';
import { REDOCLY_CLI, redoclyEnv } from './redocly.ts';

/** A bundled OpenAPI document, as parsed JSON: the readers inspect it by key. */
export type Bundle = Record<string, any>;

export const bundlesBuilt = (ext: 'json' | 'yaml' = 'json'): boolean => API_NAMES.every((api) => existsSync(bundlePath(api, ext)));

/** One bundle, parsed; throws naming the file and the command that builds it when it is missing or unreadable. */
export function loadBundle(api: ApiName, ext: 'json' | 'yaml' = 'json'): Bundle {
  const path = bundlePath(api, ext);
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`npm run bundle\` first.`);
  try {
    const text = readFileSync(path, 'utf8');
    return (ext === 'json' ? JSON.parse(text) : parse(text)) as Bundle;
  } catch (error) {
    throw new Error(`cannot read the bundle ${path} (run \`npm run bundle\`): ${(error as Error).message}`);
  }
}

/** Every API's bundle, by name. */
export const loadBundles = (ext: 'json' | 'yaml' = 'json'): Record<ApiName, Bundle> =>
  Object.fromEntries(API_NAMES.map((api) => [api, loadBundle(api, ext)])) as Record<ApiName, Bundle>;

/**
 * Bundles each API under openapi/ into dist/openapi/<api>.yaml (redocly.yaml names each API's output file; one CLI
 * call bundles all three) and writes the same document as <api>.json. Returns the files written; prints nothing on
 * stdout, because the mock's stdout is a dotenv block.
 */
export function buildBundles(): string[] {
  rmSync(bundleDir, { recursive: true, force: true });
  mkdirSync(bundleDir, { recursive: true });
  execFileSync(process.execPath, [REDOCLY_CLI, 'bundle', ...API_NAMES], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: redoclyEnv(),
    timeout: 120_000,
  });
  return API_NAMES.flatMap((api) => {
    writeFileSync(bundlePath(api, 'json'), `${JSON.stringify(loadBundle(api, 'yaml'), null, 2)}\n`);
    return [bundlePath(api, 'yaml'), bundlePath(api, 'json')];
  });
}

/** Builds the bundles when one is missing (a fresh checkout), so the mock and the sandbox start without a separate step. */
export function ensureBundles(log: (line: string) => void): void {
  if (bundlesBuilt('json') && bundlesBuilt('yaml')) return;
  log('bundles missing, running npm run bundle');
  try {
    buildBundles();
  } catch (error) {
    throw new Error(`bundling the specs failed: ${(error as Error).message}`);
  }
}
