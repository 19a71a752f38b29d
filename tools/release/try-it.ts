// The "Try it in five minutes" section of the package README, run as written by pack:check: its code blocks are read
// from the README text, in order, so the README and the check cannot drift. A shell block runs as it is (`sh -e`, one
// terminal: a `cd` carries over to the next block), a TypeScript block is saved under the name its first line gives, a
// text block is the output the last command must end with. Two things are done for the reader: the block that clones the
// kit and starts its sandbox is checked (it must clone the package's repository and run `npm run sandbox`) and stands for
// the sandbox pack:check runs (the same sandbox/main.ts, on a free port), and the `LP_*` lines that sandbox printed are
// saved as `.env` before the first block that reads `.env`, as the README asks the reader to.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { step } from './steps.ts';

export const TRY_IT_HEADING = '## Try it in five minutes';

export type TryItBlock =
  | { kind: 'sandbox'; text: string }
  | { kind: 'shell'; text: string }
  | { kind: 'file'; name: string; text: string }
  | { kind: 'output'; text: string };

export interface TryIt {
  blocks: TryItBlock[];
  /** The packages the section installs as dev dependencies (`npm install --save-dev ...`): what the registry must serve. */
  devDependencies: string[];
}

/** `git+https://host/x.git` (package.json's repository.url) as a URL `git clone` takes: `https://host/x.git`. */
export function cloneUrl(repository: { url?: string } | string | undefined): string | undefined {
  const url = typeof repository === 'string' ? repository : repository?.url;
  return url?.replace(/^git\+/, '');
}

/** The section's text, from its heading to the next `## ` heading; undefined when the README has none. */
export function tryItSection(readme: string): string | undefined {
  const start = readme.split('\n').indexOf(TRY_IT_HEADING);
  if (start < 0) return undefined;
  const lines = readme.split('\n').slice(start + 1);
  const end = lines.findIndex((line) => line.startsWith('## '));
  return (end < 0 ? lines : lines.slice(0, end)).join('\n');
}

/**
 * The section's blocks, checked: it clones `repository` and starts the sandbox first, installs `packageName`, saves a
 * TypeScript program that a later shell block runs, reads `.env`, and ends with the output to expect. Throws, listing
 * every problem.
 */
export function readTryIt(readme: string, packageName: string, repository: string): TryIt {
  const section = tryItSection(readme);
  if (section === undefined) throw new Error(`pack:check: the package README has no "${TRY_IT_HEADING}" section`);
  const blocks: TryItBlock[] = [];
  for (const [, lang, text] of section.matchAll(/^```([\w-]*)[ \t]*\n([\s\S]*?)^```[ \t]*$/gm)) {
    const body = text!;
    if (/^(sh|shell|bash)?$/.test(lang!)) blocks.push({ kind: /^\s*git clone\b/m.test(body) ? 'sandbox' : 'shell', text: body });
    else if (/^(ts|typescript)$/.test(lang!))
      blocks.push({ kind: 'file', name: /^\/\/\s*(\S+\.m?ts)\s*$/m.exec(body.split('\n')[0]!)?.[1] ?? '', text: body });
    else if (lang === 'text') blocks.push({ kind: 'output', text: body });
  }
  const problems: string[] = [];
  const sandbox = blocks.filter((block) => block.kind === 'sandbox');
  const commands = (text: string) =>
    text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'));
  if (sandbox.length !== 1 || blocks[0]?.kind !== 'sandbox')
    problems.push('the first block must clone the kit and start its sandbox (and be the only one that clones)');
  else {
    const lines = commands(sandbox[0]!.text);
    if (lines[0] !== `git clone ${repository}`)
      problems.push(`the sandbox block must start with "git clone ${repository}" (package.json's repository)`);
    if (!lines.includes('npm run sandbox')) problems.push('the sandbox block must run "npm run sandbox"');
  }
  const shells = blocks.filter((block) => block.kind === 'shell');
  const installs = shells.flatMap((block) => commands(block.text)).filter((line) => /^npm (install|i|add)\b/.test(line));
  if (!installs.some((line) => line.split(/\s+/).slice(2).includes(packageName)))
    problems.push(`no shell block runs "npm install ${packageName}"`);
  const devDependencies = installs
    .filter((line) => /\s(--save-dev|-D)\b/.test(line))
    .flatMap((line) => line.split(/\s+/).slice(2))
    .filter((word) => !word.startsWith('-'));
  const files = blocks.filter((block): block is Extract<TryItBlock, { kind: 'file' }> => block.kind === 'file');
  if (files.length === 0) problems.push('no TypeScript block (the program to save)');
  for (const file of files) {
    if (!file.name) problems.push('a TypeScript block does not name its file on its first line (// name.ts)');
    else if (!blocks.slice(blocks.indexOf(file)).some((block) => block.kind === 'shell' && block.text.includes(file.name)))
      problems.push(`no shell block after it runs ${file.name}`);
  }
  if (!shells.some((block) => /(^|[\s=])\.env\b/.test(block.text)))
    problems.push('no shell block reads .env (the LP_* lines the sandbox printed)');
  if (blocks.at(-1)?.kind !== 'output') problems.push('the section must end with the output to expect (a ```text block)');
  if (problems.length > 0)
    throw new Error(`pack:check: the "${TRY_IT_HEADING}" section of the package README:\n- ${problems.join('\n- ')}`);
  return { blocks, devDependencies };
}

export interface TryItRun {
  /** A new, empty folder: where the reader's terminal starts. */
  dir: string;
  /** npm pointed at the local registry, no LP_* variable. */
  env: NodeJS.ProcessEnv;
  /** What the sandbox printed, its `LP_*` lines among them. */
  sandboxOutput: string[];
}

/** Runs the blocks; resolves with the last command's output, which ends with the section's expected output. */
export async function runTryIt(tryIt: TryIt, run: TryItRun): Promise<string> {
  mkdirSync(run.dir, { recursive: true });
  // Where each block leaves its shell's working directory, for the next one.
  const state = `${run.dir}.cwd`;
  let cwd = run.dir;
  let envWritten = false;
  let last = '';
  for (const [index, block] of tryIt.blocks.entries()) {
    const label = `README "${TRY_IT_HEADING.slice(3)}" block ${index + 1}`;
    if (block.kind === 'sandbox') continue;
    if (block.kind === 'file') {
      writeFileSync(join(cwd, block.name), block.text);
      continue;
    }
    if (block.kind === 'output') {
      const expected = block.text.trimEnd().split('\n');
      const got = last.trimEnd().split('\n').slice(-expected.length);
      if (got.join('\n') !== expected.join('\n'))
        throw new Error(
          `pack:check: ${label}: expected the output\n${expected.join('\n')}\nbut the last command printed\n${last.trimEnd()}`,
        );
      continue;
    }
    if (!envWritten && /(^|[\s=])\.env\b/.test(block.text)) {
      const lines = run.sandboxOutput.filter((line) => /^LP_\w+=/.test(line));
      writeFileSync(join(cwd, '.env'), `${lines.join('\n')}\n`, { mode: 0o600 });
      envWritten = true;
    }
    const firstLine = block.text.trim().split('\n')[0];
    const result = await step(
      `${label}: ${firstLine}${block.text.trim().includes('\n') ? ' ...' : ''}`,
      'sh',
      ['-e', '-c', `${block.text}\npwd > "$PACK_CHECK_CWD"`],
      {
        cwd,
        env: { ...run.env, PACK_CHECK_CWD: state },
        timeoutMs: 120_000,
      },
    );
    last = result.stdout;
    cwd = readFileSync(state, 'utf8').trim();
  }
  return last;
}
