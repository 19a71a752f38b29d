// Writes generated/<api>.ts (openapi-typescript types) and generated/assumptions.md from the bundles;
// with --check, writes nothing and fails when the committed files differ (drift check).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { OpenAPI3 } from 'openapi-typescript';
import { API_NAMES, repoRoot } from '../spec-core/apis.ts';
import { assumptionsMarkdown } from '../spec-core/assumptions.ts';
import { loadBundle } from '../spec-core/bundles.ts';
import { parseCommandLine } from '../config/cli.ts';

const { values } = parseCommandLine({
  command: 'tsx scripts/generate.ts',
  summary:
    'Writes generated/<api>.ts (openapi-typescript types) and generated/assumptions.md from the bundles (npm run generate bundles first).',
  options: {
    check: { type: 'boolean', description: 'Write nothing; fail when the committed files differ from the specs (npm run generate:check).' },
  },
});
const check = values.check === true;

const header = (source: string) =>
  `// Generated from ${source} by \`npm run generate\`. Do not edit by hand: change the spec under openapi/ and regenerate.\n`;

async function render(): Promise<Map<string, string>> {
  // Loaded after the options are read, so --help answers without loading the generator.
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const files = new Map<string, string>();
  for (const api of API_NAMES) {
    const ast = await openapiTS(loadBundle(api) as OpenAPI3, { alphabetize: false });
    files.set(`generated/${api}.ts`, header(`openapi/${api}/openapi.yaml`) + astToString(ast));
  }
  files.set('generated/assumptions.md', assumptionsMarkdown());
  return files;
}

const files = await render();
const drifted: string[] = [];
for (const [file, content] of files) {
  const target = `${repoRoot}/${file}`;
  const current = existsSync(target) ? readFileSync(target, 'utf8') : undefined;
  if (check) {
    if (current !== content) drifted.push(file);
  } else if (current !== content) {
    writeFileSync(target, content);
    console.log(`wrote ${file}`);
  }
}
if (check) {
  if (drifted.length > 0) {
    console.error(
      `Generated files are out of date with the specs: ${drifted.join(', ')}.\nRun \`npm run generate\` and commit the result.`,
    );
    process.exit(1);
  }
  console.log(`generate:check: ${files.size} generated files match the specs.`);
}
