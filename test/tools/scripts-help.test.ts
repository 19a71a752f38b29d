// Every entry point answers --help without starting its work: each .ts file that a package.json script runs with
// `node --import tsx` or `node scripts/run-bundled.mjs` (started the same way, with the arguments the script gives it),
// every other file in scripts/ and the sandbox's main, each a real process. A script that reads its options late (or not at all) would run its work here instead: a
// benchmark, a server, a build; the usage alone on stdout, nothing on stderr and exit 0 say it did not.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../spec-core/apis.ts';
import { testWaitMs } from '../../config/test-waits.ts';

/** `launcher`: what node runs the file with, as package.json has it (`--import tsx --`, or the bundling launcher). */
type Entry = { file: string; launcher: string[]; args: string[]; scripts: string[] };

const TSX = ['--import', 'tsx', '--'];

/** The `[exec] node --import tsx -- <file> [args]` and `node scripts/run-bundled.mjs <file> [args]` commands of
 * package.json's scripts, one entry per file. */
function entryPoints(): Entry[] {
  const { scripts } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const entries = new Map<string, Entry>();
  for (const [name, line] of Object.entries(scripts)) {
    for (const command of line.split(/&&|\|\||;/)) {
      const match = /^\s*(?:exec )?node (--import tsx --|scripts\/run-bundled\.mjs) (\S+\.ts)\s*(.*?)\s*$/.exec(command);
      if (!match) continue;
      const [, launcher, file, rest] = match as unknown as [string, string, string, string];
      const entry = entries.get(file) ?? { file, launcher: launcher.split(' '), args: rest ? rest.split(/\s+/) : [], scripts: [] };
      entry.scripts.push(name);
      entries.set(file, entry);
    }
  }
  return [...entries.values()];
}

const FROM_PACKAGE_JSON = entryPoints();
/** The entry points no npm script names (scripts/sandbox-memory.ts, for one): they answer --help all the same. */
const OTHERS = [...readdirSync(join(repoRoot, 'scripts')).map((name) => `scripts/${name}`), 'sandbox/main.ts']
  .filter((file) => file.endsWith('.ts') && !FROM_PACKAGE_JSON.some((entry) => entry.file === file))
  .map((file): Entry => ({ file, launcher: TSX, args: [], scripts: [] }));
const ENTRIES = [...FROM_PACKAGE_JSON, ...OTHERS];

/** --help parses the command line and exits; a tsx start is about 0.3 s. The deadline only catches a script that starts
 * its work (a server never exits), so it is far above what a busy machine needs: 30 of these starts at once beside other
 * work on two cores once took 32 s. */
const HELP_TIMEOUT_MS = testWaitMs(120_000);
const execute = promisify(execFile);

async function help(entry: Entry): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execute(process.execPath, [...entry.launcher, entry.file, ...entry.args, '--help'], {
      cwd: repoRoot,
      timeout: HELP_TIMEOUT_MS,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    // A non-zero exit, or killed at the timeout (code null, signal SIGTERM): either way not 0.
    const failed = error as { code: number | null; stdout: string; stderr: string };
    return { code: failed.code ?? -1, stdout: failed.stdout, stderr: failed.stderr };
  }
}

it('package.json names the entry points this test covers', () => {
  // Guards the pattern above: were it to match nothing, every test below would pass on an empty list.
  expect(FROM_PACKAGE_JSON.map((entry) => entry.file)).toEqual(
    expect.arrayContaining(['scripts/contract.ts', 'scripts/bench-client.ts', 'scripts/mock.ts', 'sandbox/main.ts']),
  );
  expect(FROM_PACKAGE_JSON.length).toBeGreaterThan(20);
});

describe.concurrent.each(ENTRIES.map((entry) => [`${[entry.file, ...entry.args].join(' ')}`, entry] as const))(
  '%s --help',
  { timeout: HELP_TIMEOUT_MS + 5_000 },
  (_, entry) => {
    it('prints its usage on stdout and exits 0, without starting its work', async () => {
      const result = await help(entry);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const [usageLine = ''] = result.stdout.split('\n');
      expect(usageLine).toMatch(/^usage: \S.* \[options\]/);
      // A usage that says `npm run <name> --` names a script that runs this file.
      const named = /^usage: npm run (\S+) --/.exec(usageLine)?.[1];
      if (named !== undefined && entry.scripts.length > 0) expect(entry.scripts).toContain(named);
      // The usage ends with the options (and any notes); a script that went on to work would print more after it.
      expect(result.stdout).toMatch(/^ {2}-h, --help +Print this help and exit\.$/m);
      expect(result.stdout.match(/^usage: /gm)).toHaveLength(1);
    });
  },
);
