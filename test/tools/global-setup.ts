// Once per run: the bundles the scripts under test read, built before any test starts one of them (a fresh clone has
// none), so a script's output in a test is its own, not the note and the Redocly output of a first build.
import { ensureBundles } from '../../spec-core/bundles.ts';

export function setup(): void {
  ensureBundles((line) => process.stderr.write(`tools tests: ${line}\n`));
}
