// Once per run: clears the previous ledger and precompiles the answers' validators (judge/validators.ts); at the end,
// writes the coverage and assumption reports and prints the coverage table. Everything written passes through the
// redactor of the configured secrets.
import { rmSync } from 'node:fs';
import { redactorFor } from '../send/redact.ts';
import { currentOutputPaths, currentTarget, currentTransportSettings } from '../send/run.ts';
import { writeReports } from '../report/write.ts';
import { prepareValidators } from '../judge/validators.ts';

export function setup(): void {
  rmSync(currentOutputPaths().ledgerDir, { recursive: true, force: true });
  // Once here, before any worker starts: each worker then loads the answers' validators instead of compiling them.
  try {
    prepareValidators();
  } catch (error) {
    process.stderr.write(
      `contract: the answers' validators were not precompiled (${(error as Error).message}); each worker compiles them\n`,
    );
  }
}

export function teardown(): void {
  const target = currentTarget();
  const { dir: outputDir, ledgerDir } = currentOutputPaths();
  const { concurrency } = currentTransportSettings();
  const { md } = writeReports(outputDir, ledgerDir, { targetName: target.name, env: target.env, concurrency });
  // Reports carry only operation names, statuses and redacted problems, but redact once more on the way out.
  process.stdout.write(`\n${redactorFor(target).redact(md)}\nReports: ${outputDir}/coverage.{json,md}, assumptions.{json,md}\n`);
}
