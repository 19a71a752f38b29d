// `npm run bundle`: bundles each API under openapi/ into one file, dist/openapi/<api>.{yaml,json}: the artifact every
// runtime reader loads (see spec-core/bundles.ts).
import { API_NAMES } from '../spec-core/apis.ts';
import { buildBundles } from '../spec-core/bundles.ts';
import { parseCommandLine } from '../config/cli.ts';

parseCommandLine({
  command: 'npm run bundle --',
  summary: 'Bundles each API under openapi/ into one file, dist/openapi/<api>.yaml and .json, the artifact every runtime reader loads.',
  options: {},
});

buildBundles();
for (const api of API_NAMES) console.log(`bundled ${api}: dist/openapi/${api}.yaml, dist/openapi/${api}.json`);
