// pack:check: the package as a consumer gets it. Stages it as a release does (npm run release:stage), checks the
// tarball's files and its README, runs publint and @arethetypeswrong/cli, then the registry round trip: publishes it
// to a throwaway local registry with the release's own publish script (npm run release:publish), and then, at the same
// time: (1) installs @logistics-partner/api by name and version in a new temp project and compiles the README's samples
// and both consumers in three configurations (strict, the tsconfig `tsc --init` writes, CommonJS; consumer-project.ts);
// (2) follows the README's "Try it in five minutes" section literally in a new folder (try-it.ts): npm init, npm
// install from the registry, tsc --init, tsc, tsx, against the sandbox, to the vehicle list it promises. Then it runs
// the consumers and samples against the sandbox, and shows that publishing the same version again is refused. Nothing
// leaves loopback (tools/release/registry.ts says how).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type TargetServer } from '../targets.ts';
import { withoutLpVariables } from '../../config/environment.ts';
import { type ConsumerProject, writeConsumerProject } from './consumer-project.ts';
import { checkPackageReadme, checkTarballFiles, typescriptBlocks } from './package-contents.ts';
import { PACKAGE_README, STAGE_DIR, type Manifest } from './package-stage.ts';
import { dependencyClosure, offlineNpmEnv, startRegistry, type InstalledPackage, type LocalRegistry } from './registry.ts';
import { step } from './steps.ts';
import { cloneUrl, readTryIt, runTryIt, type TryIt } from './try-it.ts';

type Packed = { filename: string; size: number; unpackedSize: number; entryCount: number; files: Array<{ path: string }> };

/**
 * Where the tarballs of the third-party packages the registry serves are kept between runs, one per name and version:
 * packing TypeScript and esbuild's binary takes seconds, and they never change for a version.
 */
const TARBALL_CACHE = join('dist', '.pack-check-cache');

/** npm pack's file name for name@version: `@scope/name` gives `scope-name-<version>.tgz`. */
function packFileName(name: string, version: string): string {
  return `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
}

/** The tarball of each package, packed from node_modules unless the cache has it. */
async function packedTarballs(root: string, packages: InstalledPackage[]): Promise<Array<InstalledPackage & { tarball: string }>> {
  const cache = join(root, TARBALL_CACHE);
  mkdirSync(cache, { recursive: true });
  const withTarball = packages.map((found) => ({ ...found, tarball: join(cache, packFileName(found.name, found.manifest.version)) }));
  const missing = withTarball.filter((found) => !existsSync(found.tarball));
  if (missing.length > 0) {
    // Packed aside, then moved in: a run that stops half-way (or a second pack:check) never sees half a tarball.
    const scratch = mkdtempSync(join(cache, '.packing-'));
    try {
      await step(
        `npm pack ${missing.length} dependencies from node_modules (kept in ${TARBALL_CACHE})`,
        'npm',
        ['pack', ...missing.map((found) => found.dir), '--ignore-scripts', '--pack-destination', scratch],
        { cwd: root },
      );
      for (const found of missing) renameSync(join(scratch, packFileName(found.name, found.manifest.version)), found.tarball);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  return withTarball;
}

/** The staged package as the checks read it: its manifest, its README and the README's "Try it" section. */
interface Staged {
  dir: string;
  manifest: Manifest;
  /** name@version */
  spec: string;
  scope: string;
  readme: string;
  repository: string;
  tryIt: TryIt;
}

function readStaged(root: string): Staged {
  const dir = join(root, STAGE_DIR);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
  const repository = cloneUrl(manifest.repository as { url?: string } | undefined);
  if (!repository) throw new Error('pack:check: package.json has no repository.url (the README tells partners to clone it)');
  const readme = readFileSync(join(dir, 'README.md'), 'utf8');
  // Read (and checked) before anything slow: the section's blocks, and the dev dependencies its install line names.
  const tryIt = readTryIt(readme, manifest.name, repository);
  const scope = manifest.name.split('/')[0]!;
  return { dir, manifest, spec: `${manifest.name}@${manifest.version}`, scope, readme, repository, tryIt };
}

/** Packs the stage into `work` and checks the tarball's files and README; the tarball's path. */
async function packAndCheckFiles(root: string, staged: Staged, work: string): Promise<string> {
  const packed = (
    JSON.parse(
      (await step('npm pack dist/package', 'npm', ['pack', staged.dir, '--json', '--pack-destination', work], { cwd: root })).stdout,
    ) as Packed[]
  )[0]!;
  const files = packed.files.map((file) => file.path);
  console.log(`${packed.entryCount} files, ${packed.size} bytes packed (${packed.unpackedSize} unpacked) in ${packed.filename}`);
  const problems = [...checkTarballFiles(files), ...checkPackageReadme(staged.readme, staged.manifest.name, files, staged.repository)];
  if (staged.readme !== readFileSync(join(root, PACKAGE_README), 'utf8')) problems.push(`the shipped README.md is not ${PACKAGE_README}`);
  if (problems.length > 0) throw new Error(`pack:check: the package is wrong:\n- ${problems.join('\n- ')}`);
  return join(work, packed.filename);
}

/** publint and @arethetypeswrong/cli on the stage and its tarball, side by side. */
function lint(root: string, staged: Staged, tarball: string) {
  const bin = (name: string) => join(root, 'node_modules', '.bin', name);
  return Promise.all([
    step('publint --strict', bin('publint'), ['--strict', staged.dir], { cwd: root }),
    // ESM by design: attw flags a require() from CommonJS, yet Node 20.19+ loads it (the CommonJS consumer below
    // proves it). Every other rule and resolution, node10 included, must pass.
    step('attw (every resolution)', bin('attw'), [tarball, '--ignore-rules', 'cjs-resolves-to-esm', '--format', 'table-flipped'], {
      cwd: root,
    }),
  ]);
}

/** The registry's npm settings: npm at the local registry and nowhere else, and the flags that publish and install there. */
function registryAccess(local: LocalRegistry, scope: string): { npmEnv: NodeJS.ProcessEnv; toRegistry: string[] } {
  // The release publishes to publishConfig.registry; only a command-line --registry overrides it (npm_config_registry
  // does not), and a scope registry in a project or global npmrc would win over both, so it is set too.
  return { npmEnv: offlineNpmEnv(local), toRegistry: ['--registry', local.url, `--${scope}:registry=${local.url}`] };
}

/** Preloads the dependencies, publishes the package as a release does, and checks what the registry lists. */
async function publish(
  root: string,
  staged: Staged,
  local: LocalRegistry,
  tarballs: Promise<Array<InstalledPackage & { tarball: string }>>,
) {
  const { npmEnv, toRegistry } = registryAccess(local, staged.scope);
  const preloadBegan = performance.now();
  const preloaded = await tarballs;
  await Promise.all(preloaded.map((found) => local.preload(found.tarball, found.manifest)));
  console.log(
    `=== preload ${preloaded.length} packages into the local registry (${((performance.now() - preloadBegan) / 1000).toFixed(1)} s)`,
  );
  await step(`npm run release:publish (${staged.spec} to the local registry)`, 'npm', ['run', 'release:publish', '--', ...toRegistry], {
    cwd: root,
    env: npmEnv,
  });
  const { manifest } = staged;
  const packument = (await (
    await fetch(new URL(manifest.name.replace('/', '%2f'), local.url), { signal: AbortSignal.timeout(10_000) })
  ).json()) as {
    'dist-tags': Record<string, string>;
    versions: Record<string, Manifest>;
  };
  const published = packument.versions[manifest.version];
  if (
    packument['dist-tags'].latest !== manifest.version ||
    !published ||
    published.license !== manifest.license ||
    published.scripts !== undefined
  ) {
    throw new Error(`pack:check: the registry does not list ${staged.spec} as latest with its licence and no scripts`);
  }
}

/** The README's five minutes, in a folder of their own: the last line they print. */
async function followTryIt(staged: Staged, local: LocalRegistry, sandbox: Promise<TargetServer>): Promise<string | undefined> {
  const { stdoutLines } = await sandbox;
  const output = await runTryIt(staged.tryIt, {
    dir: join(local.dir, 'try-it'),
    // As a partner's terminal: no LP_* variable (they come from .env), npm at the local registry, no audit or fund
    // requests (the registry has no such endpoints).
    env: {
      ...withoutLpVariables(offlineNpmEnv(local)),
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    },
    sandboxOutput: stdoutLines,
  });
  return output.trimEnd().split('\n').at(-1);
}

/** Installs the package by name into a new consumer project and compiles the consumers and the README's samples. */
async function installAndCompile(root: string, staged: Staged, local: LocalRegistry): Promise<ConsumerProject> {
  const { npmEnv, toRegistry } = registryAccess(local, staged.scope);
  const { manifest, spec } = staged;
  const tsc = join(root, 'node_modules', '.bin', 'tsc');
  const project = writeConsumerProject(join(local.dir, 'consumer'), join(root, 'package', 'consumers'), typescriptBlocks(staged.readme));
  await Promise.all([
    step(
      `npm install ${spec} (by name, from the local registry, empty cache)`,
      'npm',
      ['install', spec, ...toRegistry, '--no-audit', '--no-fund', '--ignore-scripts'],
      { cwd: project.dir, env: npmEnv },
    ),
    step("tsc --init (the tsconfig of a new project, by the kit's TypeScript)", tsc, ['--init'], { cwd: project.init }),
  ]);
  const installed = JSON.parse(
    readFileSync(join(project.dir, 'node_modules', ...manifest.name.split('/'), 'package.json'), 'utf8'),
  ) as Manifest;
  if (installed.version !== manifest.version) throw new Error(`pack:check: installed ${installed.version}, expected ${manifest.version}`);
  await step(
    'tsc --build: the ESM consumer and the README samples (strict, NodeNext), the CommonJS consumer and the samples as CommonJS (strict, node10), all of them with the tsconfig of `tsc --init`',
    tsc,
    ['--build', ...project.builds],
    { cwd: root },
  );
  if (!readFileSync(join(project.cjs, 'out', 'consumer.cjs'), 'utf8').includes(`require("${manifest.name}")`)) {
    throw new Error('pack:check: the CommonJS consumer was not compiled to require() calls');
  }
  return project;
}

/** Runs each compiled consumer and sample against the sandbox, and checks the milestone reached it. */
async function runAgainstSandbox(project: ConsumerProject, sandbox: TargetServer): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...withoutLpVariables(), ...sandbox.env };
  for (const program of project.programs) {
    const { output } = await step(`run the ${program.name} against the sandbox`, process.execPath, [program.file], {
      cwd: project.dir,
      env,
      timeoutMs: 60_000,
    });
    console.log(output.split('\n').at(-1));
  }
  await expectRecorded(sandbox.env);
}

/** Publishing the same version again must be refused because it exists: npm's line that says so. */
async function expectRepublishRefused(root: string, staged: Staged, local: LocalRegistry): Promise<string | undefined> {
  const { npmEnv, toRegistry } = registryAccess(local, staged.scope);
  const again = await step(
    `npm run release:publish again (${staged.spec} must be refused)`,
    'npm',
    ['run', 'release:publish', '--', ...toRegistry],
    { cwd: root, env: npmEnv, expect: 'failure' },
  );
  if (!/EPUBLISHCONFLICT|E409|cannot publish over|already present/i.test(again.output)) {
    throw new Error(`pack:check: the second publish failed, but not because the version exists:\n${again.output.slice(-1500)}`);
  }
  return again.output
    .split('\n')
    .find((line) => /409|conflict|cannot publish|already present/i.test(line))
    ?.trim();
}

export async function packCheck(root: string): Promise<void> {
  const began = performance.now();
  const work = mkdtempSync(join(tmpdir(), 'lp-pack-check-'));
  let registry: LocalRegistry | undefined;
  let sandbox: Promise<TargetServer> | undefined;
  let tryItRun: Promise<string | undefined> | undefined;
  try {
    await step('npm run release:stage (the release build)', 'npm', ['run', 'release:stage'], { cwd: root });
    // The sandbox loads the bundles the stage has just rebuilt; it starts while the rest goes on (needed only at the end).
    sandbox = startSandbox();
    sandbox.catch(() => {});
    const staged = readStaged(root);
    // What the registry serves besides the package: its dependencies, and the tools the README installs (tsx, ...), as
    // installed in node_modules (so the kit's TypeScript), with whatever they need at run time.
    const { packages: dependencies, absent } = dependencyClosure(join(root, 'node_modules'), {
      dependencies: {
        ...(staged.manifest.dependencies as Record<string, string> | undefined),
        ...Object.fromEntries(staged.tryIt.devDependencies.map((name) => [name, '*'])),
      },
    });
    const tarballs = packedTarballs(root, dependencies);
    tarballs.catch(() => {});
    const lints = lint(root, staged, await packAndCheckFiles(root, staged, work));
    // Awaited below; until then a failure must not end the process as an unhandled rejection (the sandbox would linger).
    lints.catch(() => {});

    // The registry: ours published as a release does, everything else preloaded; optional packages not installed here
    // (other platforms' binaries) are answered 404 at once, and npm skips them.
    const tripBegan = performance.now();
    const local = await startRegistry([`${staged.scope}/*`, ...dependencies.map((d) => d.name), ...absent], [staged.scope]);
    registry = local;
    await publish(root, staged, local, tarballs);
    // The README's five minutes while the consumer project installs and compiles.
    tryItRun = followTryIt(staged, local, sandbox);
    tryItRun.catch(() => {});
    const project = await installAndCompile(root, staged, local);
    await lints;
    await runAgainstSandbox(project, await sandbox);
    console.log(`README "Try it in five minutes", as written: ${await tryItRun}`);
    const refusal = await expectRepublishRefused(root, staged, local);
    const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);
    console.log(`registry round trip: ${seconds(tripBegan)} s (registry, preload, publish, install, compile, try it, run, republish)`);
    console.log(`second publish refused: ${refusal}`);
    console.log(`\npack:check: all checks passed for ${staged.spec} (${seconds(began)} s).`);
  } finally {
    // A failure elsewhere does not stop the steps of the section under way: they finish before their folder goes.
    await tryItRun?.catch(() => {});
    await registry?.stop();
    await sandbox?.then(
      (server) => server.stop(),
      () => {},
    );
    rmSync(work, { recursive: true, force: true });
  }
}

/** The ESM consumer's milestone reached the sandbox (read back through its sandbox-only route). */
async function expectRecorded(env: Record<string, string>): Promise<void> {
  const url = new URL('/_sandbox/load-milestone-events', env.LP_BASE_URL);
  url.searchParams.set('load_id', env.LP_TEST_LOAD_ID ?? '');
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  const events = (await response.json()) as unknown;
  const list = Array.isArray(events) ? events : ((events as { events?: unknown[] }).events ?? []);
  if (!response.ok || list.length === 0) throw new Error('pack:check: the sandbox has no milestone from the consumer');
}
