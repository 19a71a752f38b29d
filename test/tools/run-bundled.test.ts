// scripts/run-bundled.mjs, which starts the scripts that run vitest in their own process (npm run contract and the
// like), as real processes on a small TypeScript script in a temporary tree: the script runs with its arguments and sees
// itself as the script node started; each module keeps its own import.meta.url; an edit of any of its files is in the
// next run (and nothing is bundled again without one); a stack trace names the TypeScript file and line; two starts at
// once after an edit both run the edited script; a second checkout sharing the first one's node_modules through a link
// runs its own files, not the first one's bundle.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../spec-core/apis.ts';
import { testWaitMs } from '../../config/test-waits.ts';

/** A start and a bundle take well under a second alone; this only stops a launcher that hangs. */
const TIMEOUT_MS = testWaitMs(60_000);

const MAIN = `import { isMainModule } from './cli.ts';
import { here, VALUE } from './lib/where.ts';
const fail: boolean = process.argv.includes('--fail');
if (fail) here.explode();
process.stdout.write(JSON.stringify({ main: import.meta.url, lib: here.url, value: VALUE, isMain: isMainModule(import.meta.url), argv: process.argv.slice(1) }));
`;
const CLI = `import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
export const isMainModule = (url: string): boolean => fileURLToPath(url) === resolve(process.argv[1] ?? '');
`;
const where = (value: string) => `interface Here { url: string; explode(): never }
export const VALUE: string = ${JSON.stringify(value)};
export const here: Here = {
  url: new URL('.', import.meta.url).href,
  explode(): never {
    throw new Error('exploded on purpose');
  },
};
`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe('scripts/run-bundled.mjs', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'lp-run-bundled-'));
    mkdirSync(join(root, 'scripts'));
    cpSync(join(repoRoot, 'scripts/run-bundled.mjs'), join(root, 'scripts/run-bundled.mjs'));
    // esbuild from the kit's own install; the bundles go to this tree's node_modules/.cache, not the kit's.
    mkdirSync(join(root, 'node_modules'));
    for (const name of ['esbuild', '@esbuild']) symlinkSync(join(repoRoot, 'node_modules', name), join(root, 'node_modules', name), 'dir');
    mkdirSync(join(root, 'probe/lib'), { recursive: true });
    writeFileSync(join(root, 'probe/main.ts'), MAIN);
    writeFileSync(join(root, 'probe/cli.ts'), CLI);
    writeFileSync(join(root, 'probe/lib/where.ts'), where('first'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const runIn = (cwd: string, ...args: string[]) =>
    new Promise<Run>((done, fail) => {
      const child = spawn(process.execPath, ['scripts/run-bundled.mjs', ...args], { cwd, timeout: TIMEOUT_MS });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', fail);
      child.on('close', (code) => done({ code, stdout, stderr }));
    });
  const run = (...args: string[]) => runIn(root, ...args);
  /** The time of this checkout's bundle: the one in the cache that names this checkout's script. */
  const bundleTime = () => {
    const cache = join(root, 'node_modules/.cache/lp-scripts');
    const own = readdirSync(cache)
      .map((folder) => join(cache, folder, 'probe+main.mjs'))
      .filter((file) => readFileSync(file, 'utf8').includes(join(root, 'probe/main.ts')));
    expect(own).toHaveLength(1);
    return statSync(own[0]!).mtimeMs;
  };

  it('runs the script with its arguments, as the script node started, each module with its own URL', async () => {
    const result = await run('probe/main.ts', '--target', 'live', '--', 'x');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      main: `file://${join(root, 'probe/main.ts')}`,
      lib: `file://${join(root, 'probe/lib')}/`,
      value: 'first',
      isMain: true,
      argv: [join(root, 'probe/main.ts'), '--target', 'live', '--', 'x'],
    });
  });

  it('bundles again after an edit of any file of the script, and only then', async () => {
    await run('probe/main.ts');
    const before = bundleTime();
    expect(JSON.parse((await run('probe/main.ts')).stdout).value).toBe('first');
    expect(bundleTime()).toBe(before);
    writeFileSync(join(root, 'probe/lib/where.ts'), where('second'));
    // Two starts at once after the edit: each runs the edited script from a whole bundle.
    const both = await Promise.all([run('probe/main.ts'), run('probe/main.ts')]);
    for (const result of both) {
      expect(result.stderr).toBe('');
      expect(JSON.parse(result.stdout).value).toBe('second');
    }
    expect(bundleTime()).not.toBe(before);
  });

  it("runs a second checkout's own files when it shares the first one's node_modules through a link", async () => {
    await run('probe/main.ts');
    const second = mkdtempSync(join(tmpdir(), 'lp-run-bundled-second-'));
    try {
      for (const part of ['scripts', 'probe']) cpSync(join(root, part), join(second, part), { recursive: true });
      symlinkSync(join(root, 'node_modules'), join(second, 'node_modules'), 'dir');
      const result = await runIn(second, 'probe/main.ts');
      expect(result.stderr).toBe('');
      expect(JSON.parse(result.stdout)).toMatchObject({
        main: `file://${join(second, 'probe/main.ts')}`,
        lib: `file://${join(second, 'probe/lib')}/`,
        isMain: true,
      });
      // And the first checkout still runs its own, from its own bundle.
      expect(JSON.parse((await run('probe/main.ts')).stdout).main).toBe(`file://${join(root, 'probe/main.ts')}`);
    } finally {
      rmSync(second, { recursive: true, force: true });
    }
  });

  it('names the TypeScript file and line in a stack trace', async () => {
    const result = await run('probe/main.ts', '--fail');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('exploded on purpose');
    expect(result.stderr).toContain(`${join(root, 'probe/lib/where.ts')}:6`);
  });

  it('says what it needs when started without a script', async () => {
    const result = await run();
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^usage: node scripts\/run-bundled\.mjs SCRIPT\.ts/);
  });
});
