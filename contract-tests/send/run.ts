// The run as a value: the target under test (its LP_* settings and what it can do), the transport that sends to it, the
// redactor, the ledger and the output paths. `makeRun` builds one from the settings it is given; `currentRun` makes
// this worker's from its environment when first asked for: the one place of the suite's modules that reads the LP_*
// variables. Nothing is made when a module is imported.
import { join } from 'node:path';
import { flagVariable, parseTargetName, readVariable, type TargetName } from '../../config/environment.ts';
import { repoRoot } from '../../spec-core/apis.ts';
import { Ledger } from './ledger.ts';
import { type RememberingRedactor, rememberingRedactorFor } from './redact.ts';
import { readTarget, type Target } from './target.ts';
import { readTransportSettings, Transport, type TransportSettings } from './transport.ts';

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
}

/** The output paths the settings name (LP_CONTRACT_OUT, default dist/contract). */
export function outputPathsOf(env: NodeJS.ProcessEnv): OutputPaths {
  const dir = readVariable('LP_CONTRACT_OUT', env) ?? join(repoRoot, 'dist/contract');
  return { dir, ledgerDir: join(dir, '.ledger') };
}

/** A run of the target the settings name. */
export function makeRun(env: NodeJS.ProcessEnv): Run {
  const target = readTarget(env);
  const output = outputPathsOf(env);
  const ledger = new Ledger(output.ledgerDir);
  const settings = readTransportSettings(env);
  // Every attempt has a deadline, throttling and transient faults are waited out or end as "could not judge", and the
  // requests in flight are bounded (config/environment.ts: LP_CONTRACT_*). Only a live run has several workers
  // (contract-tests/vitest.config.ts); each takes its share of the bounds.
  const transport = new Transport({ ...settings, workers: target.name === 'live' ? settings.workers : 1 }, fetch, Math.random, {
    env,
  });
  // A wait of a second or more goes to the ledger, where the runner's progress line shows it (runner/progress.ts).
  transport.waitListener = (until, why) => ledger.record({ kind: 'wait', until, why });
  return {
    target,
    redactor: rememberingRedactorFor(target),
    transport,
    ledger,
    output,
    strictAssumptions: flagVariable('LP_STRICT_ASSUMPTIONS', env),
  };
}

let current: Run | undefined;

/** This worker's run, made from its environment when first asked for. */
export function currentRun(): Run {
  current ??= makeRun(process.env);
  return current;
}

/** The output paths of this process's run, for the global setup and the reporters, which run outside the workers and
 * send nothing. */
export const currentOutputPaths = (): OutputPaths => outputPathsOf(process.env);

/** The target of this process's run, for the global teardown (outside the workers). */
export const currentTarget = (): Target => readTarget(process.env);

/** The transport settings of this process's run, for the global teardown's report of the run's pace. */
export const currentTransportSettings = (): TransportSettings => readTransportSettings(process.env);

/** The target named by LP_CONTRACT_TARGET, if any (the vitest config runs the self-tests when none is named). */
export const configuredTargetName = (): TargetName | undefined => {
  const named = readVariable('LP_CONTRACT_TARGET', process.env);
  return named === undefined ? undefined : parseTargetName(named, 'LP_CONTRACT_TARGET');
};

/** Whether this run is the end-to-end rehearsal (npm run contract:end-to-end), for the vitest config. */
export const endToEndRun = (): boolean => process.env.LP_CONTRACT_END_TO_END === '1';
