// `npm run pack:check`: builds and packs the package, checks the tarball's contents, runs publint and
// @arethetypeswrong/cli, then installs the tarball in temporary projects, compiles two strict consumers (ESM with
// NodeNext resolution; CommonJS with the classic "node10" resolution, through require(esm)) and runs them against the
// Prism mock of the three specs (`npm run mock`, started here on a free loopback port, and always stopped).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startMock, type RunningServer } from '../contract-tests/runner/target-server.ts';

const root = resolve(import.meta.dirname, '..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const ALLOWED = [/^dist\/client\/.+\.(js|d\.ts)$/, /^dist\/openapi\/(token|carriers|fleet)\.(yaml|json)$/, /^README\.md$/, /^package\.json$/];
const REQUIRED = ['package.json', 'README.md', 'dist/client/src/index.js', 'dist/client/src/index.d.ts', 'dist/client/src/fleet.d.ts', 'dist/openapi/fleet.yaml'];

function run(step: string, command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; stdoutOnly?: boolean } = {}): string {
  console.log(`\n=== ${step}`);
  const began = performance.now();
  const result = spawnSync(command, args, { cwd: options.cwd ?? root, env: options.env ?? process.env, encoding: 'utf8', timeout: 300_000 });
  console.log(`(${((performance.now() - began) / 1000).toFixed(1)} s)`);
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.split('\n').filter((line) => !line.includes('Unknown user config "nodedir"')).join('\n');
  if (result.status !== 0) {
    console.error(output);
    throw new Error(`pack:check: step "${step}" failed (exit ${result.status ?? result.signal})`);
  }
  return options.stdoutOnly ? (result.stdout ?? '') : output;
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

const env = process.env;
const lp = createLogisticsClient({
  baseUrl: env.LP_BASE_URL!, authUrl: env.LP_AUTH_URL, fleetBaseUrl: env.LP_FLEET_BASE_URL,
  clientId: env.LP_CLIENT_ID, clientSecret: env.LP_CLIENT_SECRET, scope: env.LP_SCOPE,
  subscriptionKey: env.LP_SUBSCRIPTION_KEY, fleetApiKey: env.LP_FLEET_API_KEY, tokenEndpoint: 'service',
});
// Token API, both endpoints: the service's lifetime is spelled expired_in, the identity provider's expires_in.
const t = await lp.token.POST('/token', { body: { grant_type: 'client_credentials', client_id: env.LP_CLIENT_ID!, client_secret: env.LP_CLIENT_SECRET! } });
const lifetime: number | undefined = t.data?.expired_in;
if (typeof lifetime !== 'number') throw new Error('expected expired_in from the service token endpoint');
const idp = createTokenProvider({ tokenEndpoint: 'identity-provider', authUrl: env.LP_AUTH_URL!, clientId: env.LP_CLIENT_ID!,
  clientSecret: env.LP_CLIENT_SECRET!, scope: env.LP_SCOPE!, subscriptionKey: env.LP_SUBSCRIPTION_KEY! });
if ((await idp.getTokenInfo()).expiresInSeconds <= 0) throw new Error('expected a lifetime from the identity provider');
// Carriers API with the bearer token the client fetched itself.
const recorded = await lp.carriers.POST('/v1/load-milestone-events', {
  body: { load_id: 'LD-PACK-CHECK', milestone_type: 'ARRIVED_AT_PICKUP', event_time: new Date().toISOString().replace(/\.\d+Z$/, 'Z') },
});
if (!recorded.response.ok) throw new Error(\`expected the milestone to be accepted, got \${recorded.response.status}\`);
// Fleet API with the API-Key.
const { data } = await lp.fleet.GET('/vehicles', { params: { query: { sort: 'vehicleNumber asc' } } });
const vehicles: Vehicle[] = data ?? [];
if (vehicles.length === 0 || typeof vehicles[0]?.vehicleNumber !== 'string') throw new Error('expected a list of vehicles from the mock');
const one = await lp.fleet.GET('/vehicles/{vehicleNumber}', { params: { path: { vehicleNumber: vehicles[0].vehicleNumber } } });
if (typeof one.data?.vin !== 'string') throw new Error('expected one vehicle from the mock');
const auth = await buildAuthorizationUrl({ authUrl: 'https://idp.invalid', clientId: 'c', redirectUri: 'http://127.0.0.1:1/cb', scope: 's', pkce: true });
if (!auth.codeVerifier) throw new Error('expected a PKCE verifier');
console.log(\`consumer ok: service token (expired_in \${lifetime}), identity-provider token, milestone \${recorded.response.status}, \${vehicles.length} vehicles, first \${vehicles[0].vehicleNumber}; \${surface.length} functions, \${pathsSeen.length} paths, ApiError is \${typeof ApiError}\`);
`;

// Many repos still compile to CommonJS with moduleResolution "node": the subpath types reach them through
// typesVersions, and Node 20.19+ loads the ESM package with require().
const CJS_CONSUMER = `// CommonJS consumer with the classic "node10" resolution.
import { ApiError, createFleetClient } from '@logistics-partner/api';
import type { components as FleetComponents } from '@logistics-partner/api/fleet';
import type { paths as TokenPaths } from '@logistics-partner/api/token';
import type { paths as CarriersPaths } from '@logistics-partner/api/carriers';

declare const process: { env: Record<string, string | undefined>; exitCode?: number };
declare const require: unknown;
type Vehicle = FleetComponents['schemas']['Vehicle'];
const pathsSeen: Array<keyof TokenPaths | keyof CarriersPaths> = ['/token', '/v1/load-milestone-events'];

async function main(): Promise<void> {
  if (typeof require !== 'function') throw new Error('expected to run as CommonJS');
  const fleet = createFleetClient({ baseUrl: process.env.LP_FLEET_BASE_URL!, fleetApiKey: process.env.LP_FLEET_API_KEY! });
  const { data } = await fleet.GET('/vehicles', {});
  const vehicles: Vehicle[] = data ?? [];
  if (vehicles.length === 0 || typeof vehicles[0]?.vin !== 'string') throw new Error('expected a list of vehicles from the mock');
  console.log(\`commonjs consumer ok: \${vehicles.length} vehicles; \${pathsSeen.length} paths, ApiError is \${typeof ApiError}\`);
}
main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
`;

/** A temporary project with `source` as its only file and the tarball installed (compiled later, with the others). */
function consumerProject(name: string, tarball: string, packageType: 'module' | 'commonjs', compilerOptions: Record<string, unknown>, source: string): string {
  const dir = join(work, name);
  run(`create ${name} project`, 'mkdir', ['-p', dir]);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `lp-${name}`, private: true, type: packageType }, null, 2));
  const options = { target: 'ES2022', strict: true, noUncheckedIndexedAccess: true, lib: ['ES2023', 'DOM'], types: [], skipLibCheck: false, outDir: 'out', ...compilerOptions };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, files: ['consumer.ts'] }, null, 2));
  writeFileSync(join(dir, 'consumer.ts'), source);
  run(`npm install <tarball> in ${name}`, 'npm', ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts'], { cwd: dir });
  return dir;
}

const work = mkdtempSync(join(tmpdir(), 'lp-pack-check-'));
let mock: RunningServer | undefined;
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
  // ESM by design: a require() from CommonJS is flagged by attw, yet Node 20.19+ loads it (the CommonJS consumer below
  // proves it). Every other rule and resolution, node10 included, must pass.
  console.log(run('attw (all resolutions; CommonJS loads the ESM package through require(esm))', bin('attw'), [tarball, '--ignore-rules', 'cjs-resolves-to-esm', '--format', 'table-flipped']));

  const consumer = consumerProject('consumer', tarball, 'module', { module: 'NodeNext', moduleResolution: 'NodeNext' }, CONSUMER);
  const cjsConsumer = consumerProject('consumer-cjs', tarball, 'commonjs', { module: 'CommonJS', moduleResolution: 'node10' }, CJS_CONSUMER);
  // One tsc process builds both projects (each with its own options), so the compiler loads once.
  run('tsc --build (strict) on consumer and consumer-cjs', bin('tsc'), ['--build', consumer, cjsConsumer]);

  console.log('\n=== start the Prism mock of the three specs (npm run mock)');
  mock = await startMock();
  // The mock's LP_* settings only (it accepts any credential value); none of the caller's own.
  const consumerEnv: NodeJS.ProcessEnv = { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('LP_'))), ...mock.env };
  console.log(run('run the consumer against the mock (token, carriers, fleet)', process.execPath, [join(consumer, 'out', 'consumer.js')], { cwd: consumer, env: consumerEnv }));
  console.log(run('run the CommonJS consumer against the same mock', process.execPath, [join(cjsConsumer, 'out', 'consumer.js')], { cwd: cjsConsumer, env: consumerEnv }));
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  console.log(`\npack:check: all checks passed for @logistics-partner/api@${version}.`);
} finally {
  await mock?.stop();
  rmSync(work, { recursive: true, force: true });
}
