// Every LP_* environment variable the kit reads, with its meaning, and the only code that reads them: the target
// settings (URLs, credentials, write gate), the suite's run settings (LP_CONTRACT_*), the servers' default ports and
// the test runner's knobs. Which variables are secrets, the placeholder credentials of the mock, the target names and
// the loading of `.env` live here too, once.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { repoRoot } from '../spec-core/apis.ts';

/** The settings of a target: where it is, who the caller is, and whether the suite may write. `.env.example` documents them for users. */
export const TARGET_VARIABLES = {
  LP_BASE_URL: '{base_url}: the service token endpoint (/token) and the carriers API (/v1/load-milestone-events)',
  LP_AUTH_URL: '{auth_url}: the identity provider (/oauth2/default/v1/token and /authorize)',
  LP_FLEET_BASE_URL: '{fleet_base_url}: the fleet API (/vehicles)',
  LP_CLIENT_ID: 'OAuth 2.0 client id of the application',
  LP_CLIENT_SECRET: 'OAuth 2.0 client secret of the application (secret)',
  LP_SUBSCRIPTION_KEY: 'Ocp-Apim-Subscription-Key of the developer account (secret)',
  LP_SCOPE: 'scopes the client may request, space-separated',
  LP_REDIRECT_URI: 'redirect URI registered for the application (authorization code flow, npm run login)',
  LP_FLEET_API_KEY: 'API-Key of the fleet API (secret)',
  LP_FLEET_FOREIGN_VEHICLE_NUMBER: 'a vehicle that exists but that LP_FLEET_API_KEY must not see (lessee isolation checks)',
  LP_FLEET_FOREIGN_CUSTOMER_NUMBER: 'a customer number of another lessee (its vehicles must never appear)',
  LP_ALLOW_WRITES: 'write gate: 1 lets the suite post milestone events, for LP_TEST_LOAD_ID only',
  LP_TEST_LOAD_ID: 'the only load the suite may post milestone events for',
} as const;
export type LpVariable = keyof typeof TARGET_VARIABLES;
export const LP_VARIABLES = Object.keys(TARGET_VARIABLES) as LpVariable[];

/** How a run of the contract suite (and the scripts around it) behaves. */
export const RUN_VARIABLES = {
  LP_CONTRACT_TARGET:
    'the target of a vitest started directly on the contract project: mock, sandbox or live (npm run contract* hands vitest its settings as a value: --target)',
  LP_CONTRACT_OUT: 'directory of the suite reports (default dist/contract)',
  LP_DREDD_OPERATIONS:
    "the operations file dredd's hooks read (set by npm run dredd*: the registry's facts, written beside dredd's documents)",
  LP_CONTRACT_RUNS: 'property-based runs per operation (default 5)',
  LP_CONTRACT_RANDOM_SEED: 'random seed of the property-based inputs (default fixed, so a red run reproduces)',
  LP_CONTRACT_TIMEOUT_MS: 'time the suite gives one attempt of a request, in ms (default 15000)',
  LP_CONTRACT_TRIES:
    'attempts per request after throttling (429, 503 with Retry-After) or a transient fault of an idempotent request (default 6)',
  LP_CONTRACT_MAX_WAIT_S:
    'the longest Retry-After the suite waits out, in seconds (default 60); a longer one ends the request as "could not judge"',
  LP_CONTRACT_RATE_LIMIT: "requests per second the suite sends at most (a gateway's quota); unset: it adapts to the 429s it meets",
  LP_CONTRACT_IDP_RATE_LIMIT:
    "requests per second the suite sends the identity provider (LP_AUTH_URL's address) at most, all workers together (a limit shared with production sign-ins); unset: paced by its rate-limit headers",
  LP_CONTRACT_CONCURRENCY:
    'requests the suite has in flight at most, over all its workers (default 128); below it the number adapts to the round trip',
  LP_CONTRACT_WORKERS:
    "test files a live run runs side by side (default: from the preflight's round trip, 3 near (one per core on fewer) to 8 far); the mock and the sandbox run one at a time",
  LP_CONTRACT_CPU_PROF:
    "a directory: the suite's vitest and each of its worker threads write a V8 CPU profile of the run there, to open in Chrome's DevTools (npm run bench:contract -- --cpu-prof DIR sets it)",
  LP_CONTRACT_VERBOSE: "1: the console keeps vitest's assertion diffs and code frames of failed checks (--verbose)",
  LP_CONTRACT_BASELINE: "a previous run's report directory: the reports add what changed since it (--baseline)",
  LP_STRICT_ASSUMPTIONS: '1: a contradicted assumption of the specs fails a live run',
  LP_FAIL_ON_SKIP: '1: a skipped check fails the run',
  LP_MIN_COVERAGE: 'the least ratio (0 to 1) of checks that must run',
  LP_MOCK_PORT: 'default port of npm run mock (4010)',
  LP_SANDBOX_PORT: 'default port of npm run sandbox (4020)',
  LP_TEST_JOBS: 'parallel steps of npm test and npm run test:end-to-end (default 3)',
  LP_CONTRACT_END_TO_END:
    "1: the contract project runs only the suite's end-to-end self-tests (contract-tests/self/end-to-end/; npm run contract:end-to-end)",
  LP_TEST_SLOWDOWN:
    'how many times slower than the reference 2-core machine this one is: every wait of a test on a process, a port or a browser is multiplied by it (default 1, an integer; config/test-waits.ts)',
  LP_TYPE_TESTS_IN_TYPECHECK: '1: the client type tests run in npm run typecheck, not in vitest',
} as const;
export type RunVariable = keyof typeof RUN_VARIABLES;

/** Variables whose values are credentials: never printed, redacted from every output. */
export const SECRET_VARIABLES: readonly LpVariable[] = ['LP_CLIENT_SECRET', 'LP_SUBSCRIPTION_KEY', 'LP_FLEET_API_KEY'];

export const TARGET_NAMES = ['mock', 'sandbox', 'live'] as const;
export type TargetName = (typeof TARGET_NAMES)[number];

/** The target name, or an error naming `what` (the option or variable it came from) and the allowed names. */
export function parseTargetName(raw: string, what: string): TargetName {
  if (!(TARGET_NAMES as readonly string[]).includes(raw))
    throw new Error(`${what} must be one of ${TARGET_NAMES.join(', ')}, got "${raw}"`);
  return raw as TargetName;
}

/**
 * Settings of the Prism mock that it does not hand out itself: it accepts any credential value, so these are
 * placeholders (not secrets). The mock prints them, and the suite uses them for a mock it did not start.
 */
export const MOCK_PLACEHOLDERS = {
  LP_CLIENT_ID: 'contract-mock-client',
  LP_CLIENT_SECRET: 'contract-mock-secret',
  LP_SUBSCRIPTION_KEY: 'contract-mock-subscription-key',
  LP_SCOPE: 'carriers.milestones',
  LP_REDIRECT_URI: 'http://127.0.0.1:8765/callback',
  LP_FLEET_API_KEY: 'contract-mock-fleet-key',
  // The mock keeps no state, so "writing" a milestone to it is harmless.
  LP_ALLOW_WRITES: '1',
  LP_TEST_LOAD_ID: 'LD-CONTRACT-MOCK',
} as const satisfies Partial<Record<LpVariable, string>>;

/** A variable's value, trimmed; undefined when unset or blank. */
export function readVariable(name: LpVariable | RunVariable, source: NodeJS.ProcessEnv = process.env): string | undefined {
  return source[name]?.trim() || undefined;
}

/**
 * What node runs before a script that runs vitest in its own process (scripts/contract.ts, as package.json's contract
 * scripts start it): the script bundled, without tsx's module hooks (scripts/run-bundled.mjs). Relative to the repo.
 */
export const BUNDLED_SCRIPT: readonly string[] = ['scripts/run-bundled.mjs'];

/** Node's options that make a process or a worker thread write a V8 CPU profile into `dir`; none without one. */
export const cpuProfileFlags = (dir: string | undefined): string[] => (dir ? ['--cpu-prof', `--cpu-prof-dir=${resolve(dir)}`] : []);

/** Node's options that make a process or a worker thread write a V8 CPU profile into LP_CONTRACT_CPU_PROF; none when unset. */
export function cpuProfileOptions(source: NodeJS.ProcessEnv = process.env): string[] {
  return cpuProfileFlags(readVariable('LP_CONTRACT_CPU_PROF', source));
}

/** The target variables that are set (trimmed, blanks dropped). */
export function readTargetVariables(source: NodeJS.ProcessEnv = process.env): Partial<Record<LpVariable, string>> {
  const env: Partial<Record<LpVariable, string>> = {};
  for (const name of LP_VARIABLES) {
    const value = readVariable(name, source);
    if (value) env[name] = value;
  }
  return env;
}

/** True when the variable is set to 1 (the kit's only spelling of "on"). */
export function flagVariable(name: RunVariable, source: NodeJS.ProcessEnv = process.env): boolean {
  return readVariable(name, source) === '1';
}

/** Whether contradicted assumptions fail a run, unless told otherwise: on local targets (the mock and the sandbox
 * implement the specs' assumptions, so a contradiction there is a bug), and wherever LP_STRICT_ASSUMPTIONS=1. The suite
 * and the workflows both read it from here. */
export const strictByDefault = (target: TargetName, source: NodeJS.ProcessEnv = process.env): boolean =>
  target !== 'live' || flagVariable('LP_STRICT_ASSUMPTIONS', source);

/** An integer variable (or its fallback when unset), refusing anything else with a message naming the variable. */
export function integerVariable(name: RunVariable, fallback: number, min: number, source: NodeJS.ProcessEnv = process.env): number {
  const raw = readVariable(name, source);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer of at least ${min}, got "${raw}"`);
  return value;
}

/** Fills in from the repository's `.env` what the environment lacks (Node never overrides a set variable). */
export function loadDotenv(path = join(repoRoot, '.env')): boolean {
  if (!existsSync(path)) return false;
  process.loadEnvFile(path);
  return true;
}

/** The environment for a child server: the caller's own LP_* settings would change its defaults, so none pass. */
export function withoutLpVariables(source: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(source)) if (!name.startsWith('LP_')) env[name] = value;
  return env;
}

/** The `LP_NAME=value` lines of a server's output (dotenv quoting and trailing comments understood), other lines ignored. */
export function parseLpLines(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (!/^LP_\w+=/.test(line)) continue;
    Object.assign(env, parseEnv(line));
  }
  return env;
}
