// The versioning policy as code: the package and the specs (and the Arazzo workflows beside them) share one version
// number, and a spec change that spec:diff classifies as breaking needs a major release, declared by a major changeset
// (.changeset/*.md) or already made in package.json. `npm run release:check -- <base-ref>` applies it in CI; `npm run
// release:version` writes the package version into the specs and workflows after `changeset version`.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { API_NAMES } from '../../spec-core/apis.ts';
import { WORKFLOW_FILES } from '../../spec-core/workflows.ts';
import type { Change } from '../spec-diff.ts';

export type Bump = 'major' | 'minor' | 'patch';
/** The files whose info.version is the package version: the specs, and the Arazzo workflows that ship beside them. */
export const SPEC_FILES = [
  ...API_NAMES.map((api) => join('openapi', api, 'openapi.yaml')),
  ...WORKFLOW_FILES.map((name) => join('openapi', 'workflows', name)),
];

/** The bumps the pending changesets ask for `packageName` (each file's front matter maps package names to a bump). */
export function pendingBumps(changesetDir: string, packageName: string): Array<{ file: string; bump: Bump }> {
  let names: string[];
  try {
    names = readdirSync(changesetDir).filter((name) => name.endsWith('.md') && name !== 'README.md');
  } catch {
    return [];
  }
  return names.flatMap((file) => {
    const text = readFileSync(join(changesetDir, file), 'utf8');
    const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
    const bumps = (front ? (parse(front[1]!) ?? {}) : {}) as Record<string, unknown>;
    const bump = bumps[packageName];
    if (bump === undefined) return [];
    if (bump !== 'major' && bump !== 'minor' && bump !== 'patch')
      throw new Error(`${file}: "${packageName}" must be major, minor or patch, got ${JSON.stringify(bump)}`);
    return [{ file, bump }];
  });
}

const majorOf = (version: string): number => {
  const match = /^(\d+)\.\d+\.\d+/.exec(version);
  if (!match) throw new Error(`not a semantic version: "${version}"`);
  return Number(match[1]);
};

export interface ReleaseCheckInput {
  breaking: Change[];
  baseVersion: string;
  version: string;
  bumps: Array<{ file: string; bump: Bump }>;
}

/** Whether the changes may merge as versioned; the message says why, or what to add. */
export function releaseVerdict({ breaking, baseVersion, version, bumps }: ReleaseCheckInput): { ok: boolean; message: string } {
  if (breaking.length === 0) return { ok: true, message: 'no breaking spec change: any bump will do' };
  const major = bumps.find((b) => b.bump === 'major');
  if (major) return { ok: true, message: `${breaking.length} breaking spec change(s), released as a major version by ${major.file}` };
  if (majorOf(version) > majorOf(baseVersion))
    return { ok: true, message: `${breaking.length} breaking spec change(s), and package.json already goes ${baseVersion} -> ${version}` };
  const declared =
    bumps.length > 0 ? `the changesets ask only for ${[...new Set(bumps.map((b) => b.bump))].join(', ')}` : 'there is no changeset';
  return {
    ok: false,
    message:
      `${breaking.length} breaking spec change(s) (${breaking
        .map((c) => `${c.where}: ${c.what}`)
        .slice(0, 5)
        .join('; ')}) ` +
      `need a major version, but ${declared}. Add one with \`npx changeset\` and choose "major" (or make the change compatible).`,
  };
}

/** The specs' info.version values that differ from the package version. */
export function specVersionProblems(root: string, version: string): string[] {
  return SPEC_FILES.flatMap((file) => {
    const info = (parse(readFileSync(join(root, file), 'utf8')) as { info?: { version?: unknown } }).info;
    return info?.version === version
      ? []
      : [`${file}: info.version is ${JSON.stringify(info?.version)}, the package version is ${version}`];
  });
}

/** Writes `version` as info.version of each spec, changing only that line. Returns the files it changed. */
export function writeSpecVersions(root: string, version: string): string[] {
  return SPEC_FILES.filter((file) => {
    const path = join(root, file);
    const text = readFileSync(path, 'utf8');
    const updated = text.replace(/^(info:\r?\n(?:(?: {2,}.*)?\r?\n)*? {2}version: ).*$/m, `$1${version}`);
    if (updated === text && !text.includes(`  version: ${version}`)) throw new Error(`${file}: no info.version line found`);
    if (updated !== text) writeFileSync(path, updated);
    return updated !== text;
  });
}
