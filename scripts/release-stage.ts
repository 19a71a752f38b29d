// `npm run release:stage`: builds the package and writes it to dist/package/, the folder a release publishes
// (tools/release/package-stage.ts says why a staged folder).
import { parseCommandLine } from '../config/cli.ts';
import { stagePackage } from '../tools/release/package-stage.ts';
import { repoRoot } from '../spec-core/apis.ts';

parseCommandLine({
  command: 'npm run release:stage --',
  summary:
    'Bundles the specs, builds the client and writes the package as it ships to dist/package/ (published by npm run release:publish).',
  options: {},
});
const { dir, manifest } = stagePackage(repoRoot);
console.log(`release:stage: ${manifest.name}@${manifest.version} staged in ${dir}`);
