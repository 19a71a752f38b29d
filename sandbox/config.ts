// The sandbox's credentials and settings: the same LP_* variables the live contract suite
// reads, with public sandbox-only defaults, and how they are printed (masked) and saved.
import { chmodSync, writeFileSync } from 'node:fs';
import { type LpVariable, readVariable, SECRET_VARIABLES } from '../config/environment.ts';

/** Public test values used when an LP_* variable is unset. They are not secrets. */
export const SANDBOX_DEFAULTS = {
  LP_CLIENT_ID: 'sandbox-client',
  LP_CLIENT_SECRET: 'sandbox-client-secret',
  LP_SUBSCRIPTION_KEY: 'sandbox-subscription-key',
  LP_SCOPE: 'carriers.milestones',
  LP_REDIRECT_URI: 'http://127.0.0.1:8765/callback',
  LP_FLEET_API_KEY: 'sandbox-fleet-key-lessee-a',
  LP_TEST_LOAD_ID: 'LD-SANDBOX-0001',
} as const;

/** The fleet key of the second lessee, whose vehicles the first lessee must never see. */
export const OTHER_LESSEE_API_KEY = 'sandbox-fleet-key-lessee-b';

/** Variables whose values are credentials: masked on stdout and in logs when they came from the environment. */
const CREDENTIAL_VARIABLES = new Set<string>(SECRET_VARIABLES);

type ConfiguredVariable = keyof typeof SANDBOX_DEFAULTS & LpVariable;

export type SandboxCredentials = {
  clientId: string;
  clientSecret: string;
  subscriptionKey: string;
  /** Scopes the test client may request (LP_SCOPE, space-separated). */
  scopes: string[];
  redirectUri: string;
  fleetApiKey: string;
  testLoadId: string;
  /** Which variables were taken from the caller's environment rather than defaulted. */
  fromEnvironment: ReadonlySet<ConfiguredVariable>;
};

export function readCredentials(env: NodeJS.ProcessEnv): SandboxCredentials {
  const fromEnvironment = new Set<ConfiguredVariable>();
  const value = (name: ConfiguredVariable): string => {
    const given = readVariable(name, env);
    if (given !== undefined) {
      fromEnvironment.add(name);
      return given;
    }
    return SANDBOX_DEFAULTS[name];
  };
  const credentials: SandboxCredentials = {
    clientId: value('LP_CLIENT_ID'),
    clientSecret: value('LP_CLIENT_SECRET'),
    subscriptionKey: value('LP_SUBSCRIPTION_KEY'),
    scopes: value('LP_SCOPE').split(' ').filter(Boolean),
    redirectUri: value('LP_REDIRECT_URI'),
    fleetApiKey: value('LP_FLEET_API_KEY'),
    testLoadId: value('LP_TEST_LOAD_ID'),
    fromEnvironment,
  };
  try {
    new URL(credentials.redirectUri);
  } catch {
    throw new Error('LP_REDIRECT_URI must be an absolute URL');
  }
  if (credentials.fleetApiKey === OTHER_LESSEE_API_KEY) {
    throw new Error("LP_FLEET_API_KEY must differ from the sandbox's second-lessee key");
  }
  return credentials;
}

export type DotenvLine = { name: string; value: string; fromEnvironment: boolean };

/** Every LP_* line the live contract suite needs to run against this sandbox. */
export function dotenvLines(
  origin: string,
  credentials: SandboxCredentials,
  foreign: { vehicleNumber: string; customerNumber: string },
): DotenvLine[] {
  const configured = (name: ConfiguredVariable, value: string): DotenvLine => ({
    name,
    value,
    fromEnvironment: credentials.fromEnvironment.has(name),
  });
  const own = (name: string, value: string): DotenvLine => ({ name, value, fromEnvironment: false });
  return [
    own('LP_BASE_URL', `${origin}/svc`),
    own('LP_AUTH_URL', `${origin}/idp`),
    own('LP_FLEET_BASE_URL', `${origin}/fleet`),
    configured('LP_CLIENT_ID', credentials.clientId),
    configured('LP_CLIENT_SECRET', credentials.clientSecret),
    configured('LP_SUBSCRIPTION_KEY', credentials.subscriptionKey),
    configured('LP_SCOPE', credentials.scopes.join(' ')),
    configured('LP_REDIRECT_URI', credentials.redirectUri),
    configured('LP_FLEET_API_KEY', credentials.fleetApiKey),
    own('LP_FLEET_FOREIGN_VEHICLE_NUMBER', foreign.vehicleNumber),
    own('LP_FLEET_FOREIGN_CUSTOMER_NUMBER', foreign.customerNumber),
    own('LP_ALLOW_WRITES', '1'),
    configured('LP_TEST_LOAD_ID', credentials.testLoadId),
  ];
}

/** dotenv text for stdout: credentials from the caller's environment are masked. */
export function printableDotenv(lines: DotenvLine[]): string {
  return lines
    .map((line) =>
      line.fromEnvironment && CREDENTIAL_VARIABLES.has(line.name)
        ? `${line.name}=***  # from your environment`
        : `${line.name}=${quoteIfNeeded(line.value)}`,
    )
    .join('\n');
}

/** Writes the full dotenv (credentials included) readable by the owner only. */
export function writeEnvFile(path: string, lines: DotenvLine[]): void {
  writeFileSync(path, `${lines.map((line) => `${line.name}=${quoteIfNeeded(line.value)}`).join('\n')}\n`, { mode: 0o600 });
  chmodSync(path, 0o600); // writeFileSync keeps the mode of an existing file
}

function quoteIfNeeded(value: string): string {
  return /^[\w.:/@+-]*$/.test(value) ? value : JSON.stringify(value);
}
