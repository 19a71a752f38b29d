// Loading the bundled specs. The bundles (dist/openapi/<api>.{json,yaml}) are the artifact every runtime reader
// loads: they are built from openapi/ by `npm run bundle`, so a missing one says exactly that.
import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { API_NAMES, bundlePath, type ApiName } from './apis.ts';

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
