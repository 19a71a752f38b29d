// `npm run spec:diff -- <git-ref> [--allow-breaking]`: bundles the specs at a git ref and in the working tree, lists
// what changed for each API, and exits non-zero on a change that breaks a client or a partner unless --allow-breaking.
// The comparison, its rules and the verdict are in tools/spec-diff.ts.
import { isMainModule, parseCommandLine, usageError } from '../config/cli.ts';
import { compareWithRef, gitTopLevel, specDiffReport } from '../tools/spec-diff.ts';

const CLI = {
  command: 'npm run spec:diff --',
  summary:
    'Lists the spec changes between a git ref and the working tree, per API, as BREAKING, NON-BREAKING or ANNOTATION, ' +
    'and exits 1 on a breaking change.',
  positionals: '<git-ref>',
  options: {
    'allow-breaking': { type: 'boolean', description: 'Breaking changes are intended (a major release): exit 0.' },
  },
  notes: ['Example: npm run spec:diff -- main'],
} as const;

async function main(): Promise<number> {
  const { values, positionals } = parseCommandLine(CLI);
  if (positionals.length !== 1) usageError(CLI, `expected one git ref, got ${positionals.length}`);
  const ref = positionals[0]!;
  const report = specDiffReport(ref, await compareWithRef(gitTopLevel(process.cwd()), ref), values['allow-breaking'] === true);
  for (const line of report.output) console.log(line);
  for (const line of report.errors) console.error(line);
  return report.exitCode;
}

if (isMainModule(import.meta.url)) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`spec:diff: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(2);
    },
  );
}
