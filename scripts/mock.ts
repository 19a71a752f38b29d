// Starts Prism over the three bundled specs (joined into one document) on one loopback port,
// prints the LP_* base URLs when it answers, and stops Prism on SIGINT/SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { API_NAMES, repoRoot } from '../spec-core/apis.ts';
import { ensureBundles, loadBundle } from '../spec-core/bundles.ts';
import { HTTP_METHODS } from '../spec-core/http-methods.ts';
import { freePort } from '../tools/free-port.ts';
import { startMockGuard } from '../tools/mock-guard.ts';

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

function fail(message: string): never {
  process.stderr.write(`mock: ${message}\n`);
  process.exit(2);
}

function readOptions() {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string', default: '127.0.0.1' },
        dynamic: { type: 'boolean', default: false },
        seed: { type: 'string' },
      },
      strict: true,
    });
  } catch (error) {
    fail(`${(error as Error).message}\nusage: tsx scripts/mock.ts [--port N] [--host 127.0.0.1] [--dynamic] [--seed S]`);
  }
  const rawPort = parsed.values.port ?? process.env.LP_MOCK_PORT ?? '4010';
  const port = Number(rawPort);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be an integer 0-65535, got "${rawPort}"`);
  return { port, host: parsed.values.host, dynamic: parsed.values.dynamic, seed: parsed.values.seed };
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

async function waitUntilAnswering(baseUrl: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  // Probe one path of each API; any HTTP answer (even 401) means Prism serves it.
  const probes = ['/vehicles', '/token', '/v1/load-milestone-events'];
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Prism exited early with code ${child.exitCode}`);
    try {
      const answers = await Promise.all(
        probes.map((path) => fetch(`${baseUrl}${path}`, { signal: AbortSignal.timeout(2000) }).then((r) => r.status)),
      );
      if (answers.every((status) => status > 0)) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Prism did not answer within ${READY_TIMEOUT_MS / 1000}s`);
}

async function main(): Promise<void> {
  const options = readOptions();
  try {
    ensureBundles((line) => process.stderr.write(`mock: ${line}\n`));
  } catch (error) {
    fail((error as Error).message);
  }
  const documents = API_NAMES.map((api) => loadBundle(api, 'yaml') as OpenApiDocument);
  const workDir = mkdtempSync(join(tmpdir(), 'lp-mock-'));
  const documentPath = join(workDir, 'logistics-partner-api.yaml');
  writeFileSync(documentPath, stringify(joinBundles(documents)));

  // Prism listens on a loopback port of its own; the guard (tools/mock-guard.ts) takes the public one.
  const prismPort = await freePort('127.0.0.1');
  const prismArgs = ['mock', documentPath, '--port', String(prismPort), '--host', '127.0.0.1'];
  // Generated data keeps to the declared properties, so it reads like the real thing.
  if (options.dynamic) prismArgs.push('--dynamic', '--seed', options.seed ?? 'logistics-partner', '--json-schema-faker-fillProperties=false');
  else if (options.seed) prismArgs.push('--seed', options.seed);

  const prism = spawn(process.execPath, [join(repoRoot, 'node_modules/@stoplight/prism-cli/dist/index.js'), ...prismArgs], {
    cwd: repoRoot,
    // Prism's own log goes to our stderr so stdout stays a parseable dotenv block.
    stdio: ['ignore', process.stderr, process.stderr],
  });

  let stopping = false;
  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    const finish = () => {
      rmSync(workDir, { recursive: true, force: true });
      process.exit(code);
    };
    if (prism.exitCode !== null || prism.signalCode !== null) return finish();
    prism.once('exit', finish);
    prism.kill('SIGTERM');
    // Prism normally exits at once; do not hang forever if it does not.
    setTimeout(() => prism.kill('SIGKILL'), 5000).unref();
  };
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));
  prism.on('exit', (code, signal) => {
    if (stopping) return;
    process.stderr.write(`mock: Prism exited (${signal ?? code})\n`);
    stop(typeof code === 'number' && code !== 0 ? code : 1);
  });

  let port: number;
  try {
    await waitUntilAnswering(`http://127.0.0.1:${prismPort}`, prism);
    const guard = await startMockGuard({ host: options.host, port: options.port, upstreamPort: prismPort });
    port = (guard.address() as AddressInfo).port;
  } catch (error) {
    process.stderr.write(`mock: ${(error as Error).message}\n`);
    return stop(1);
  }
  const baseUrl = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`;
  process.stdout.write(`LP_BASE_URL=${baseUrl}\nLP_AUTH_URL=${baseUrl}\nLP_FLEET_BASE_URL=${baseUrl}\nmock ready\n`);
}

await main();
