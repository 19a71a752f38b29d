// `npm run bundle`: bundles each API under openapi/ into one file, dist/openapi/<api>.{yaml,json}: the artifact every
// runtime reader loads (see spec-core/bundles.ts), with the published copy of each Arazzo workflow beside them.
import { API_NAMES } from '../spec-core/apis.ts';
import { buildBundles } from '../spec-core/bundles.ts';
import { WORKFLOW_FILES } from '../spec-core/workflows.ts';
import { parseCommandLine } from '../config/cli.ts';

parseCommandLine({
  command: 'npm run bundle --',
  summary:
    'Bundles each API under openapi/ into one file, dist/openapi/<api>.yaml and .json, the artifact every runtime reader loads, and publishes the Arazzo workflows of openapi/workflows/ beside them.',
  options: {},
});

buildBundles();
for (const api of API_NAMES) console.log(`bundled ${api}: dist/openapi/${api}.yaml, dist/openapi/${api}.json`);
for (const name of WORKFLOW_FILES) console.log(`published workflow: dist/openapi/${name}`);
