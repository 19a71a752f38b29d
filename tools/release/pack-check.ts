// pack:check: the package as a consumer gets it. Stages it as a release does (npm run release:stage), checks the
// tarball's files and its README, runs publint and @arethetypeswrong/cli, then the registry round trip: publishes it
// to a throwaway local registry with the release's own publish script (npm run release:publish), installs
// @logistics-partner/api by name and version in a new temp project, compiles the ESM and CommonJS consumers and the
// README's samples (strict) against it, runs them all against the sandbox, and shows that publishing the same version
// again is refused. Nothing leaves loopback (tools/release/registry.ts says how).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type TargetServer } from '../targets.ts';
import { withoutLpVariables } from '../../config/environment.ts';
import { writeConsumerProject } from './consumer-project.ts';
import { checkPackageReadme, checkTarballFiles, typescriptBlocks } from './package-contents.ts';
import { PACKAGE_README, STAGE_DIR, type Manifest } from './package-stage.ts';
import { dependencyClosure, offlineNpmEnv, startRegistry, type LocalRegistry } from './registry.ts';
import { step } from './steps.ts';

type Packed = { filename: string; size: number; unpackedSize: number; entryCount: number; files: Array<{ path: string }> };

export async function packCheck(root: string): Promise<void> {
  const began = performance.now();
  const bin = (name: string) => join(root, 'node_modules', '.bin', name);
  const work = mkdtempSync(join(tmpdir(), 'lp-pack-check-'));
  let registry: LocalRegistry | undefined;
  let sandbox: Promise<TargetServer> | undefined;
  try {
    await step('npm run release:stage (the release build)', 'npm', ['run', 'release:stage'], { cwd: root });
    // The sandbox loads the bundles the stage has just rebuilt; it starts while the rest goes on (needed only at the end).
    sandbox = startSandbox();
    sandbox.catch(() => {});
    const stage = join(root, STAGE_DIR);
    const manifest = JSON.parse(readFileSync(join(stage, 'package.json'), 'utf8')) as Manifest;
    const spec = `${manifest.name}@${manifest.version}`;

    const packed = (
      JSON.parse(
        (await step('npm pack dist/package', 'npm', ['pack', stage, '--json', '--pack-destination', work], { cwd: root })).stdout,
      ) as Packed[]
    )[0]!;
    const files = packed.files.map((file) => file.path);
    console.log(`${packed.entryCount} files, ${packed.size} bytes packed (${packed.unpackedSize} unpacked) in ${packed.filename}`);
    const readme = readFileSync(join(stage, 'README.md'), 'utf8');
    const problems = [...checkTarballFiles(files), ...checkPackageReadme(readme, manifest.name, files)];
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

    // The registry: the package's dependencies preloaded from node_modules, then ours published as a release does.
    const dependencies = dependencyClosure(join(root, 'node_modules'), manifest as { dependencies?: Record<string, string> });
    const tripBegan = performance.now();
    const local = await startRegistry([`${manifest.name.split('/')[0]}/*`, ...dependencies.map((d) => d.name)]);
    registry = local;
    const npmEnv = offlineNpmEnv(local);
    // The release publishes to publishConfig.registry; only a command-line --registry overrides it (npm_config_registry
    // does not), and a scope registry in a project or global npmrc would win over both, so it is set too.
    const toRegistry = ['--registry', local.url, `--${manifest.name.split('/')[0]}:registry=${local.url}`];
    const preloaded = JSON.parse(
      (
        await step(
          'npm pack the dependencies from node_modules',
          'npm',
          ['pack', ...dependencies.map((d) => d.dir), '--json', '--ignore-scripts', '--pack-destination', local.dir],
          { cwd: root, env: npmEnv },
        )
      ).stdout,
    ) as Packed[];
    await Promise.all(
      preloaded.map((tarball) =>
        step(`preload ${tarball.filename}`, 'npm', ['publish', join(local.dir, tarball.filename), '--ignore-scripts'], {
          cwd: root,
          env: npmEnv,
        }),
      ),
    );
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

    const project = writeConsumerProject(join(local.dir, 'consumer'), join(root, 'package', 'consumers'), typescriptBlocks(readme));
    await step(
      `npm install ${spec} (by name, from the local registry, empty cache)`,
      'npm',
      ['install', spec, ...toRegistry, '--no-audit', '--no-fund', '--ignore-scripts'],
      {
        cwd: project.dir,
        env: npmEnv,
      },
    );
    const installed = JSON.parse(
      readFileSync(join(project.dir, 'node_modules', ...manifest.name.split('/'), 'package.json'), 'utf8'),
    ) as Manifest;
    if (installed.version !== manifest.version) throw new Error(`pack:check: installed ${installed.version}, expected ${manifest.version}`);
    await step(
      'tsc --build (strict): ESM consumer and README samples (NodeNext), CommonJS consumer (node10)',
      bin('tsc'),
      ['--build', project.esm, project.cjs],
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
      `registry round trip: ${((performance.now() - tripBegan) / 1000).toFixed(1)} s (registry, preload, publish, install, compile, run, republish)`,
    );
    console.log(
      `second publish refused: ${again.output
        .split('\n')
        .find((line) => /409|conflict|cannot publish|already present/i.test(line))
        ?.trim()}`,
    );
    console.log(`\npack:check: all checks passed for ${spec} (${((performance.now() - began) / 1000).toFixed(1)} s).`);
  } finally {
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
