// `npm run pack:check`: builds and packs the package, checks the tarball's contents, runs publint and
// @arethetypeswrong/cli, then installs the tarball in a temporary project, compiles a strict consumer and runs it
// against a Prism mock of the fleet spec (started here on a free loopback port, and always stopped).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from './free-port.ts';

const root = resolve(import.meta.dirname, '..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const ALLOWED = [/^dist\/client\/.+\.(js|d\.ts)$/, /^dist\/openapi\/(token|carriers|fleet)\.(yaml|json)$/, /^README\.md$/, /^package\.json$/];
const REQUIRED = ['package.json', 'README.md', 'dist/client/src/index.js', 'dist/client/src/index.d.ts', 'dist/client/src/fleet.d.ts', 'dist/openapi/fleet.yaml'];

function run(step: string, command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; stdoutOnly?: boolean } = {}): string {
  console.log(`\n=== ${step}`);
  const result = spawnSync(command, args, { cwd: options.cwd ?? root, env: options.env ?? process.env, encoding: 'utf8', timeout: 300_000 });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.split('\n').filter((line) => !line.includes('Unknown user config "nodedir"')).join('\n');
  if (result.status !== 0) {
    console.error(output);
    throw new Error(`pack:check: step "${step}" failed (exit ${result.status ?? result.signal})`);
  }
  return options.stdoutOnly ? (result.stdout ?? '') : output;
}

async function waitForMock(url: string, prism: ChildProcess, deadlineMs: number): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  for (let attempt = 0; attempt < 300 && Date.now() < deadline; attempt += 1) {
    if (prism.exitCode !== null) throw new Error(`pack:check: Prism exited early (code ${prism.exitCode})`);
    try {
      const response = await fetch(url, { headers: { 'API-Key': 'smoke-test-key' }, signal: AbortSignal.timeout(1000) });
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`pack:check: Prism did not answer within ${deadlineMs} ms`);
}

const CONSUMER = `// Strict consumer of the packed package: compiles against its public types and calls the mock.
import { ApiError, createLogisticsClient, createTokenProvider, buildAuthorizationUrl, parseAuthorizationCallback,
  exchangeAuthorizationCode, createTokenClient, createCarriersClient, createFleetClient } from '@logistics-partner/api';
import type { components as FleetComponents, paths as FleetPaths } from '@logistics-partner/api/fleet';
import type { paths as TokenPaths } from '@logistics-partner/api/token';
import type { paths as CarriersPaths } from '@logistics-partner/api/carriers';

declare const process: { env: Record<string, string | undefined>; exitCode?: number };
type Vehicle = FleetComponents['schemas']['Vehicle'];
const surface = [createTokenProvider, buildAuthorizationUrl, parseAuthorizationCallback, exchangeAuthorizationCode, createTokenClient, createCarriersClient, createFleetClient];
const pathsSeen: Array<keyof FleetPaths | keyof TokenPaths | keyof CarriersPaths> = ['/vehicles', '/token', '/v1/load-milestone-events'];

const lp = createLogisticsClient({ baseUrl: process.env.LP_BASE_URL!, fleetBaseUrl: process.env.LP_FLEET_BASE_URL!, fleetApiKey: 'smoke-test-key' });
const { data } = await lp.fleet.GET('/vehicles', { params: { query: { sort: 'vehicleNumber asc' } } });
const vehicles: Vehicle[] = data ?? [];
if (vehicles.length === 0 || typeof vehicles[0]?.vehicleNumber !== 'string') throw new Error('expected a list of vehicles from the mock');
const one = await lp.fleet.GET('/vehicles/{vehicleNumber}', { params: { path: { vehicleNumber: vehicles[0].vehicleNumber } } });
if (typeof one.data?.vin !== 'string') throw new Error('expected one vehicle from the mock');
const auth = await buildAuthorizationUrl({ authUrl: 'https://idp.invalid', clientId: 'c', redirectUri: 'http://127.0.0.1:1/cb', scope: 's', pkce: true });
if (!auth.codeVerifier) throw new Error('expected a PKCE verifier');
console.log(\`consumer ok: \${vehicles.length} vehicles, first \${vehicles[0].vehicleNumber}; \${surface.length} functions, \${pathsSeen.length} paths, ApiError is \${typeof ApiError}\`);
`;

const work = mkdtempSync(join(tmpdir(), 'lp-pack-check-'));
let prism: ChildProcess | undefined;
try {
  // The same two steps as the package's prepack script, run here so that `npm pack --json` prints only JSON.
  run('npm run bundle', 'npm', ['run', 'bundle']);
  run('npm run build', 'npm', ['run', 'build']);
  const packed = JSON.parse(run('npm pack', 'npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { stdoutOnly: true })) as Array<{ filename: string; files: Array<{ path: string }> }>;
  const tarball = join(work, packed[0]!.filename);
  const files = packed[0]!.files.map((file) => file.path);
  const unexpected = files.filter((path) => !ALLOWED.some((pattern) => pattern.test(path)));
  const missing = REQUIRED.filter((path) => !files.includes(path));
  console.log(`${files.length} files in ${packed[0]!.filename}`);
  if (unexpected.length || missing.length) throw new Error(`pack:check: tarball contents wrong. Unexpected: ${unexpected.join(', ') || 'none'}; missing: ${missing.join(', ') || 'none'}`);

  console.log(run('publint --strict', bin('publint'), ['--strict']));
  console.log(run('attw (esm-only profile: the package is ESM by design)', bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'table-flipped']));

  const consumer = join(work, 'consumer');
  run('create consumer project', 'mkdir', ['-p', consumer]);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'lp-consumer', private: true, type: 'module' }, null, 2));
  writeFileSync(
    join(consumer, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noUncheckedIndexedAccess: true, lib: ['ES2023', 'DOM'], types: [], skipLibCheck: false, outDir: 'out' }, files: ['consumer.ts'] }, null, 2),
  );
  writeFileSync(join(consumer, 'consumer.ts'), CONSUMER);
  run('npm install <tarball> in the consumer', 'npm', ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts'], { cwd: consumer });
  run('tsc (strict) on the consumer', bin('tsc'), ['-p', consumer]);

  const port = await freePort();
  prism = spawn(bin('prism'), ['mock', '-h', '127.0.0.1', '-p', String(port), join(root, 'dist/openapi/fleet.yaml')], { stdio: 'ignore', detached: true });
  const mockUrl = `http://127.0.0.1:${port}`;
  await waitForMock(`${mockUrl}/vehicles`, prism, 60_000);
  console.log(run('run the consumer against the Prism fleet mock', process.execPath, [join(consumer, 'out', 'consumer.js')], {
    cwd: consumer,
    env: { ...process.env, LP_BASE_URL: mockUrl, LP_FLEET_BASE_URL: mockUrl },
  }));
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  console.log(`\npack:check: all checks passed for @logistics-partner/api@${version}.`);
} finally {
  if (prism?.pid !== undefined && prism.exitCode === null) {
    try {
      process.kill(-prism.pid, 'SIGTERM'); // the whole group: prism starts child processes
    } catch {
      // already gone
    }
  }
  rmSync(work, { recursive: true, force: true });
}
