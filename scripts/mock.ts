// Starts Prism over the three bundled specs (joined into one document) behind a guard on one loopback port, prints
// the LP_* lines a client needs (base URLs and the placeholder credentials Prism accepts) when it is ready, and stops
// Prism on SIGINT/SIGTERM.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { stringify } from 'yaml';
import { API_NAMES, repoRoot } from '../spec-core/apis.ts';
import { ensureBundles, loadBundle } from '../spec-core/bundles.ts';
import { HTTP_METHODS } from '../spec-core/http-methods.ts';
import { integerOption, isMainModule, listenFailure, parseCommandLine } from '../tools/cli.ts';
import { MOCK_PLACEHOLDERS, readVariable } from '../tools/environment.ts';
import { freePort } from '../tools/free-port.ts';
import { startMockGuard } from '../tools/mock-guard.ts';
import { stopProcess } from '../tools/processes.ts';

type OpenApiDocument = {
  openapi: string;
  info: Record<string, unknown>;
  servers?: unknown[];
  security?: unknown[];
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
};

const READY_TIMEOUT_MS = 60_000;

const CLI = {
  command: 'npm run mock --',
  summary:
    'Serves the three APIs from their specs with Prism on one loopback port, and prints the LP_* settings a client ' +
    'uses (base URLs and placeholder credentials: Prism accepts any value) followed by "mock ready".',
  options: {
    port: { type: 'string', value: 'N', description: 'Port to listen on; 0 picks a free one. Default: LP_MOCK_PORT or 4010.' },
    host: { type: 'string', value: 'HOST', description: 'Address to listen on.', default: '127.0.0.1' },
    dynamic: { type: 'boolean', description: 'Answer with generated data instead of the documented examples.' },
    seed: { type: 'string', value: 'S', description: 'Seed of the generated data (with --dynamic; default logistics-partner).' },
  },
  notes: ['Prism\'s request log goes to stderr; stdout is a dotenv block you can source or save as .env.'],
} as const;

function fail(message: string): never {
  process.stderr.write(`mock: ${message}\n`);
  process.exit(1);
}

function readOptions() {
  const { values } = parseCommandLine(CLI);
  const port = integerOption(CLI, 'port', values.port ?? readVariable('LP_MOCK_PORT') ?? '4010', 0, 65535);
  return { port, host: values.host ?? '127.0.0.1', dynamic: values.dynamic === true, seed: values.seed };
}

/**
 * Joins the bundles into one document for one Prism process. Document-level security
 * (fleet's API-Key) is copied onto each operation that has none, because it would
 * otherwise leak onto the other APIs' operations. Path-level `servers` are dropped:
 * Prism serves every path at the mock's root anyway, and the {auth_url} variables
 * are meaningless to it.
 */
function joinBundles(documents: OpenApiDocument[]): OpenApiDocument {
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
      const target = (joined.components![section] ??= {});
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
function untilListening(prism: ReturnType<typeof spawn>): Promise<void> {
  return new Promise((resolve, reject) => {
    let ready = false;
    const timer = setTimeout(() => reject(new Error(`Prism did not start listening within ${READY_TIMEOUT_MS / 1000} s`)), READY_TIMEOUT_MS);
    for (const stream of [prism.stdout!, prism.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        process.stderr.write(`${line}\n`);
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
function settingsLines(baseUrl: string): string {
  const settings = { LP_BASE_URL: baseUrl, LP_AUTH_URL: baseUrl, LP_FLEET_BASE_URL: baseUrl, ...MOCK_PLACEHOLDERS };
  return Object.entries(settings)
    .map(([name, value]) => `${name}=${/^[\w.:/@+-]*$/.test(value) ? value : JSON.stringify(value)}`)
    .join('\n');
}

async function main(): Promise<void> {
  const options = readOptions();
  // The public port first: a busy port is one line, before Prism starts (Prism would print its whole help text).
  let guard: Server;
  const prismPort = await freePort('127.0.0.1');
  try {
    guard = await startMockGuard({ host: options.host, port: options.port, upstreamPort: prismPort });
  } catch (error) {
    fail(listenFailure('mock', options.host, options.port, error as NodeJS.ErrnoException).replace(/^mock: /, ''));
  }
  const port = (guard.address() as AddressInfo).port;
  try {
    ensureBundles((line) => process.stderr.write(`mock: ${line}\n`));
  } catch (error) {
    fail((error as Error).message);
  }
  const documents = API_NAMES.map((api) => loadBundle(api, 'yaml') as OpenApiDocument);
  const workDir = mkdtempSync(join(tmpdir(), 'lp-mock-'));
  const documentPath = join(workDir, 'logistics-partner-api.yaml');
  writeFileSync(documentPath, stringify(joinBundles(documents)));

  // Prism listens on a loopback port of its own; the guard (tools/mock-guard.ts) holds the public one.
  const prismArgs = ['mock', documentPath, '--port', String(prismPort), '--host', '127.0.0.1'];
  // Generated data keeps to the declared properties, so it reads like the real thing.
  if (options.dynamic) prismArgs.push('--dynamic', '--seed', options.seed ?? 'logistics-partner', '--json-schema-faker-fillProperties=false');
  else if (options.seed) prismArgs.push('--seed', options.seed);

  const prism = spawn(process.execPath, [join(repoRoot, 'node_modules/@stoplight/prism-cli/dist/index.js'), ...prismArgs], {
    cwd: repoRoot,
    // Prism's log is forwarded to our stderr so stdout stays a parseable dotenv block.
    stdio: ['ignore', 'pipe', 'pipe'],
  });

  let stopping = false;
  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    guard.closeAllConnections();
    guard.close();
    void stopProcess(prism).then(() => {
      rmSync(workDir, { recursive: true, force: true });
      process.exit(code);
    });
  };
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));
  const listening = untilListening(prism);
  prism.on('exit', (code, signal) => {
    if (stopping) return;
    process.stderr.write(`mock: Prism exited (${signal ?? code})\n`);
    stop(typeof code === 'number' && code !== 0 ? code : 1);
  });
  try {
    await listening;
  } catch (error) {
    process.stderr.write(`mock: ${(error as Error).message}\n`);
    return stop(1);
  }
  const baseUrl = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`;
  process.stdout.write(`${settingsLines(baseUrl)}\nmock ready\n`);
}

if (isMainModule(import.meta.url)) await main();
