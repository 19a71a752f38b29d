// `npm run assumptions`: prints the table of every x-assumption of the bundles (the same text as generated/assumptions.md).
import { assumptionsMarkdown } from '../spec-core/assumptions.ts';

process.stdout.write(assumptionsMarkdown());
