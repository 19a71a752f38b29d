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
import { writeConsumerProject } from './consumer-project.ts';
import { checkPackageReadme, checkTarballFiles, typescriptBlocks } from './package-contents.ts';
import { PACKAGE_README, STAGE_DIR, type Manifest } from './package-stage.ts';
import { dependencyClosure, offlineNpmEnv, startRegistry, type InstalledPackage, type LocalRegistry } from './registry.ts';
import { step } from './steps.ts';
import { cloneUrl, readTryIt, runTryIt } from './try-it.ts';

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

export async function packCheck(root: string): Promise<void> {
  const began = performance.now();
  const bin = (name: string) => join(root, 'node_modules', '.bin', name);
  const work = mkdtempSync(join(tmpdir(), 'lp-pack-check-'));
  let registry: LocalRegistry | undefined;
  let sandbox: Promise<TargetServer> | undefined;
  let tryItRun: Promise<string | undefined> | undefined;
  try {
    await step('npm run release:stage (the release build)', 'npm', ['run', 'release:stage'], { cwd: root });
    // The sandbox loads the bundles the stage has just rebuilt; it starts while the rest goes on (needed only at the end).
    sandbox = startSandbox();
    sandbox.catch(() => {});
    const stage = join(root, STAGE_DIR);
    const manifest = JSON.parse(readFileSync(join(stage, 'package.json'), 'utf8')) as Manifest;
    const spec = `${manifest.name}@${manifest.version}`;
    const scope = manifest.name.split('/')[0]!;
    const repository = cloneUrl(manifest.repository as { url?: string } | undefined);
    if (!repository) throw new Error('pack:check: package.json has no repository.url (the README tells partners to clone it)');
    const readme = readFileSync(join(stage, 'README.md'), 'utf8');
    // Read (and checked) before anything slow: the section's blocks, and the dev dependencies its install line names.
    const tryIt = readTryIt(readme, manifest.name, repository);

    // What the registry serves besides the package: its dependencies, and the tools the README installs (tsx, ...), as
    // installed in node_modules (so the kit's TypeScript), with whatever they need at run time.
    const { packages: dependencies, absent } = dependencyClosure(join(root, 'node_modules'), {
      dependencies: {
        ...(manifest.dependencies as Record<string, string> | undefined),
        ...Object.fromEntries(tryIt.devDependencies.map((name) => [name, '*'])),
      },
    });
    const tarballs = packedTarballs(root, dependencies);
    tarballs.catch(() => {});

    const packed = (
      JSON.parse(
        (await step('npm pack dist/package', 'npm', ['pack', stage, '--json', '--pack-destination', work], { cwd: root })).stdout,
      ) as Packed[]
    )[0]!;
    const files = packed.files.map((file) => file.path);
    console.log(`${packed.entryCount} files, ${packed.size} bytes packed (${packed.unpackedSize} unpacked) in ${packed.filename}`);
    const problems = [...checkTarballFiles(files), ...checkPackageReadme(readme, manifest.name, files, repository)];
    if (readme !== readFileSync(join(root, PACKAGE_README), 'utf8')) problems.push(`the shipped README.md is not ${PACKAGE_README}`);
    if (problems.length > 0) throw new Error(`pack:check: the package is wrong:\n- ${problems.join('\n- ')}`);

    const tarball = join(work, packed.filename);
    const lints = Promise.all([
      step('publint --strict', bin('publint'), ['--strict', stage], { cwd: root }),
      // ESM by design: attw flags a require() from CommonJS, yet Node 20.19+ loads it (the CommonJS consumer below
      // proves it). Every other rule and resolution, node10 included, must pass.
      step('attw (every resolution)', bin('attw'), [tarball, '--ignore-rules', 'cjs-resolves-to-esm', '--format', 'table-flipped'], {
        cwd: root,
      }),
    ]);
    // Awaited below; until then a failure must not end the process as an unhandled rejection (the sandbox would linger).
    lints.catch(() => {});

    // The registry: ours published as a release does, everything else preloaded; optional packages not installed here
    // (other platforms' binaries) are answered 404 at once, and npm skips them.
    const tripBegan = performance.now();
    const local = await startRegistry([`${scope}/*`, ...dependencies.map((d) => d.name), ...absent], [scope]);
    registry = local;
    const npmEnv = offlineNpmEnv(local);
    const preloadBegan = performance.now();
    await Promise.all((await tarballs).map((found) => local.preload(found.tarball, found.manifest)));
    console.log(
      `=== preload ${dependencies.length} packages into the local registry (${((performance.now() - preloadBegan) / 1000).toFixed(1)} s)`,
    );
    // The release publishes to publishConfig.registry; only a command-line --registry overrides it (npm_config_registry
    // does not), and a scope registry in a project or global npmrc would win over both, so it is set too.
    const toRegistry = ['--registry', local.url, `--${scope}:registry=${local.url}`];
    await step(`npm run release:publish (${spec} to the local registry)`, 'npm', ['run', 'release:publish', '--', ...toRegistry], {
      cwd: root,
      env: npmEnv,
    });
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
      throw new Error(`pack:check: the registry does not list ${spec} as latest with its licence and no scripts`);
    }

    // The README's five minutes, in a folder of their own, while the consumer project installs and compiles.
    tryItRun = (async () => {
      const { stdoutLines } = await sandbox!;
      const output = await runTryIt(tryIt, {
        dir: join(local.dir, 'try-it'),
        // As a partner's terminal: no LP_* variable (they come from .env), npm at the local registry, no audit or fund
        // requests (the registry has no such endpoints).
        env: { ...withoutLpVariables(npmEnv), npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' },
        sandboxOutput: stdoutLines,
      });
      return output.trimEnd().split('\n').at(-1);
    })();
    tryItRun.catch(() => {});

    const project = writeConsumerProject(join(local.dir, 'consumer'), join(root, 'package', 'consumers'), typescriptBlocks(readme));
    await Promise.all([
      step(
        `npm install ${spec} (by name, from the local registry, empty cache)`,
        'npm',
        ['install', spec, ...toRegistry, '--no-audit', '--no-fund', '--ignore-scripts'],
        {
          cwd: project.dir,
          env: npmEnv,
        },
      ),
      step("tsc --init (the tsconfig of a new project, by the kit's TypeScript)", bin('tsc'), ['--init'], { cwd: project.init }),
    ]);
    const installed = JSON.parse(
      readFileSync(join(project.dir, 'node_modules', ...manifest.name.split('/'), 'package.json'), 'utf8'),
    ) as Manifest;
    if (installed.version !== manifest.version) throw new Error(`pack:check: installed ${installed.version}, expected ${manifest.version}`);
    await step(
      'tsc --build: the ESM consumer and the README samples (strict, NodeNext), the CommonJS consumer and the samples as CommonJS (strict, node10), all of them with the tsconfig of `tsc --init`',
      bin('tsc'),
      ['--build', ...project.builds],
      { cwd: root },
    );
    if (!readFileSync(join(project.cjs, 'out', 'consumer.cjs'), 'utf8').includes(`require("${manifest.name}")`)) {
      throw new Error('pack:check: the CommonJS consumer was not compiled to require() calls');
    }
    await lints;

    const { env: sandboxEnv } = await sandbox;
    const env: NodeJS.ProcessEnv = { ...withoutLpVariables(), ...sandboxEnv };
    for (const program of project.programs) {
      const { output } = await step(`run the ${program.name} against the sandbox`, process.execPath, [program.file], {
        cwd: project.dir,
        env,
        timeoutMs: 60_000,
      });
      console.log(output.split('\n').at(-1));
    }
    await expectRecorded(sandboxEnv);
    console.log(`README "Try it in five minutes", as written: ${await tryItRun}`);

    const again = await step(
      `npm run release:publish again (${spec} must be refused)`,
      'npm',
      ['run', 'release:publish', '--', ...toRegistry],
      { cwd: root, env: npmEnv, expect: 'failure' },
    );
    if (!/EPUBLISHCONFLICT|E409|cannot publish over|already present/i.test(again.output)) {
      throw new Error(`pack:check: the second publish failed, but not because the version exists:\n${again.output.slice(-1500)}`);
    }
    console.log(
      `registry round trip: ${((performance.now() - tripBegan) / 1000).toFixed(1)} s (registry, preload, publish, install, compile, try it, run, republish)`,
    );
    console.log(
      `second publish refused: ${again.output
        .split('\n')
        .find((line) => /409|conflict|cannot publish|already present/i.test(line))
        ?.trim()}`,
    );
    console.log(`\npack:check: all checks passed for ${spec} (${((performance.now() - began) / 1000).toFixed(1)} s).`);
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
