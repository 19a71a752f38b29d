// The Prism mock behind `npm run mock`: the three bundles joined into one document, Prism on a loopback port of its
// own, and the guard (tools/mock-guard.ts) on the public port. The public port is taken first, so a busy port fails at
// once with the listen error (Prism would print its whole help text), and readiness is Prism's own "listening" line,
// so no probe request reaches the log a user reads.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { stringify } from 'yaml';
import { API_NAMES, repoRoot } from '../spec-core/apis.ts';
import { loadBundle } from '../spec-core/bundles.ts';
import { HTTP_METHODS } from '../spec-core/http-methods.ts';
import { MOCK_PLACEHOLDERS } from '../config/environment.ts';
import { freePort } from './free-port.ts';
import { startMockGuard } from './mock-guard.ts';
import { stopProcess } from './processes.ts';

export type OpenApiDocument = {
  openapi: string;
  info: Record<string, unknown>;
  servers?: unknown[];
  security?: unknown[];
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
};

const READY_TIMEOUT_MS = 60_000;

export interface MockOptions {
  host: string;
  port: number;
  /** Generated data instead of the documented examples. */
  dynamic?: boolean;
  seed?: string;
  /** Where Prism's log lines go (the script: stderr). */
  log: (line: string) => void;
  /** Aborting it while the mock starts stops what has started and rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface RunningMock {
  baseUrl: string;
  /** Resolves when Prism exits on its own (not after stop()), with its exit code or signal. */
  unexpectedExit: Promise<string>;
  stop(): Promise<void>;
}

/**
 * Joins the bundles into one document for one Prism process. Document-level security
 * (fleet's API-Key) is copied onto each operation that has none, because it would
 * otherwise leak onto the other APIs' operations. Path-level `servers` are dropped:
 * Prism serves every path at the mock's root anyway, and the {auth_url} variables
 * are meaningless to it.
 */
export function joinBundles(documents: OpenApiDocument[]): OpenApiDocument {
  const joined: OpenApiDocument = {
    openapi: '3.1.0',
    info: { title: 'Logistics Partner API (joined for the Prism mock)', version: '1.0.0' },
    paths: {},
    components: {},
  };
  for (const document of documents) {
    for (const [path, item] of Object.entries(document.paths)) {
      if (joined.paths[path]) throw new Error(`path ${path} is defined by two specs`);
      const copy: Record<string, unknown> = { ...item };
      delete copy.servers;
      for (const method of HTTP_METHODS) {
        const operation = copy[method] as Record<string, unknown> | undefined;
        if (operation && operation.security === undefined && document.security) {
          copy[method] = { ...operation, security: document.security };
        }
      }
      joined.paths[path] = copy;
    }
    for (const [section, entries] of Object.entries(document.components ?? {})) {
      joined.components![section] ??= {};
      const target = joined.components![section];
      for (const [name, value] of Object.entries(entries)) {
        // Shared components (Error, SubscriptionKey) are bundled into each spec identically.
        if (target[name] && JSON.stringify(target[name]) !== JSON.stringify(value)) {
          throw new Error(`component ${section}/${name} differs between specs`);
        }
        target[name] = value;
      }
    }
  }
  return joined;
}

/**
 * Forwards Prism's log to stderr line by line and resolves when Prism says it listens: no probe requests, so the log
 * shows only what clients sent.
 */
function untilListening(prism: ChildProcess, log: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let ready = false;
    const timer = setTimeout(
      () => reject(new Error(`Prism did not start listening within ${READY_TIMEOUT_MS / 1000} s`)),
      READY_TIMEOUT_MS,
    );
    for (const stream of [prism.stdout!, prism.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        log(line);
        if (!ready && /Prism is listening on/.test(line)) {
          ready = true;
          clearTimeout(timer);
          resolve();
        }
      });
    }
    prism.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (!ready) reject(new Error(`Prism exited (${signal ?? code}) before it listened`));
    });
  });
}

/** The dotenv block on stdout: everything a client of the mock needs. */
export function settingsLines(baseUrl: string): string {
  const settings = { LP_BASE_URL: baseUrl, LP_AUTH_URL: baseUrl, LP_FLEET_BASE_URL: baseUrl, ...MOCK_PLACEHOLDERS };
  return Object.entries(settings)
    .map(([name, value]) => `${name}=${/^[\w.:/@+-]*$/.test(value) ? value : JSON.stringify(value)}`)
    .join('\n');
}

/**
 * Starts the mock. Rejects with the guard's listen error (a NodeJS.ErrnoException, e.g. EADDRINUSE) before anything
 * else runs, or with Prism's failure to start; everything it started is stopped then.
 */
export async function startPrismMock(options: MockOptions): Promise<RunningMock> {
  const prismPort = await freePort('127.0.0.1');
  const guard = await startMockGuard({ host: options.host, port: options.port, upstreamPort: prismPort });
  const workDir = mkdtempSync(join(tmpdir(), 'lp-mock-'));
  const documentPath = join(workDir, 'logistics-partner-api.yaml');
  const prismArgs = ['mock', documentPath, '--port', String(prismPort), '--host', '127.0.0.1'];
  // Generated data keeps to the declared properties, so it reads like the real thing.
  if (options.dynamic)
    prismArgs.push('--dynamic', '--seed', options.seed ?? 'logistics-partner', '--json-schema-faker-fillProperties=false');
  else if (options.seed) prismArgs.push('--seed', options.seed);

  let prism: ChildProcess | undefined;
  let stopping = false;
  const stop = async () => {
    stopping = true;
    guard.closeAllConnections();
    guard.close();
    if (prism) await stopProcess(prism);
    rmSync(workDir, { recursive: true, force: true });
  };
  try {
    writeFileSync(documentPath, stringify(joinBundles(API_NAMES.map((api) => loadBundle(api, 'yaml') as OpenApiDocument))));
    options.signal?.throwIfAborted();
    prism = spawn(process.execPath, [join(repoRoot, 'node_modules/@stoplight/prism-cli/dist/index.js'), ...prismArgs], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const child = prism;
    // An abort ends Prism, which fails untilListening below; the catch then stops the rest.
    const abort = () => child.kill('SIGTERM');
    options.signal?.addEventListener('abort', abort, { once: true });
    try {
      await untilListening(prism, options.log);
    } finally {
      options.signal?.removeEventListener('abort', abort);
    }
    options.signal?.throwIfAborted();
  } catch (error) {
    await stop();
    throw options.signal?.aborted ? options.signal.reason : error;
  }
  const started = prism;
  const unexpectedExit = new Promise<string>((resolve) =>
    started.once('exit', (code, signal) => {
      if (!stopping) resolve(String(signal ?? code));
    }),
  );
  const port = (guard.address() as AddressInfo).port;
  return { baseUrl: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`, unexpectedExit, stop };
}
