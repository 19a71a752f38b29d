// CLI of the stateful sandbox: starts the server, prints the LP_* dotenv lines to use it
// (credentials from your environment masked) and `sandbox ready`; logs go to stderr.
// Node 20 reads `--env-file` anywhere in argv as its own option, so start this file with
// `node --import tsx -- sandbox/main.ts` (what `npm run sandbox` does) when passing --env-file.
import { parseArgs } from 'node:util';
import { ensureBundles } from '../spec-core/bundles.ts';
import { DEFAULT_MAX_CODES } from './authorization-codes.ts';
import { MAX_OFFSET_SECONDS } from './clock.ts';
import { dotenvLines, printableDotenv, readCredentials, writeEnvFile } from './config.ts';
import { DEFAULT_MAX_EVENTS } from './event-store.ts';
import { DEFAULT_VEHICLE_COUNT } from './fleet-fixtures.ts';
import { MUTATIONS, parseMutation, type MutationId } from './mutations.ts';
import { serveSwitchable } from './mutation-switch.ts';
import { buildSandbox, DEFAULT_CONNECTION_LIMITS } from './server.ts';
import { DEFAULT_MAX_TOKENS } from './token-store.ts';

const USAGE =
  'usage: tsx sandbox/main.ts [--port N] [--host 127.0.0.1] [--env-file PATH] [--data FILE] [--vehicles N] ' +
  '[--max-events N] [--max-codes N] [--max-tokens N] [--headers-timeout S] [--request-timeout S] [--idle-timeout S] [--max-connections N] ' +
  '[--clock-offset SECONDS] [--mutation ID] [--mutations-switchable] [--list-mutations] [--log-level info|warn|silent]';

function fail(message: string): never {
  process.stderr.write(`sandbox: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function integerOption(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) fail(`--${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  return value;
}

function readOptions() {
  try {
    return parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string', default: '127.0.0.1' },
        'env-file': { type: 'string' },
        data: { type: 'string' },
        'max-events': { type: 'string' },
        'max-codes': { type: 'string' },
        'max-tokens': { type: 'string' },
        'headers-timeout': { type: 'string' },
        'request-timeout': { type: 'string' },
        'idle-timeout': { type: 'string' },
        'max-connections': { type: 'string' },
        vehicles: { type: 'string' },
        'clock-offset': { type: 'string' },
        mutation: { type: 'string' },
        'list-mutations': { type: 'boolean', default: false },
        'mutations-switchable': { type: 'boolean', default: false },
        'log-level': { type: 'string', default: 'info' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    fail((error as Error).message);
  }
}

async function main(): Promise<void> {
  const options = readOptions();
  if (options['list-mutations']) {
    process.stdout.write(`${JSON.stringify(MUTATIONS, null, 2)}\n`);
    return;
  }
  const port = integerOption('port', options.port ?? process.env.LP_SANDBOX_PORT, 4020, 0, 65535);
  const vehicleCount = integerOption('vehicles', options.vehicles, DEFAULT_VEHICLE_COUNT, 2, 1_000_000);
  const clockOffset = options['clock-offset'] === undefined ? 0 : Number(options['clock-offset']);
  if (!Number.isFinite(clockOffset) || Math.abs(clockOffset) > MAX_OFFSET_SECONDS) fail(`--clock-offset must be a number of seconds within +/- ${MAX_OFFSET_SECONDS}, got "${options['clock-offset']}"`);
  const levels = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];
  if (!levels.includes(options['log-level'])) fail(`--log-level must be one of ${levels.join(', ')}`);

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
    fail('--data cannot be combined with --mutations-switchable: every switch starts a sandbox from empty state, which a data file would refill');
  }
  // Everything but the mutation: a sandbox rebuilt by a switch gets the same settings as the first one.
  const settings = {
    credentials: readCredentials(process.env),
    vehicleCount,
    clockOffsetSeconds: clockOffset,
    dataFile: options.data,
    maxEvents: integerOption('max-events', options['max-events'], DEFAULT_MAX_EVENTS, 1, 100_000_000),
    maxCodes: integerOption('max-codes', options['max-codes'], DEFAULT_MAX_CODES, 1, 10_000_000),
    maxTokens: integerOption('max-tokens', options['max-tokens'], DEFAULT_MAX_TOKENS, 1, 10_000_000),
    logLevel: options['log-level'],
    connections,
  };
  let sandbox;
  try {
    sandbox = buildSandbox({ ...settings, mutation: parseMutation(options.mutation) });
  } catch (error) {
    fail((error as Error).message);
  }
  const { app, context, foreignVehicleNumber, foreignCustomerNumber } = sandbox;

  // --mutations-switchable (for contract:mutation): one port where POST /_sandbox/mutation swaps in a fresh sandbox
  // built with the same settings and credentials, seeded with another mutation.
  // The spec validators are compiled once: they depend on the bundles only.
  const rebuild = (mutation: MutationId | undefined) => buildSandbox({ ...settings, validators: context.validators, mutation });
  const switchable = options['mutations-switchable'] ? await serveSwitchable(rebuild, sandbox, { ...DEFAULT_CONNECTION_LIMITS, ...connections }) : undefined;

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

  if (switchable) await switchable.listen(port, options.host);
  else await app.listen({ port, host: options.host });
  const address = (switchable?.server ?? app.server).address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const lines = dotenvLines(`http://${host}:${actualPort}`, context.credentials, {
    vehicleNumber: foreignVehicleNumber,
    customerNumber: foreignCustomerNumber,
  });
  if (options['env-file']) writeEnvFile(options['env-file'], lines);
  app.log.info({ vehicles: vehicleCount, mutation: context.mutation ?? null, envFile: options['env-file'] ?? null }, 'sandbox listening');
  process.stdout.write(`${printableDotenv(lines)}\nsandbox ready\n`);
}

await main();
