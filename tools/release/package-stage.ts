// The package as it ships. npm always packs the README.md of the folder it publishes, and the repo's README.md is for
// contributors, so the release publishes a staged folder, dist/package/: the build outputs, the consumer README from
// package/README.md, LICENSE and CHANGELOG.md, and a package.json derived from the root one. `npm run release:stage`
// builds it; the release workflow and the registry round trip of pack:check both publish it with
// `npm run release:publish`, so what the round trip installs is what a release ships.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { API_NAMES } from '../../spec-core/apis.ts';
import { ensureBundles } from '../../spec-core/bundles.ts';

export const STAGE_DIR = join('dist', 'package');
/** The consumer README, shipped as the package's README.md. */
export const PACKAGE_README = join('package', 'README.md');

export type Manifest = Record<string, unknown> & { name: string; version: string; files?: string[] };

/** Fields that serve the repo only: the published manifest drops them (a consumer's npm would read `overrides` etc.). */
const REPO_ONLY_FIELDS = ['private', 'scripts', 'devDependencies', 'overrides', 'allowScripts'] as const;

/** The published package.json: the root one without the repo-only fields (the root is private so it cannot be published by mistake). */
export function deriveManifest(root: Manifest): Manifest {
  const manifest: Manifest = { ...root };
  for (const field of REPO_ONLY_FIELDS) delete manifest[field];
  if (!Array.isArray(root.files) || root.files.length === 0) throw new Error('package.json: "files" must list what the package ships');
  for (const field of ['license', 'repository', 'publishConfig', 'engines'] as const) {
    if (manifest[field] === undefined) throw new Error(`package.json: "${field}" is required for a release`);
  }
  return manifest;
}

function runNpm(repoRoot: string, script: string): void {
  const result = spawnSync('npm', ['run', '--silent', script], {
    cwd: repoRoot,
    stdio: ['ignore', 'inherit', 'inherit'],
    timeout: 300_000,
  });
  if (result.status !== 0) throw new Error(`release:stage: npm run ${script} failed (exit ${result.status ?? result.signal})`);
}

/**
 * Builds (the specs' bundles unless they are fresh, and the client) and writes dist/package/. Every entry of the root's `files` is copied from
 * the repo, except README.md, which comes from package/README.md. Returns the folder and its manifest.
 */
export function stagePackage(repoRoot: string, options: { build?: boolean } = {}): { dir: string; manifest: Manifest } {
  if (options.build !== false) {
    // The bundles are rebuilt only when openapi/ changed since they were built (a release never ships stale specs).
    ensureBundles((line) => console.log(`release:stage: ${line}`));
    runNpm(repoRoot, 'build');
  }
  const manifest = deriveManifest(JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Manifest);
  const dir = join(repoRoot, STAGE_DIR);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const entry of manifest.files!) {
    const source = join(repoRoot, entry === 'README.md' ? PACKAGE_README : entry);
    if (!existsSync(source))
      throw new Error(`release:stage: "${entry}" is listed in package.json "files" but ${source} does not exist (run npm run build?)`);
    mkdirSync(dirname(join(dir, entry)), { recursive: true });
    cpSync(source, join(dir, entry), { recursive: true });
  }
  const unlinked = specVersionMismatches(dir, manifest.version);
  if (unlinked.length > 0)
    throw new Error(
      `release:stage: ${unlinked.join('; ')}. The specs' info.version is the package version (npm run release:version writes it).`,
    );
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return { dir, manifest };
}

/** The bundles whose info.version is not `version`: the specs and the package are released together, under one number. */
export function specVersionMismatches(dir: string, version: string): string[] {
  return API_NAMES.flatMap((api) => {
    const spec = JSON.parse(readFileSync(join(dir, 'dist', 'openapi', `${api}.json`), 'utf8')) as { info?: { version?: string } };
    return spec.info?.version === version ? [] : [`the ${api} spec's info.version is ${spec.info?.version}, the package's ${version}`];
  });
}
