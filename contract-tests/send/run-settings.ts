// The settings of one run of the suite as a value: the target (its name and LP_* settings), where the reports go,
// strictness, the property-based runs, the transport's bounds, verbosity. `runSettingsOf` is the one reader of a
// process's LP_* variables for a run; the runner hands its result to vitest (`provide`), which hands it to the global
// setup, the reporters and the workers (`inject('run')`), where send/run.ts makes the run from it.
import { join, resolve } from 'node:path';
import {
  flagVariable,
  integerVariable,
  type LpVariable,
  parseTargetName,
  readTargetVariables,
  readVariable,
  type TargetName,
} from '../../config/environment.ts';
import { repoRoot } from '../../spec-core/apis.ts';
import { readTransportSettings, type TransportSettings } from './transport-settings.ts';

export interface RunSettings {
  target: TargetName;
  /** The target's LP_* settings: where it is, who the caller is, whether the suite may write. */
  targetEnv: Partial<Record<LpVariable, string>>;
  /** The suite's tests of itself run too (a run against the mock, or vitest started with no target named). */
  selfTests: boolean;
  /** Only the end-to-end self-tests run (npm run contract:end-to-end). */
  endToEnd: boolean;
  /** Where the reports go; the ledger is below it. */
  outputDir: string;
  /** A contradicted assumption fails its check like a violation. */
  strictAssumptions: boolean;
  /** Property-based runs per operation and kind, and their random seed (property/operations.test.ts). */
  runs: number;
  randomSeed: number;
  transport: TransportSettings;
  /** The console keeps vitest's assertion diffs and code frames (--verbose). */
  verbose: boolean;
  /** A directory where vitest's worker threads write V8 CPU profiles, if any. */
  cpuProfileDir: string | undefined;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's settings, provided by the runner (runner/run-suite.ts) or by the config of a vitest started directly. */
    run: RunSettings;
  }
}

/**
 * The run the variables describe (LP_CONTRACT_TARGET, the target's LP_* settings, LP_CONTRACT_OUT, LP_CONTRACT_RUNS, ...):
 * the one place a run's settings are read from an environment. With no LP_CONTRACT_TARGET, a target named "live" with
 * whatever LP_* settings there are, and the self-tests run (vitest started directly).
 */
export function runSettingsOf(env: NodeJS.ProcessEnv): RunSettings {
  const named = readVariable('LP_CONTRACT_TARGET', env);
  const target = named === undefined ? 'live' : parseTargetName(named, 'LP_CONTRACT_TARGET');
  const profile = readVariable('LP_CONTRACT_CPU_PROF', env);
  return {
    target,
    targetEnv: readTargetVariables(env),
    selfTests: (named ?? 'mock') === 'mock',
    endToEnd: flagVariable('LP_CONTRACT_END_TO_END', env),
    outputDir: resolve(repoRoot, readVariable('LP_CONTRACT_OUT', env) ?? join(repoRoot, 'dist/contract')),
    strictAssumptions: flagVariable('LP_STRICT_ASSUMPTIONS', env),
    runs: integerVariable('LP_CONTRACT_RUNS', 5, 1, env),
    // A fixed random seed by default keeps a red run reproducible; LP_CONTRACT_RANDOM_SEED explores other inputs.
    randomSeed: integerVariable('LP_CONTRACT_RANDOM_SEED', 20261122, Number.MIN_SAFE_INTEGER, env),
    transport: readTransportSettings(env),
    verbose: flagVariable('LP_CONTRACT_VERBOSE', env),
    cpuProfileDir: profile === undefined ? undefined : resolve(profile),
  };
}
