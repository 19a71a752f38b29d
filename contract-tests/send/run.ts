// The run as a value: the target under test (its LP_* settings and what it can do), the transport that sends to it, the
// redactor, the ledger and the output paths. `makeRun` builds one from a run's settings (send/run-settings.ts);
// `currentRun` makes this worker's when first asked for, from the settings the runner handed vitest (`provide`) and
// vitest hands each worker (`inject`): no module of the suite reads an LP_* variable. Nothing is made when a module is
// imported.
import { join } from 'node:path';
import { inject } from 'vitest';
import { Ledger } from './ledger.ts';
import { type RememberingRedactor, rememberingRedactorFor } from './redact.ts';
import type { RunSettings } from './run-settings.ts';
import { type Target, targetOf } from './target.ts';
import { Transport } from './transport.ts';

/** Where a run writes: its reports, and the ledger's files under them. */
export interface OutputPaths {
  dir: string;
  ledgerDir: string;
}

export interface Run {
  target: Target;
  /** Every configured secret, and every token or code the target issues (send/redact.ts). */
  redactor: RememberingRedactor;
  /** The one transport of this worker (send/transport.ts). */
  transport: Transport;
  ledger: Ledger;
  output: OutputPaths;
  /** With --strict-assumptions (LP_STRICT_ASSUMPTIONS=1) a contradicted assumption fails its check like a violation. */
  strictAssumptions: boolean;
  /** Property-based runs per operation and kind (--runs, LP_CONTRACT_RUNS), and their random seed. */
  runs: number;
  randomSeed: number;
}

/** The output paths of a run's settings. */
export function outputPathsOf(settings: Pick<RunSettings, 'outputDir'>): OutputPaths {
  return { dir: settings.outputDir, ledgerDir: join(settings.outputDir, '.ledger') };
}

/** A run of the target the settings name. */
export function makeRun(settings: RunSettings): Run {
  const target = targetOf(settings);
  const output = outputPathsOf(settings);
  const ledger = new Ledger(output.ledgerDir);
  const transportSettings = settings.transport;
  // Every attempt has a deadline, throttling and transient faults are waited out or end as "could not judge", and the
  // requests in flight are bounded (config/environment.ts: LP_CONTRACT_*). Only a live run has several workers
  // (contract-tests/vitest.config.ts); each takes its share of the bounds.
  const transport = new Transport(
    { ...transportSettings, workers: target.name === 'live' ? transportSettings.workers : 1 },
    fetch,
    Math.random,
    { env: target.env },
  );
  // A wait of a second or more goes to the ledger, where the runner's progress line shows it (runner/progress.ts).
  transport.waitListener = (until, why) => ledger.record({ kind: 'wait', until, why });
  return {
    target,
    redactor: rememberingRedactorFor(target),
    transport,
    ledger,
    output,
    strictAssumptions: settings.strictAssumptions,
    runs: settings.runs,
    randomSeed: settings.randomSeed,
  };
}

let current: Run | undefined;

/** This worker's run, made from the settings the runner provided (vitest's `inject`) when first asked for. */
export function currentRun(): Run {
  current ??= makeRun(inject('run'));
  return current;
}
