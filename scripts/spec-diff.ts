// `npm run spec:diff -- <git-ref> [--allow-breaking]`: bundles the specs at a git ref and in the working tree, lists
// what changed for each API, and exits non-zero on a change that breaks a client or a partner unless --allow-breaking.
// The comparison and its rules are in tools/spec-diff.ts.
import { compareWithRef, formatChanges, gitTopLevel } from '../tools/spec-diff.ts';

const USAGE = 'usage: npm run spec:diff -- <git-ref> [--allow-breaking]';

async function main(argv: string[]): Promise<number> {
  const allowBreaking = argv.includes('--allow-breaking');
  const unknown = argv.filter((arg) => arg.startsWith('-') && arg !== '--allow-breaking');
  const refs = argv.filter((arg) => !arg.startsWith('-'));
  if (unknown.length > 0 || refs.length !== 1) {
    console.error(unknown.length > 0 ? `unknown option ${unknown.join(', ')}\n${USAGE}` : USAGE);
    return 2;
  }
  const repo = gitTopLevel(process.cwd());
  const ref = refs[0]!;
  const results = await compareWithRef(repo, ref);
  for (const { api, changes } of results) console.log(formatChanges(api, changes));
  const breaking = results.flatMap((r) => r.changes).filter((c) => c.severity === 'breaking').length;
  const total = results.reduce((n, r) => n + r.changes.length, 0);
  console.log(`\nspec:diff ${ref}..work tree: ${total} change(s), ${breaking} breaking.`);
  if (breaking === 0) return 0;
  if (allowBreaking) {
    console.log('Breaking changes accepted (--allow-breaking): release them as a new major version of the specs and the client.');
    return 0;
  }
  console.error('Breaking changes found. If they are intended, rerun with --allow-breaking and plan a major release.');
  return 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`spec:diff: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
