// A throwaway npm registry (Verdaccio, in this process) for the publish-and-install round trip of pack:check.
// Loopback only, a port the OS picks, config and storage in a temp dir removed on stop. The uplink is the registry npm
// is configured with (`npm config get registry`), never a fixed host; but nothing reaches it: the packages the round
// trip installs are served from the local storage (ours, published; its dependencies, preloaded from node_modules), and
// those names are configured without a proxy, so Verdaccio never asks the uplink about them.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { stringify } from 'yaml';

export interface LocalRegistry {
  /** http://127.0.0.1:<port>/ */
  url: string;
  /** A private temp dir for the caller's files (npmrc, cache, projects); removed on stop. */
  dir: string;
  /** An npmrc that points npm at this registry (for every scope in `scopes` too) with a publish token (mode 0600; the token is never printed). */
  userconfig: string;
  /**
   * Publishes a tarball of a third-party package (a dependency preloaded from node_modules) with one HTTP request, as
   * `npm publish` does but without an npm process per package. `manifest` is its package.json.
   */
  preload(tarball: string, manifest: PreloadManifest): Promise<void>;
  stop(): Promise<void>;
}

/** What a preloaded version's packument entry is made of: its package.json. */
export type PreloadManifest = { name: string; version: string } & Record<string, unknown>;

/** A loopback address where nothing listens (port 9, discard): the proxy for anything that would leave loopback. */
export const DEAD_END = 'http://127.0.0.1:9';

/** Environment for npm clients of the local registry: loopback goes direct, anything else into the dead end. */
export function offlineNpmEnv(registry: LocalRegistry): NodeJS.ProcessEnv {
  return {
    ...process.env,
    npm_config_userconfig: registry.userconfig,
    npm_config_registry: registry.url,
    npm_config_cache: join(registry.dir, 'cache'),
    npm_config_proxy: DEAD_END,
    npm_config_https_proxy: DEAD_END,
    npm_config_noproxy: '127.0.0.1',
    // `npm run -s` passes loglevel=silent down to every npm it starts; the round trip reads npm's error text (a refused
    // second publish must say why), so its npm always speaks at the default level.
    npm_config_loglevel: 'notice',
  };
}

const PUBLISHER = { name: 'round-trip', password: 'round-trip-password', email: 'round-trip@example.invalid' };

/** `npm config get registry`: the uplink of the throwaway registry. */
export function configuredRegistry(): string {
  return execFileSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
}

/** The Verdaccio configuration: `localOnly` names are served from storage only; everything else may proxy the uplink. */
export function registryConfig(storage: string, htpasswd: string, uplink: string, localOnly: string[]): Record<string, unknown> {
  const local = { access: '$all', publish: '$authenticated', unpublish: '$authenticated' };
  return {
    storage,
    // The publisher's password is checked on every request npm sends with the token (installs too); bcrypt's default
    // 10 rounds (pure JS) cost about 75 ms a request, the 4 rounds of a throwaway password about 1 ms.
    auth: { htpasswd: { file: htpasswd, max_users: 1, algorithm: 'bcrypt', rounds: 4 } },
    uplinks: { configured: { url: uplink, timeout: '5s', max_fails: 1, fail_timeout: '1m' } },
    packages: {
      ...Object.fromEntries(localOnly.map((name) => [name, local])),
      '**': { ...local, proxy: 'configured' },
    },
    // Belt and braces: should a name ever miss the local storage, the request to the uplink goes to a closed loopback
    // port and fails at once, instead of reaching the internet.
    http_proxy: DEAD_END,
    https_proxy: DEAD_END,
    // Bounded: a round trip publishes a few hundred kB.
    max_body_size: '20mb',
    log: { type: 'stdout', format: 'pretty', level: 'error' },
    web: { enable: false },
  };
}

/**
 * Starts Verdaccio on 127.0.0.1 (port 0) and registers a publisher; `localOnly` lists the names served without an
 * uplink, `scopes` the scopes (`@name`) whose registry the npmrc sets to this one too (a scope registry in another npmrc
 * would otherwise win over `registry`).
 */
export async function startRegistry(localOnly: string[], scopes: string[] = []): Promise<LocalRegistry> {
  const dir = mkdtempSync(join(tmpdir(), 'lp-registry-'));
  const configFile = join(dir, 'config.yaml');
  writeFileSync(configFile, stringify(registryConfig(join(dir, 'storage'), join(dir, 'htpasswd'), configuredRegistry(), localOnly)));
  // Verdaccio is CommonJS with no types for runServer's result; it returns a node:http server, not yet listening.
  const { runServer } = (await import('verdaccio')) as unknown as { runServer: (config: string) => Promise<Server> };
  const server = await runServer(configFile);
  // Every connection bounded: a stuck npm client cannot hold the round trip.
  server.headersTimeout = 10_000;
  server.requestTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const stop = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => {
        rmSync(dir, { recursive: true, force: true });
        resolve();
      });
    });
  try {
    const token = await addUser(url);
    const userconfig = join(dir, 'npmrc');
    const host = url.replace(/^http:/, '');
    const scoped = scopes.map((scope) => `${scope}:registry=${url}\n`).join('');
    writeFileSync(userconfig, `registry=${url}\n${scoped}${host}:_authToken=${token}\n`, { mode: 0o600 });
    return { url, dir, userconfig, preload: (tarball, manifest) => publishTarball(url, token, tarball, manifest), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** `npm adduser` over HTTP (the CouchDB user document the registry API takes): the token to publish with. */
async function addUser(url: string): Promise<string> {
  const response = await fetch(new URL(`-/user/org.couchdb.user:${PUBLISHER.name}`, url), {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ _id: `org.couchdb.user:${PUBLISHER.name}`, type: 'user', roles: [], ...PUBLISHER }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await response.json()) as { token?: string };
  if (!response.ok || typeof body.token !== 'string')
    throw new Error(`local registry: adding the publisher failed with status ${response.status}`);
  return body.token;
}

/** The registry API's publish (what libnpmpublish sends): the version's manifest with its dist, and the tarball attached. */
async function publishTarball(url: string, token: string, tarball: string, manifest: PreloadManifest): Promise<void> {
  const data = readFileSync(tarball);
  const file = `${manifest.name}-${manifest.version}.tgz`;
  const dist = {
    shasum: createHash('sha1').update(data).digest('hex'),
    integrity: `sha512-${createHash('sha512').update(data).digest('base64')}`,
    tarball: new URL(`${manifest.name}/-/${file}`, url).href,
  };
  const { scripts: _scripts, ...published } = manifest;
  const document = {
    _id: manifest.name,
    name: manifest.name,
    'dist-tags': { latest: manifest.version },
    versions: { [manifest.version]: { ...published, _id: `${manifest.name}@${manifest.version}`, dist } },
    _attachments: { [file]: { content_type: 'application/octet-stream', data: data.toString('base64'), length: data.length } },
  };
  const response = await fetch(new URL(manifest.name.replace('/', '%2f'), url), {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(document),
    signal: AbortSignal.timeout(60_000),
  });
  await response.body?.cancel();
  if (!response.ok)
    throw new Error(`local registry: preloading ${manifest.name}@${manifest.version} failed with status ${response.status}`);
}

/** An installed package of a dependency closure: where it is and its package.json. */
export interface InstalledPackage {
  name: string;
  dir: string;
  manifest: PreloadManifest;
}

type Dependencies = { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };

/**
 * The installed packages that `roots` need at run time: their `dependencies` and the `optionalDependencies` that are
 * installed (a platform's binary, such as esbuild's), recursively, each found as Node would (the nearest node_modules up
 * from its dependent). `absent` lists the optional ones not installed (other platforms' binaries): a registry that
 * answers them 404 at once lets npm skip them.
 */
export function dependencyClosure(nodeModules: string, roots: Dependencies): { packages: InstalledPackage[]; absent: string[] } {
  const found = new Map<string, InstalledPackage>();
  const absent = new Set<string>();
  const locate = (name: string, from: string): string | undefined => {
    for (let dir = from; dir.startsWith(nodeModules); dir = dirname(dir)) {
      const candidate = basename(dir) === 'node_modules' ? join(dir, name) : join(dir, 'node_modules', name);
      if (existsSync(join(candidate, 'package.json'))) return candidate;
    }
    return undefined;
  };
  const visit = (manifest: Dependencies, from: string) => {
    const required = Object.keys(manifest.dependencies ?? {});
    const optional = Object.keys(manifest.optionalDependencies ?? {});
    for (const name of [...required, ...optional]) {
      if (found.has(name)) continue;
      const dir = locate(name, from);
      if (!dir) {
        if (!optional.includes(name)) throw new Error(`pack:check: ${name} is not installed (npm ci)`);
        absent.add(name);
        continue;
      }
      const installed = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PreloadManifest & Dependencies;
      found.set(name, { name, dir, manifest: installed });
      visit(installed, dir);
    }
  };
  visit(roots, nodeModules);
  return { packages: [...found.values()], absent: [...absent].filter((name) => !found.has(name)) };
}
