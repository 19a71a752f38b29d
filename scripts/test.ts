// `npm test`: runs every check of the kit in order, stops at the first failure, and prints the wall time of each step.
import { spawnSync } from 'node:child_process';

const steps: Array<[string, string[]]> = [
  ['lint', ['run', 'lint']],
  ['generate:check', ['run', 'generate:check']],
  ['typecheck', ['run', 'typecheck']],
  ['test:spec', ['run', 'test:spec']],
];

const timings: string[] = [];
for (const [name, args] of steps) {
  const started = performance.now();
  console.log(`\n=== npm ${args.join(' ')}`);
  const result = spawnSync('npm', args, { stdio: 'inherit' });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  timings.push(`${name.padEnd(22)} ${seconds.padStart(7)} s  ${result.status === 0 ? 'ok' : 'FAILED'}`);
  if (result.status !== 0) {
    console.error(`\n${timings.join('\n')}\n\nnpm test: step "${name}" failed.`);
    process.exit(result.status ?? 1);
  }
}
console.log(`\n${timings.join('\n')}\n\nnpm test: all ${steps.length} steps passed.`);
