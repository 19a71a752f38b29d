// The bundles are built on demand (spec-core/bundles.ts): in a tree without dist/ (a fresh clone), the first loadBundle
// builds them, once, even when several processes load at the same moment; later loads only read them (taking over a
// lock left by a process that died), and an edit of openapi/ builds them again. Run in a temporary copy of what the
// bundles are made from (openapi/, redocly.yaml, spec-core/), so the repository's own dist/openapi, which other tests
// read meanwhile, is never touched.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_NAMES, repoRoot } from '../../spec-core/apis.ts';
import { WORKFLOW_FILES } from '../../spec-core/workflows.ts';
import { testWaitMs } from '../../config/test-waits.ts';

/** Two loaders and a Redocly run on a busy 2-core machine: about 1 s alone, far less than this. */
const TIMEOUT_MS = testWaitMs(60_000);

/** Loads every bundle as the contract suite does at import time, then prints what it loaded on stdout. */
const LOADER = `import { loadBundles } from './spec-core/bundles.ts';
const bundles = loadBundles();
process.stdout.write(JSON.stringify(Object.fromEntries(Object.entries(bundles).map(([api, doc]) => [api, doc.openapi]))));
`;

describe('loadBundle in a tree without bundles', () => {
  let root: string;
  let lock: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'lp-bundles-'));
    for (const entry of ['openapi', 'spec-core', 'redocly.yaml', 'package.json'])
      cpSync(join(repoRoot, entry), join(root, entry), { recursive: true });
    symlinkSync(join(repoRoot, 'node_modules'), join(root, 'node_modules'), 'dir');
    writeFileSync(join(root, 'load.ts'), LOADER);
    lock = join(root, 'dist', '.openapi-bundles.lock');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  /** A loader process; its stderr can be read while it runs. */
  const start = () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'load.ts'], { cwd: root, timeout: TIMEOUT_MS });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const done = new Promise<{ code: number | null; loaded: Record<string, string>; stderr: string }>((resolve) =>
      child.once('close', (code) => resolve({ code, loaded: code === 0 ? JSON.parse(stdout) : {}, stderr })),
    );
    return { stderr: () => stderr, done };
  };
  const load = async () => {
    const { code, loaded, stderr } = await start().done;
    expect(code, stderr).toBe(0);
    return { loaded, stderr };
  };
  const holdLock = (pid: number) => {
    mkdirSync(lock, { recursive: true });
    writeFileSync(join(lock, 'pid'), `${pid}\n`);
  };

  it('builds them once for two processes loading at the same moment', { timeout: TIMEOUT_MS }, async () => {
    expect(existsSync(join(root, 'dist'))).toBe(false);
    // Both loaders must meet a build in progress, not one the other has already finished: this process holds the lock
    // (as a builder would) until both say they wait for it, then lets go.
    holdLock(process.pid);
    const loaders = [start(), start()];
    const waiting = `spec-core: waiting for process ${process.pid}, which is bundling`;
    await expect
      .poll(() => loaders.filter(({ stderr }) => stderr().includes(waiting)).length, { timeout: TIMEOUT_MS / 2 })
      .toBe(loaders.length);
    rmSync(lock, { recursive: true });

    const both = await Promise.all(loaders.map(({ done }) => done));
    for (const { code, loaded, stderr } of both) {
      expect(code, stderr).toBe(0);
      expect(Object.keys(loaded).sort()).toEqual([...API_NAMES].sort());
      for (const version of Object.values(loaded)) expect(version).toMatch(/^3\./);
    }
    expect(both.flatMap(({ stderr }) => stderr.match(/^spec-core: bundles missing, bundling$/gm) ?? [])).toHaveLength(1);
    // Built whole, and nothing of the lock left behind: no lock, no draft, nothing moved aside.
    expect(readdirSync(join(root, 'dist', 'openapi')).sort()).toEqual(
      [...API_NAMES.flatMap((api) => [`${api}.json`, `${api}.yaml`]), ...WORKFLOW_FILES].sort(),
    );
    expect(readdirSync(join(root, 'dist')).sort()).toEqual(['.openapi-sources.sha256', 'openapi']);
  });

  it('then reads them as they are, taking over the lock of a process that died holding it', { timeout: TIMEOUT_MS }, async () => {
    const dead = spawnSync(process.execPath, ['-e', '']).pid!; // a process that has ended: its pid no longer runs
    holdLock(dead);
    const again = await load();
    expect(Object.keys(again.loaded)).toHaveLength(API_NAMES.length);
    // The lock's removal is all it says: the bundles are fresh, so nothing is built.
    expect(again.stderr).toBe(`spec-core: removed the lock of process ${dead}, which ended without releasing it\n`);
    expect(existsSync(lock)).toBe(false);
  });

  it('builds them again once openapi/ changed', { timeout: TIMEOUT_MS }, async () => {
    writeFileSync(join(root, 'openapi', 'edited-after-bundling.txt'), 'a change of the sources\n');
    const again = await load();
    expect(Object.keys(again.loaded)).toHaveLength(API_NAMES.length);
    expect(again.stderr).toMatch(/^spec-core: bundles older than openapi\/, bundling again$/m);
  });
});
