// Once per run: clears the previous ledger and precompiles the answers' validators (judge/validators.ts); at the end,
// writes the coverage and assumption reports and prints the coverage table. Everything written passes through the
// redactor of the configured secrets.
import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { redactorFor } from '../send/redact.ts';
import { outputPathsOf } from '../send/run.ts';
import type { RunSettings } from '../send/run-settings.ts';
import { targetOf } from '../send/target.ts';
import { writeReports } from '../report/write.ts';
import { prepareValidators } from '../judge/validators.ts';

/** Prepares the run whose settings the runner (or the config of a vitest started directly) provided; answers its end. */
export function setup(project: TestProject): () => void {
  const settings = project.getProvidedContext().run;
  rmSync(outputPathsOf(settings).ledgerDir, { recursive: true, force: true });
  // Once here, before any worker starts: each worker then loads the answers' validators instead of compiling them.
  try {
    prepareValidators();
  } catch (error) {
    project.vitest.logger.error(
      `contract: the answers' validators were not precompiled (${(error as Error).message}); each worker compiles them`,
    );
  }
  // vitest's output, not this process's: a runner that runs vitest in its own process keeps it with the suite's output.
  return () => teardown(settings, (text) => project.vitest.logger.log(text));
}

function teardown(settings: RunSettings, log: (text: string) => void): void {
  const target = targetOf(settings);
  const { dir: outputDir, ledgerDir } = outputPathsOf(settings);
  const { concurrency } = settings.transport;
  const { md } = writeReports(outputDir, ledgerDir, { targetName: target.name, env: target.env, concurrency });
  // Reports carry only operation names, statuses and redacted problems, but redact once more on the way out.
  log(`\n${redactorFor(target).redact(md)}\nReports: ${outputDir}/coverage.{json,md}, assumptions.{json,md}`);
}
