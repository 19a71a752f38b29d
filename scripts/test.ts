// `npm test`: runs every check of the kit in order, stops at the first failure, and prints the wall time of each step.
import { spawnSync } from 'node:child_process';

const steps: Array<[string, string[]]> = [
  // The specs and what is derived from them.
  ['lint', ['run', 'lint']],
  ['generate:check', ['run', 'generate:check']],
  ['typecheck', ['run', 'typecheck']],
  ['test:spec', ['run', 'test:spec']],
  ['test:spec-diff', ['run', 'test:spec-diff']],
  // The client, the servers and the docs.
  ['test:client', ['run', 'test:client']],
  ['test:sandbox', ['run', 'test:sandbox']],
  ['test:docs', ['run', 'test:docs']],
  // The contract suite against each local target, dredd, and the proof that the suite catches violations.
  ['contract', ['run', 'contract']],
  ['contract:sandbox', ['run', 'contract:sandbox']],
  ['dredd', ['run', 'dredd']],
  ['dredd:sandbox', ['run', 'dredd:sandbox']],
  ['contract:mutation', ['run', 'contract:mutation']],
  // The package as another repo installs it.
  ['pack:check', ['run', 'pack:check']],
];

const timings: string[] = [];
for (const [name, args] of steps) {
  const started = performance.now();
  console.log(`\n=== npm ${args.join(' ')}`);
  const result = spawnSync('npm', args, { stdio: 'inherit' });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  timings.push(`${name.padEnd(22)} ${seconds.padStart(7)} s  ${result.status === 0 ? 'ok' : 'FAILED'}`);
  if (result.status !== 0) {
    console.error(`\n${timings.join('\n')}\n\nnpm test: step "${name}" failed.\nsteps: ${timings.length - 1} passed, 1 failed`);
    process.exit(result.status ?? 1);
  }
}
console.log(`\n${timings.join('\n')}\n\nsteps: ${steps.length} passed, 0 failed`);
