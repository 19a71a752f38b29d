// `npm run docs`: builds the partner docs into dist/docs/ (see tools/docs/build.ts) and names the pages it wrote.
import { relative, resolve } from 'node:path';
import { repoRoot } from '../spec-core/apis.ts';
import { ensureBundles } from '../spec-core/bundles.ts';
import { buildDocs, docsDir } from '../tools/docs/build.ts';
import { DEFAULT_DOCS_CONFIG } from '../tools/docs/support.ts';
import { parseCommandLine } from '../config/cli.ts';

const { values } = parseCommandLine({
  command: 'npm run docs --',
  summary:
    'Builds the partner docs (landing page, one Redoc page per API, the flows page of the Arazzo workflows, spec and workflow downloads, 404 page) into a folder, fully offline.',
  options: {
    config: {
      type: 'string',
      value: 'FILE',
      description: 'Docs config with the support contact.',
      default: relative(repoRoot, DEFAULT_DOCS_CONFIG),
    },
    out: { type: 'string', value: 'DIR', description: 'Where the site goes.', default: relative(repoRoot, docsDir) },
  },
  notes: ['Environment: DOCS_SUPPORT_EMAIL and DOCS_SUPPORT_URL override the contact of the config file.'],
});

try {
  ensureBundles((line) => console.log(`npm run docs: ${line}`));
  // npm runs scripts in the package folder, so relative paths are read from there.
  const pages = await buildDocs({
    configFile: resolve(repoRoot, values.config ?? DEFAULT_DOCS_CONFIG),
    outDir: resolve(repoRoot, values.out ?? docsDir),
  });
  for (const page of pages) console.log(`wrote ${relative(repoRoot, page)}`);
} catch (error) {
  console.error(`npm run docs: ${(error as Error).message}`);
  process.exit(1);
}
