// The target under test, from the LP_* settings the run is given (send/run-settings.ts): base URLs, credentials and the
// write gate. A missing variable never fails the run; it skips exactly the checks that need it, naming the variable.
// The variables themselves, and what each means, are listed in config/environment.ts.
import type { LpVariable, TargetName } from '../../config/environment.ts';
import type { RunSettings } from './run-settings.ts';

export { LP_VARIABLES, SECRET_VARIABLES, TARGET_NAMES, type LpVariable, type TargetName } from '../../config/environment.ts';

export interface Target {
  name: TargetName;
  env: Partial<Record<LpVariable, string>>;
  /** True only with LP_ALLOW_WRITES=1 and LP_TEST_LOAD_ID: the suite then posts milestones, for that load only. */
  writesAllowed: boolean;
}

/** The target of a run's settings (send/run-settings.ts); a base URL that is not absolute is refused, naming its variable. */
export function targetOf(settings: Pick<RunSettings, 'target' | 'targetEnv'>): Target {
  const env = settings.targetEnv;
  for (const variable of ['LP_BASE_URL', 'LP_AUTH_URL', 'LP_FLEET_BASE_URL', 'LP_REDIRECT_URI'] as const) {
    const value = env[variable];
    if (value && !URL.canParse(value)) throw new Error(`${variable} is not an absolute URL: "${value}"`);
  }
  const writesAllowed = env.LP_ALLOW_WRITES === '1' && Boolean(env.LP_TEST_LOAD_ID);
  return { name: settings.target, env, writesAllowed };
}

/** The reason a check cannot run because variables are missing, or undefined when all are set. */
export function reasonIfUnset(target: Target, ...names: LpVariable[]): string | undefined {
  const absent = names.filter((name) => !target.env[name]);
  return absent.length ? `needs ${absent.join(', ')} (not set)` : undefined;
}

/** A value the caller has checked with `reasonIfUnset` first. */
export function required(target: Target, name: LpVariable): string {
  const value = target.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}
