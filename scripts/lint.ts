// `npm run lint`: Redocly lint of the specs with the rules of redocly.yaml (stylish format), its output relayed as it
// comes without Redocly's Node.js end-of-life notice (spec-core/redocly.ts); exits with Redocly's exit code.
import { repoRoot } from '../spec-core/apis.ts';
import { relayRedocly } from '../spec-core/redocly.ts';
import { parseCommandLine } from '../config/cli.ts';

const { values, positionals } = parseCommandLine({
  command: 'npm run lint --',
  summary:
    'Lints the specs with Redocly CLI and the rules of redocly.yaml: every API it names, or the APIs given (token, carriers, fleet). Zero warnings is the bar.',
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

process.exitCode = await relayRedocly(['lint', `--format=${values.format ?? 'stylish'}`, ...positionals], repoRoot);
