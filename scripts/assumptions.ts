// `npm run assumptions`: prints the table of every x-assumption of the bundles (the same text as generated/assumptions.md).
// The table is built by spec-core/assumptions.ts.
import { assumptionsMarkdown } from '../spec-core/assumptions.ts';
import { parseCommandLine } from '../config/cli.ts';

parseCommandLine({
  command: 'npm run assumptions --',
  summary:
    'Prints, as a Markdown table, every x-assumption of the bundled specs: what the specs assume where the published documentation shows nothing.',
  options: {},
});
process.stdout.write(assumptionsMarkdown());
