// `npm run lint:workflows [-- file.yml ...]`: lints .github/workflows/*.yml (tools/release/workflow-lint.ts).
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot } from '../spec-core/apis.ts';
import { parseCommandLine } from '../config/cli.ts';
import { lintWorkflow } from '../tools/release/workflow-lint.ts';

const { positionals } = parseCommandLine({
  command: 'npm run lint:workflows --',
  summary: 'Checks GitHub Actions workflows against the workflow schema (@action-validator/cli) and the least-privilege rules.',
  options: {},
  positionals: '[workflow.yml ...]',
});
const dir = join(repoRoot, '.github', 'workflows');
const files =
  positionals.length > 0
    ? positionals
    : readdirSync(dir)
        .filter((name) => /\.ya?ml$/.test(name))
        .map((name) => join(dir, name));
const validator = join(repoRoot, 'node_modules', '.bin', 'action-validator');
let failed = 0;
for (const file of files) {
  const problems = lintWorkflow(file, validator);
  const name = relative(process.cwd(), file) || file;
  if (problems.length === 0) console.log(`ok      ${name}`);
  else {
    failed += 1;
    console.error(`FAILED  ${name}\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}
console.log(`lint:workflows: ${files.length - failed} of ${files.length} workflow(s) pass`);
process.exitCode = failed === 0 ? 0 : 1;
