// `npm run docs`: builds the partner docs into dist/docs/ (see tools/docs.ts) and names the pages it wrote.
import { repoRoot } from '../spec-core/apis.ts';
import { buildDocs } from '../tools/docs.ts';

const pages = await buildDocs();
for (const page of pages) console.log(`wrote ${page.slice(repoRoot.length + 1)}`);
