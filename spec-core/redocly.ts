// How the kit runs the Redocly CLI (lint, bundle, build-docs): the copy in node_modules, run by this Node, with its
// telemetry and update check switched off, so that no run reaches the internet, and without its Node.js end-of-life
// notice in what the kit relays.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { constants } from 'node:os';
import { promisify } from 'node:util';
import { repoRoot } from './apis.ts';

export const REDOCLY_CLI = `${repoRoot}/node_modules/@redocly/cli/lib/index.js`;

/** The environment of a Redocly CLI run: ours, with telemetry and the update notice off. */
export const redoclyEnv = (): NodeJS.ProcessEnv => ({ ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' });

/**
 * Redocly CLI 2.x prints a boxed notice to stderr at every start on Node.js 20 ("Deprecation warning: Node.js 20
 * support is ending ... Node.js 20 reached end-of-life on April 30, 2026 ..."): lib/index.js checks the major version
 * before it reads any option, and no option or environment variable turns it off. The kit still supports Node 20
 * (package.json's engines), so partners and CI logs would read it on every lint, bundle and docs build. The kit relays
 * Redocly's output without that one box; everything else, warnings included, passes as it is.
 */
const NOTICE = /Node\.js \d+ support is ending|Node\.js \d+ reached end-of-life/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes are what this removes.
const ANSI = /\u001b\[[0-9;]*m/g;
const plain = (line: string) => line.replace(ANSI, '').trim();

/**
 * Removes Redocly's Node.js end-of-life notice from its output as it streams: lines pass through as they come, except a
 * box (from its `╔` line to its `╚` line), held until it closes and dropped when it is that notice, with the blank line
 * before and after it. A blank line waits for the next one, which says whether it opens the notice.
 */
export class EndOfLifeNoticeFilter {
  private partial = '';
  private blank: string | undefined;
  private box: string[] | undefined;
  private dropBlank = false;

  /** The text to pass on now for `chunk`. */
  push(chunk: string): string {
    const lines = (this.partial + chunk).split(/(?<=\n)/);
    this.partial = lines.at(-1)?.endsWith('\n') ? '' : (lines.pop() ?? '');
    return lines.map((line) => this.line(line)).join('');
  }

  /** What is left at the end of the output. */
  end(): string {
    const rest = `${this.blank ?? ''}${this.box?.join('') ?? ''}${this.partial}`;
    this.blank = undefined;
    this.box = undefined;
    this.partial = '';
    return rest;
  }

  private line(line: string): string {
    const text = plain(line);
    if (this.box) {
      this.box.push(line);
      if (!text.startsWith('╚')) return '';
      const box = this.box.join('');
      this.box = undefined;
      const before = this.blank ?? '';
      this.blank = undefined;
      if (!NOTICE.test(box.replace(ANSI, ''))) return before + box;
      this.dropBlank = true;
      return '';
    }
    if (text.startsWith('╔')) {
      this.box = [line];
      return '';
    }
    const before = this.blank ?? '';
    this.blank = undefined;
    if (text === '') {
      if (this.dropBlank) {
        this.dropBlank = false;
        return before;
      }
      this.blank = line;
      return before;
    }
    this.dropBlank = false;
    return before + line;
  }
}

/** `text` (a whole run's output) without Redocly's Node.js end-of-life notice. */
export function withoutEndOfLifeNotice(text: string): string {
  const filter = new EndOfLifeNoticeFilter();
  return filter.push(text) + filter.end();
}

/** A run of the Redocly CLI that has not ended in two minutes is stopped; its output is kept up to 16 MiB. */
const LIMITS = { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 };

/** Runs the Redocly CLI with `args` in `cwd` (two minutes at most); rejects with its stderr on failure. */
export async function runRedocly(args: string[], cwd: string): Promise<{ stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [REDOCLY_CLI, ...args], { cwd, env: redoclyEnv(), ...LIMITS });
    return { stdout: withoutEndOfLifeNotice(stdout), stderr: withoutEndOfLifeNotice(stderr) };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    if (typeof failed.stdout === 'string') failed.stdout = withoutEndOfLifeNotice(failed.stdout);
    if (typeof failed.stderr === 'string') failed.stderr = withoutEndOfLifeNotice(failed.stderr);
    throw error;
  }
}

/**
 * Runs the Redocly CLI synchronously in `cwd` (two minutes at most), its stdout ignored and its stderr (progress,
 * problems) relayed to ours once it ends. Throws naming the exit code, with the stderr, when it fails.
 */
export function runRedoclySync(args: string[], cwd: string): void {
  const result = spawnSync(process.execPath, [REDOCLY_CLI, ...args], {
    cwd,
    env: redoclyEnv(),
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    ...LIMITS,
  });
  const stderr = withoutEndOfLifeNotice(result.stderr ?? '');
  process.stderr.write(stderr);
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`redocly ${args[0]} exited with ${result.status ?? result.signal}`);
}

/**
 * Runs the Redocly CLI in `cwd` as a command of its own (`npm run lint`): its stdout and stderr stream to ours as they
 * come, the stderr without the end-of-life notice. Resolves with its exit code.
 */
export function relayRedocly(args: string[], cwd: string): Promise<number> {
  const child = spawn(process.execPath, [REDOCLY_CLI, ...args], { cwd, env: redoclyEnv(), stdio: ['inherit', 'inherit', 'pipe'] });
  const filter = new EndOfLifeNoticeFilter();
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => process.stderr.write(filter.push(chunk)));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      process.stderr.write(filter.end());
      resolve(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0));
    });
  });
}
