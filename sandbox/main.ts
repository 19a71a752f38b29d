// CLI of the stateful sandbox: starts the server, prints the LP_* dotenv lines to use it
// (credentials from your environment masked) and `sandbox ready`; logs go to stderr.
// Node 20 reads `--env-file` anywhere in argv as its own option, so start this file with
// `node --import tsx -- sandbox/main.ts` (what `npm run sandbox` does) when passing --env-file.
import { ensureBundles } from '../spec-core/bundles.ts';
import { integerOption as readInteger, isMainModule, listenFailure, listenOptions, parseCommandLine, usageError } from '../config/cli.ts';
import { readVariable } from '../config/environment.ts';
import { DEFAULT_MAX_CODES } from './authorization-codes.ts';
import { MAX_OFFSET_SECONDS } from './clock.ts';
import { dotenvLines, printableDotenv, readCredentials, writeEnvFile } from './config.ts';
import { DEFAULT_MAX_EVENTS } from './event-store.ts';
import { DEFAULT_VEHICLE_COUNT } from './fleet-fixtures.ts';
import { MUTATIONS, parseMutation, type MutationId } from './mutations.ts';
import { serveSwitchable, type SwitchableSandbox } from './mutation-switch.ts';
import { buildSandbox, DEFAULT_CONNECTION_LIMITS, type Sandbox } from './server.ts';
import { DEFAULT_MAX_TOKENS } from './token-store.ts';

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

const CLI = {
  command: 'npm run sandbox --',
  summary:
    'Runs the stateful sandbox of the three APIs on one loopback port and prints the LP_* settings to use it (credentials ' +
    'from your environment masked) followed by "sandbox ready"; logs go to stderr.',
  options: {
    ...listenOptions('LP_SANDBOX_PORT', 4020),
    'env-file': {
      type: 'string',
      value: 'PATH',
      description: 'Also write the LP_* settings, credentials in full, to this file (mode 0600).',
    },
    data: { type: 'string', value: 'FILE', description: 'Keep milestone events in this JSON-lines file across restarts.' },
    vehicles: { type: 'string', value: 'N', description: `Vehicles in the fleet data (default ${DEFAULT_VEHICLE_COUNT}).` },
    'max-events': { type: 'string', value: 'N', description: `Milestone events kept (default ${DEFAULT_MAX_EVENTS}).` },
    'max-codes': { type: 'string', value: 'N', description: `Authorization codes kept (default ${DEFAULT_MAX_CODES}).` },
    'max-tokens': { type: 'string', value: 'N', description: `Tokens kept (default ${DEFAULT_MAX_TOKENS}).` },
    'headers-timeout': {
      type: 'string',
      value: 'S',
      description: `Seconds to receive a request's headers (default ${DEFAULT_CONNECTION_LIMITS.headersTimeoutMs / 1000}).`,
    },
    'request-timeout': {
      type: 'string',
      value: 'S',
      description: `Seconds to receive a whole request (default ${DEFAULT_CONNECTION_LIMITS.requestTimeoutMs / 1000}).`,
    },
    'idle-timeout': {
      type: 'string',
      value: 'S',
      description: `Seconds an idle connection stays open (default ${DEFAULT_CONNECTION_LIMITS.idleTimeoutMs / 1000}).`,
    },
    'max-connections': {
      type: 'string',
      value: 'N',
      description: `Open connections at most (default ${DEFAULT_CONNECTION_LIMITS.maxConnections}).`,
    },
    'clock-offset': {
      type: 'string',
      value: 'SECONDS',
      description: `Start with the clock moved by this many seconds (within +/- ${MAX_OFFSET_SECONDS}).`,
    },
    mutation: {
      type: 'string',
      value: 'ID',
      description: 'Seed one contract violation (see --list-mutations), to prove the contract suite catches it.',
    },
    'mutations-switchable': { type: 'boolean', description: 'POST /_sandbox/mutation switches the mutation (npm run contract:mutation).' },
    'list-mutations': { type: 'boolean', description: 'Print the mutations as JSON and exit.' },
    'log-level': { type: 'string', value: 'LEVEL', description: `One of ${LOG_LEVELS.join(', ')}.`, default: 'info' },
  },
  notes: ['The credentials are LP_CLIENT_ID, LP_CLIENT_SECRET, ... from your environment, or public sandbox defaults.'],
} as const;

function fail(message: string): never {
  usageError(CLI, message);
}

function integerOption(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  return raw === undefined ? fallback : readInteger(CLI, name, raw, min, max);
}

function readOptions() {
  return parseCommandLine(CLI).values;
}

type Options = ReturnType<typeof readOptions>;

async function main(): Promise<void> {
  const options = readOptions();
  if (options['list-mutations']) {
    process.stdout.write(`${JSON.stringify(MUTATIONS, null, 2)}\n`);
    return;
  }
  const port = integerOption('port', options.port ?? readVariable('LP_SANDBOX_PORT'), 4020, 0, 65535);
  const settings = sandboxSettings(options);
  let sandbox: ReturnType<typeof buildSandbox>;
  try {
    sandbox = buildSandbox({ ...settings, mutation: parseMutation(options.mutation) });
  } catch (error) {
    fail((error as Error).message);
  }
  const { app, context, foreignVehicleNumber, foreignCustomerNumber } = sandbox;

  // --mutations-switchable (for contract:mutation): one port where POST /_sandbox/mutation swaps in a fresh sandbox
  // built with the same settings and credentials, started with another mutation.
  // The spec validators are compiled once: they depend on the bundles only.
  const rebuild = (mutation: MutationId | undefined) => buildSandbox({ ...settings, validators: context.validators, mutation });
  const switchable = options['mutations-switchable']
    ? await serveSwitchable(rebuild, sandbox, { ...DEFAULT_CONNECTION_LIMITS, ...settings.connections })
    : undefined;
  stopOnSignals(app, context, switchable);

  const host = options.host ?? '127.0.0.1';
  try {
    if (switchable) await switchable.listen(port, host);
    else await app.listen({ port, host });
  } catch (error) {
    // A busy port is the user's to fix: one line naming --port, no stack.
    process.stderr.write(`${listenFailure('sandbox', host, port, error as NodeJS.ErrnoException)}\n`);
    context.logStream.flush();
    process.exit(1);
  }
  const address = (switchable?.server ?? app.server).address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const lines = dotenvLines(`http://${urlHost}:${actualPort}`, context.credentials, {
    vehicleNumber: foreignVehicleNumber,
    customerNumber: foreignCustomerNumber,
  });
  if (options['env-file']) writeEnvFile(options['env-file'], lines);
  const listening = { vehicles: settings.vehicleCount, mutation: context.mutation ?? null, envFile: options['env-file'] ?? null };
  app.log.info(listening, 'sandbox listening');
  process.stdout.write(`${printableDotenv(lines)}\nsandbox ready\n`);
}

/** Everything but the mutation, from the options (refused clearly when invalid): a sandbox rebuilt by a switch gets the
 * same settings as the first one. Builds the bundles on a fresh checkout. */
function sandboxSettings(options: Options) {
  const vehicleCount = integerOption('vehicles', options.vehicles, DEFAULT_VEHICLE_COUNT, 2, 1_000_000);
  const clockOffset = options['clock-offset'] === undefined ? 0 : Number(options['clock-offset']);
  if (!Number.isFinite(clockOffset) || Math.abs(clockOffset) > MAX_OFFSET_SECONDS)
    fail(`--clock-offset must be a number of seconds within +/- ${MAX_OFFSET_SECONDS}, got "${options['clock-offset']}"`);
  const logLevel = options['log-level'] ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) fail(`--log-level must be one of ${LOG_LEVELS.join(', ')}`);

  const seconds = (name: 'headers-timeout' | 'request-timeout' | 'idle-timeout', fallbackMs: number) =>
    integerOption(name, options[name], fallbackMs / 1000, 1, 3600) * 1000;
  const connections = {
    headersTimeoutMs: seconds('headers-timeout', DEFAULT_CONNECTION_LIMITS.headersTimeoutMs),
    requestTimeoutMs: seconds('request-timeout', DEFAULT_CONNECTION_LIMITS.requestTimeoutMs),
    idleTimeoutMs: seconds('idle-timeout', DEFAULT_CONNECTION_LIMITS.idleTimeoutMs),
    maxConnections: integerOption('max-connections', options['max-connections'], DEFAULT_CONNECTION_LIMITS.maxConnections, 1, 100_000),
  };
  if (connections.headersTimeoutMs > connections.requestTimeoutMs) fail('--headers-timeout must not exceed --request-timeout');

  // The sandbox validates against the bundles; produce them on a fresh checkout.
  try {
    ensureBundles((line) => process.stderr.write(`sandbox: ${line}\n`));
  } catch (error) {
    fail((error as Error).message);
  }
  if (options['mutations-switchable'] && options.data) {
    fail(
      '--data cannot be combined with --mutations-switchable: every switch starts a sandbox from empty state, which a data file would refill',
    );
  }
  return {
    credentials: readCredentials(process.env),
    vehicleCount,
    clockOffsetSeconds: clockOffset,
    dataFile: options.data,
    maxEvents: integerOption('max-events', options['max-events'], DEFAULT_MAX_EVENTS, 1, 100_000_000),
    maxCodes: integerOption('max-codes', options['max-codes'], DEFAULT_MAX_CODES, 1, 10_000_000),
    maxTokens: integerOption('max-tokens', options['max-tokens'], DEFAULT_MAX_TOKENS, 1, 10_000_000),
    logLevel,
    connections,
  };
}

/**
 * SIGINT and SIGTERM close the listener and the log, once: a Ctrl-C in a terminal arrives twice (from the terminal, and
 * from npm, which passes both signals on to its script). package.json starts this file with `exec node`, so the script
 * npm signals is this process: under a `sh -c` the shell would die of the signal and leave the sandbox on its port.
 */
function stopOnSignals(app: Sandbox['app'], context: Sandbox['context'], switchable: SwitchableSandbox | undefined): void {
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      context.logStream.flush();
      process.exit(1);
    }, 5000);
    force.unref();
    void (switchable ? switchable.close() : app.close()).then(() => {
      context.logStream.flush();
      process.exit(0);
    });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

if (isMainModule(import.meta.url)) await main();
