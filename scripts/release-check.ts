// `npm run release:check -- <base-ref>`: fails a change that breaks the specs (spec:diff) without a major version, and
// specs whose info.version is not the package version (tools/release/versioning.ts has the policy).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCommandLine, usageError } from '../config/cli.ts';
import { pendingBumps, releaseVerdict, specVersionProblems } from '../tools/release/versioning.ts';
import { compareWithRef, formatChanges, gitTopLevel } from '../tools/spec-diff.ts';

const spec = {
  command: 'npm run release:check --',
  summary:
    "Fails when the specs break compatibility with <base-ref> (spec:diff) and no major version is declared, or when a spec's info.version is not the package version.",
  options: {},
  positionals: '<base-ref>',
};
const { positionals } = parseCommandLine(spec);
if (positionals.length !== 1) usageError(spec, 'give exactly one base ref, e.g. origin/main');
const ref = positionals[0]!;
const root = gitTopLevel(process.cwd());
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string };
try {
  const base = JSON.parse(
    execFileSync('git', ['show', `${ref}:package.json`], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
  ) as { version: string };
  const results = await compareWithRef(root, ref);
  // The listing spec:diff would print, so CI compares the trees once for both.
  for (const { api, changes } of results) console.log(formatChanges(api, changes));
  const breaking = results.flatMap((r) => r.changes).filter((c) => c.severity === 'breaking');
  const verdict = releaseVerdict({
    breaking,
    baseVersion: base.version,
    version: manifest.version,
    bumps: pendingBumps(join(root, '.changeset'), manifest.name),
  });
  const unlinked = specVersionProblems(root, manifest.version);
  console.log(`release:check ${ref}..work tree: ${verdict.message}`);
  for (const problem of unlinked) console.error(`release:check: ${problem} (npm run release:version writes it)`);
  if (!verdict.ok) console.error('release:check: FAILED');
  process.exitCode = verdict.ok && unlinked.length === 0 ? 0 : 1;
} catch (error) {
  console.error(`release:check: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  process.exitCode = 2;
}
