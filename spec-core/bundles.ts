// Loading the bundled specs. The bundles (dist/openapi/<api>.{json,yaml}) are the artifact every runtime reader
// loads: they are built from openapi/ by `npm run bundle`, so a missing one says exactly that.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
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

/** Where buildBundles records the digest of what it bundled (see sourcesDigest): beside dist/openapi/, which ships. */
const DIGEST_FILE = join(bundleDir, '..', '.openapi-sources.sha256');

/** Every file under openapi/, depth first, each directory's entries in the order readdir gives them. */
export function specSourceFiles(dir = join(repoRoot, 'openapi')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return specSourceFiles(path);
    return entry.isFile() ? [path] : [];
  });
}

/**
 * One digest of everything a bundle is made from: every file under openapi/ (path and content) and redocly.yaml. Reading
 * them costs a few milliseconds; bundling costs a Redocly start, so readers rebundle only when this changed.
 */
export function sourcesDigest(): string {
  const hash = createHash('sha256');
  const files = specSourceFiles();
  files.push(join(repoRoot, 'redocly.yaml'));
  for (const file of files.sort())
    hash
      .update(`${relative(repoRoot, file)}\0`)
      .update(readFileSync(file))
      .update('\0');
  return hash.digest('hex');
}

/** Whether every bundle exists and was built from openapi/ as it is now. */
export function bundlesFresh(): boolean {
  if (!bundlesBuilt('json') || !bundlesBuilt('yaml') || !existsSync(DIGEST_FILE)) return false;
  return readFileSync(DIGEST_FILE, 'utf8').trim() === sourcesDigest();
}

/**
 * Bundles each API under openapi/ into dist/openapi/<api>.yaml (redocly.yaml names each API's output file; one CLI
 * call bundles all three) and writes the same document as <api>.json. Returns the files written; prints nothing on
 * stdout, because the mock's stdout is a dotenv block.
 */
export function buildBundles(): string[] {
  rmSync(DIGEST_FILE, { force: true });
  rmSync(bundleDir, { recursive: true, force: true });
  mkdirSync(bundleDir, { recursive: true });
  const digest = sourcesDigest();
  execFileSync(process.execPath, [REDOCLY_CLI, 'bundle', ...API_NAMES], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: redoclyEnv(),
    timeout: 120_000,
  });
  const written = API_NAMES.flatMap((api) => {
    writeFileSync(bundlePath(api, 'json'), `${JSON.stringify(loadBundle(api, 'yaml'), null, 2)}\n`);
    return [bundlePath(api, 'yaml'), bundlePath(api, 'json')];
  });
  // Last, so that bundles cut short by a failure are never taken for fresh.
  writeFileSync(DIGEST_FILE, `${digest}\n`);
  return written;
}

/**
 * Builds the bundles when one is missing (a fresh checkout) or openapi/ changed since they were built, so the mock, the
 * sandbox, the docs and the release never serve a spec older than the one in the tree, without a separate step.
 */
export function ensureBundles(log: (line: string) => void): void {
  if (bundlesFresh()) return;
  log(bundlesBuilt('json') && bundlesBuilt('yaml') ? 'bundles older than openapi/, bundling again' : 'bundles missing, bundling');
  try {
    buildBundles();
  } catch (error) {
    throw new Error(`bundling the specs failed: ${(error as Error).message}`);
  }
}
