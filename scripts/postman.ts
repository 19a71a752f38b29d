// `npm run postman`: writes the Postman collection and its sandbox and live environments (tools/postman/) from the
// bundles, into dist/docs/postman/ unless told otherwise.
import { relative } from 'node:path';
import { repoRoot } from '../spec-core/apis.ts';
import { ensureBundles } from '../spec-core/bundles.ts';
import { parseCommandLine } from '../config/cli.ts';
import { DEFAULT_OUT_DIR, writePostmanCollection } from '../tools/postman/build-collection.ts';

const { values } = parseCommandLine({
  command: 'npm run postman --',
  summary:
    'Generates the Postman collection of the three APIs and its sandbox and live environments from dist/openapi/ (bundled first when missing).',
  options: {
    out: {
      type: 'string',
      value: 'DIR',
      description: 'Directory to write the three files to.',
      default: relative(repoRoot, DEFAULT_OUT_DIR),
    },
  },
  notes: [
    'The sandbox environment works as is against `npm run sandbox` (port 4020); on another port, change its sandbox_origin.',
    'Fill in the live one with your onboarding values.',
  ],
});

ensureBundles((line) => console.error(line));
const files = await writePostmanCollection(values.out ?? DEFAULT_OUT_DIR);
for (const file of files) console.log(`wrote ${relative(repoRoot, file)}`);
