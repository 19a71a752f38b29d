// Once per run: clears the previous ledger and precompiles the answers' validators (judge/validators.ts); at the end,
// writes the coverage and assumption reports and prints the coverage table. Everything written passes through the
// redactor of the configured secrets.
import { rmSync } from 'node:fs';
import { ledgerDir, outputDir } from '../send/ledger.ts';
import { redactorFor } from '../send/redact.ts';
import { writeReports } from '../report/write.ts';
import { prepareValidators } from '../judge/validators.ts';
import { readTarget } from '../send/target.ts';

export function setup(): void {
  rmSync(ledgerDir, { recursive: true, force: true });
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
  const target = readTarget();
  const { md } = writeReports(outputDir, ledgerDir, target.name);
  // Reports carry only operation names, statuses and redacted problems, but redact once more on the way out.
  process.stdout.write(`\n${redactorFor(target).redact(md)}\nReports: ${outputDir}/coverage.{json,md}, assumptions.{json,md}\n`);
}
