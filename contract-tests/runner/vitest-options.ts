// Which of the vitest options given after `--` vitest does not know. The suite runs vitest through its Node API, whose
// parser (parseCLI) takes any option without a word, so a mistyped one (`--testNamePatern`) would be dropped and the
// whole suite run; vitest's own command line refuses it, naming it. The options vitest knows are read from its own
// help, and only when options were given.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../../spec-core/apis.ts';

const VITEST = join(repoRoot, 'node_modules/vitest/vitest.mjs');

/** `tags-filter` and `tagsFilter` are one option to vitest (its parser camel-cases them). */
const camel = (name: string) => name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** The long options (camel-cased) and the short letters vitest's help lists, its dotted sub-options included. */
function knownOptions(): Set<string> {
  const help = spawnSync(process.execPath, [VITEST, '--help', '--expand-help'], { cwd: repoRoot, encoding: 'utf8' }).stdout ?? '';
  const known = new Set<string>();
  for (const [, short, long] of help.matchAll(/^\s+(?:-(\w), )?--([\w.-]+)/gm)) {
    if (short) known.add(`-${short}`);
    known.add(camel(long!));
  }
  return known;
}

/** The options among `args` that vitest does not know, as given (an empty list when all are known, or none given). */
export function unknownVitestOptions(args: readonly string[]): string[] {
  const given = args.filter((arg) => arg.startsWith('-') && arg !== '--' && arg !== '-');
  if (given.length === 0) return [];
  const known = knownOptions();
  const isKnown = (arg: string) => {
    if (!arg.startsWith('--')) return [...arg.slice(1).split('=')[0]!].every((letter) => known.has(`-${letter}`));
    const name = camel(arg.slice(2).split('=')[0]!);
    const positive = name.startsWith('no') && /^no[A-Z]/.test(name) ? name[2]!.toLowerCase() + name.slice(3) : name;
    return known.has(name) || known.has(positive);
  };
  return given.filter((arg) => !isKnown(arg));
}
