// `npm run lint`: Redocly lint of the specs and of the Arazzo workflows with the rules of redocly.yaml (stylish format),
// its output relayed as it comes without Redocly's Node.js end-of-life notice (spec-core/redocly.ts), then the kit's own
// checks of the workflows against the bundles (spec-core/workflow-lint.ts), which Redocly's Arazzo rules do not make.
// Exits non-zero when either finds a problem.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../spec-core/apis.ts';
import { relayRedocly } from '../spec-core/redocly.ts';
import { parseCommandLine } from '../config/cli.ts';

const { values, positionals } = parseCommandLine({
  command: 'npm run lint --',
  summary:
    'Lints the specs and the Arazzo workflows with Redocly CLI and the rules of redocly.yaml (every API it names, or the ones given: token, carriers, fleet, a workflow), then checks every workflow against the bundles: each operationId, parameter, body field and runtime expression must name something the specs define. Zero warnings is the bar.',
  options: {
    format: {
      type: 'string',
      value: 'FORMAT',
      description: "Redocly's output format (stylish, codeframe, json, ...).",
      default: 'stylish',
    },
  },
  positionals: '[api ...]',
});

const redocly = await relayRedocly(['lint', `--format=${values.format ?? 'stylish'}`, ...positionals], repoRoot);

/** The kit's checks of the workflows named (all of them when no API is named). */
async function lintWorkflows(): Promise<number> {
  // Loaded here: they read the bundles (built on demand), which --help and a bad option never need.
  const [{ loadBundles }, { formatProblem, lintWorkflow }, { WORKFLOW_FILES, WORKFLOWS_DIR }] = await Promise.all([
    import('../spec-core/bundles.ts'),
    import('../spec-core/workflow-lint.ts'),
    import('../spec-core/workflows.ts'),
  ]);
  const named = WORKFLOW_FILES.filter((file) => positionals.length === 0 || positionals.includes(file.replace(/\.arazzo\.yaml$/, '')));
  if (named.length === 0) return 0;
  const bundles = loadBundles();
  const problems = named.flatMap((name) =>
    lintWorkflow({ file: `openapi/workflows/${name}`, text: readFileSync(join(WORKFLOWS_DIR, name), 'utf8') }, bundles),
  );
  for (const problem of problems) console.error(formatProblem(problem));
  console.log(
    problems.length === 0
      ? `workflows: ${named.length} Arazzo workflow${named.length === 1 ? '' : 's'} checked against the bundles, no problem.`
      : `workflows: ${problems.length} problem${problems.length === 1 ? '' : 's'} in the Arazzo workflows (above).`,
  );
  return problems.length === 0 ? 0 : 1;
}

process.exitCode = Math.max(redocly, await lintWorkflows());
