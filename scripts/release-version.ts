// `npm run release:version`: after `changeset version` has bumped package.json and written CHANGELOG.md, writes the
// new version as info.version of every spec (the specs and the package are released under one number).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../spec-core/apis.ts';
import { parseCommandLine } from '../config/cli.ts';
import { writeSpecVersions } from '../tools/release/versioning.ts';

parseCommandLine({
  command: 'npm run release:version --',
  summary: "Runs after `changeset version`: writes the package version into the specs' info.version.",
  options: {},
});
const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
const changed = writeSpecVersions(repoRoot, version);
console.log(
  `release:version: ${version}; ${changed.length ? `info.version written in ${changed.join(', ')}` : 'the specs already carry it'}`,
);
