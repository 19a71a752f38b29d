// The target under test, read once from the LP_* environment variables: base URLs, credentials and the write gate.
// A missing variable never fails the run; it skips exactly the checks that need it, naming the variable.

export const TARGET_NAMES = ['mock', 'sandbox', 'live'] as const;
export type TargetName = (typeof TARGET_NAMES)[number];

export const LP_VARIABLES = [
  'LP_BASE_URL',
  'LP_AUTH_URL',
  'LP_FLEET_BASE_URL',
  'LP_CLIENT_ID',
  'LP_CLIENT_SECRET',
  'LP_SUBSCRIPTION_KEY',
  'LP_SCOPE',
  'LP_REDIRECT_URI',
  'LP_FLEET_API_KEY',
  'LP_FLEET_FOREIGN_VEHICLE_NUMBER',
  'LP_FLEET_FOREIGN_CUSTOMER_NUMBER',
  'LP_ALLOW_WRITES',
  'LP_TEST_LOAD_ID',
] as const;
export type LpVariable = (typeof LP_VARIABLES)[number];

/** Variables whose values are credentials: they are redacted from every output of the suite. */
export const SECRET_VARIABLES: readonly LpVariable[] = ['LP_CLIENT_SECRET', 'LP_SUBSCRIPTION_KEY', 'LP_FLEET_API_KEY'];

export interface Target {
  name: TargetName;
  env: Partial<Record<LpVariable, string>>;
  /** True only with LP_ALLOW_WRITES=1 and LP_TEST_LOAD_ID: the suite then posts milestones, for that load only. */
  writesAllowed: boolean;
}

export function readTarget(source: NodeJS.ProcessEnv = process.env): Target {
  const rawName = source.LP_CONTRACT_TARGET ?? 'live';
  if (!(TARGET_NAMES as readonly string[]).includes(rawName)) {
    throw new Error(`LP_CONTRACT_TARGET must be one of ${TARGET_NAMES.join(', ')}, got "${rawName}"`);
  }
  const env: Partial<Record<LpVariable, string>> = {};
  for (const name of LP_VARIABLES) {
    const value = source[name]?.trim();
    if (value) env[name] = value;
  }
  for (const name of ['LP_BASE_URL', 'LP_AUTH_URL', 'LP_FLEET_BASE_URL', 'LP_REDIRECT_URI'] as const) {
    const value = env[name];
    if (value && !URL.canParse(value)) throw new Error(`${name} is not an absolute URL: "${value}"`);
  }
  const writesAllowed = env.LP_ALLOW_WRITES === '1' && Boolean(env.LP_TEST_LOAD_ID);
  return { name: rawName as TargetName, env, writesAllowed };
}

/** The reason a check cannot run because variables are missing, or undefined when all are set. */
export function missing(target: Target, ...names: LpVariable[]): string | undefined {
  const absent = names.filter((name) => !target.env[name]);
  return absent.length ? `needs ${absent.join(', ')} (not set)` : undefined;
}

/** A value the caller has checked with `missing` first. */
export function required(target: Target, name: LpVariable): string {
  const value = target.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

/** Joins a base URL that may carry a path prefix with an API path, keeping the prefix. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}

export const target = readTarget();
