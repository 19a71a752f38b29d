// The one resolver from a target name (mock, sandbox, live) plus options to the LP_* settings a client or the contract
// suite uses, starting the server behind the target when there is one. Used by contract, dredd, the benchmarks and the
// tests that need a running mock or sandbox.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import {
  loadDotenv,
  type LpVariable,
  MOCK_PLACEHOLDERS,
  readTargetVariables,
  readVariable,
  type TargetName,
} from '../config/environment.ts';
import { startServer, type RunningServer } from './processes.ts';

export type TargetEnv = Partial<Record<LpVariable, string>>;

/** The command-line options of every script that runs against a target (config/cli.ts option specs). */
export const TARGET_CLI_OPTIONS = {
  target: {
    type: 'string',
    value: 'mock|sandbox|live',
    default: 'mock',
    description: 'mock and sandbox are started here; live reads the LP_* variables (and .env).',
  },
  mutation: {
    type: 'string',
    value: 'ID',
    description: 'With --target sandbox: start it with this injected contract violation (npm run sandbox -- --list-mutations).',
  },
} as const;

export interface ResolvedTarget {
  name: TargetName;
  env: TargetEnv;
  /** What was done to get it, for a log line: "started the mock", "the mock already running at ...", "LP_* from .env". */
  source: string;
  /** Stops the server started for it (none for live or a reused mock). */
  stop(): Promise<void>;
}

export interface TargetOptions {
  /** Sandbox only: the mutation, an injected contract violation (contract:mutation, the suite's self-tests). */
  mutation?: string;
  /** Sandbox only: POST /_sandbox/mutation may switch the mutation. */
  switchable?: boolean;
  /** Sandbox only: extra command-line arguments, e.g. --vehicles N or --log-level warn. */
  sandboxArgs?: string[];
  /**
   * Sandbox only: settings it reads from LP_* variables instead of its defaults, e.g. an LP_REDIRECT_URI on a free port
   * for a run that receives the redirect itself (contract:workflows), so that two such runs never share a port.
   */
  sandboxEnv?: Record<string, string>;
  /** Mock only: extra command-line arguments, e.g. --dynamic. */
  mockArgs?: string[];
  /** Mock only: reuse a mock already answering at LP_BASE_URL instead of starting one (npm run contract). */
  reuseRunningMock?: boolean;
  /**
   * The settings live reads its LP_* variables from, and a running mock is looked for at (their LP_BASE_URL), when the
   * caller has read them already (npm run contract). Default: the environment, and `.env` for live.
   */
  settings?: TargetEnv;
  readyTimeoutMs?: number;
}

/** A started mock or sandbox: its LP_* settings and how to stop it. */
export type TargetServer = Omit<RunningServer, 'stop'> & { stop(): Promise<void> };

function asTargetServer(server: RunningServer): TargetServer {
  return { ...server, stop: async () => void (await server.stop()) };
}

/** `npm run mock` on a free port; its env holds the base URLs and the placeholder credentials it prints. */
export async function startMock(options: Pick<TargetOptions, 'mockArgs' | 'readyTimeoutMs'> = {}): Promise<TargetServer> {
  const args = ['--port', '0', ...(options.mockArgs ?? [])];
  return asTargetServer(
    await startServer({ script: 'scripts/mock.ts', args, ready: 'mock ready', readyTimeoutMs: options.readyTimeoutMs }),
  );
}

/**
 * `npm run sandbox` on a free port with its default credentials. Its env is read from the env file it writes (stdout
 * masks credentials that came from the environment), kept in a private temp dir that is removed on stop.
 */
export function startSandbox(
  options: Pick<TargetOptions, 'mutation' | 'switchable' | 'sandboxArgs' | 'sandboxEnv' | 'readyTimeoutMs'> = {},
): Promise<TargetServer> {
  const dir = mkdtempSync(join(tmpdir(), 'lp-sandbox-'));
  const envFile = join(dir, 'sandbox.env');
  // Node 20 takes "--env-file" anywhere on its command line for its own option and fails when the file does not
  // exist yet, so the file is created empty first; the sandbox then writes the settings into it.
  writeFileSync(envFile, '', { mode: 0o600 });
  const args = ['--port', '0', '--env-file', envFile, ...(options.mutation ? ['--mutation', options.mutation] : [])];
  if (options.switchable) args.push('--mutations-switchable');
  args.push(...(options.sandboxArgs ?? []));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  return startServer({
    script: 'sandbox/main.ts',
    args,
    ready: 'sandbox ready',
    readyTimeoutMs: options.readyTimeoutMs,
    ...(options.sandboxEnv ? { env: options.sandboxEnv } : {}),
    onStopped: removeDir,
  }).then(
    (server) => {
      server.env = parseEnv(readFileSync(envFile, 'utf8')) as Record<string, string>;
      return asTargetServer(server);
    },
    (error: unknown) => {
      removeDir();
      throw error;
    },
  );
}

/** Is something answering at this URL (any HTTP status counts)? */
async function answers(url: string | undefined): Promise<boolean> {
  if (!url) return false;
  try {
    await fetch(url, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

/**
 * Settings for a target: `live` reads LP_* from the environment and `.env` (and refuses a run with no address at all,
 * which would skip every check and pass); `mock` and `sandbox` start their server on a free port.
 */
export async function resolveTarget(name: TargetName, options: TargetOptions = {}): Promise<ResolvedTarget> {
  if (options.mutation !== undefined && name !== 'sandbox') throw new Error('a mutation needs the sandbox target');
  if (name === 'live') {
    const fromFile = options.settings ? false : loadDotenv();
    const env = options.settings ?? readTargetVariables();
    if (!env.LP_BASE_URL && !env.LP_AUTH_URL && !env.LP_FLEET_BASE_URL) {
      throw new Error(
        'target live needs at least one of LP_BASE_URL, LP_AUTH_URL, LP_FLEET_BASE_URL (in the environment or .env; see .env.example)',
      );
    }
    return { name, env, source: fromFile ? 'LP_* from the environment and .env' : 'LP_* from the environment', stop: async () => {} };
  }
  const running = options.settings ? options.settings.LP_BASE_URL : readVariable('LP_BASE_URL');
  if (name === 'mock' && options.reuseRunningMock && (await answers(running))) {
    const env = { ...MOCK_PLACEHOLDERS, LP_BASE_URL: running, LP_AUTH_URL: running, LP_FLEET_BASE_URL: running };
    return { name, env, source: `the mock already running at ${running}`, stop: async () => {} };
  }
  const server = name === 'mock' ? await startMock(options) : await startSandbox(options);
  return { name, env: server.env, source: `started the ${name} on ${new URL(server.env.LP_BASE_URL!).origin}`, stop: server.stop };
}

/**
 * Resolves the target, runs `body` with it and stops whatever was started: at the end, on an error, and on SIGINT or
 * SIGTERM (exit 130). A target that cannot be resolved (live settings missing, a server that would not start) goes to
 * `unresolved`, whose answer is the run's.
 */
export async function withTarget<T>(
  name: TargetName,
  options: TargetOptions,
  body: (target: ResolvedTarget) => Promise<T>,
  unresolved: (error: Error) => T | Promise<T>,
): Promise<T> {
  let server: ResolvedTarget | undefined;
  const stop = async () => {
    const running = server;
    server = undefined;
    await running?.stop();
  };
  const onSignal = () => void stop().then(() => process.exit(130));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, onSignal);
  try {
    try {
      server = await resolveTarget(name, options);
    } catch (error) {
      return await unresolved(error as Error);
    }
    return await body(server);
  } finally {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.off(signal, onSignal);
    await stop();
  }
}
