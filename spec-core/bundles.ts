// Loading the bundled specs. The bundles (dist/openapi/<api>.{json,yaml}, with the published Arazzo workflows beside
// them) are the artifact every runtime reader loads: they are built from openapi/ by `npm run bundle`, and on demand by
// the first load in a process that finds them missing or older than openapi/ (a fresh clone, an edited spec), under a
// lock that several processes loading at once share.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parseYaml } from './yaml.ts';
import { API_NAMES, bundleDir, bundlePath, repoRoot, type ApiName } from './apis.ts';
import { runRedoclySync } from './redocly.ts';
import { writePublishedWorkflows } from './workflows.ts';

/** A bundled OpenAPI document, as parsed JSON: the readers inspect it by key. */
export type Bundle = Record<string, any>;

export const bundlesBuilt = (ext: 'json' | 'yaml' = 'json'): boolean => API_NAMES.every((api) => existsSync(bundlePath(api, ext)));

/** Reads and parses one bundle file as it is on disk; throws naming the file when it is missing or unreadable. */
function readBundle(api: ApiName, ext: 'json' | 'yaml'): Bundle {
  const path = bundlePath(api, ext);
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`npm run bundle\` first.`);
  try {
    const text = readFileSync(path, 'utf8');
    return (ext === 'json' ? JSON.parse(text) : parseYaml(text)) as Bundle;
  } catch (error) {
    throw new Error(`cannot read the bundle ${path} (run \`npm run bundle\`): ${(error as Error).message}`);
  }
}

/**
 * Whether this process has already made sure the bundles are fresh: the first load checks (and builds when needed), the
 * others read. A process loads its bundles at start; one that outlives an edit of openapi/ calls ensureBundles again.
 */
let ensuredInThisProcess = false;

/**
 * One bundle, parsed. The first load in a process builds the bundles when one is missing or openapi/ changed since they
 * were built (see ensureBundles; the note goes to stderr, because the mock's stdout is a dotenv block), so every reader
 * works from a fresh clone without a separate step. Throws naming the file when it cannot be read or built.
 */
export function loadBundle(api: ApiName, ext: 'json' | 'yaml' = 'json'): Bundle {
  if (!ensuredInThisProcess) ensureBundles((line) => process.stderr.write(`spec-core: ${line}\n`));
  return readBundle(api, ext);
}

/** Every API's bundle, by name. */
export const loadBundles = (ext: 'json' | 'yaml' = 'json'): Record<ApiName, Bundle> =>
  Object.fromEntries(API_NAMES.map((api) => [api, loadBundle(api, ext)])) as Record<ApiName, Bundle>;

/** Where buildBundles records the digest of what it bundled (see sourcesDigest): beside dist/openapi/, which ships. */
const DIGEST_FILE = join(bundleDir, '..', '.openapi-sources.sha256');

/** Every file under openapi/, depth first, each directory's entries in the order readdir gives them. */
export function specSourceFiles(dir = join(repoRoot, 'openapi')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return specSourceFiles(path);
    return entry.isFile() ? [path] : [];
  });
}

/**
 * One digest of everything a bundle is made from: every file under openapi/ (path and content) and redocly.yaml. Reading
 * them costs a few milliseconds; bundling costs a Redocly start, so readers rebundle only when this changed.
 */
export function sourcesDigest(): string {
  const hash = createHash('sha256');
  const files = specSourceFiles();
  files.push(join(repoRoot, 'redocly.yaml'));
  for (const file of files.sort())
    hash
      .update(`${relative(repoRoot, file)}\0`)
      .update(readFileSync(file))
      .update('\0');
  return hash.digest('hex');
}

/** Whether every bundle exists and was built from openapi/ as it is now. */
export function bundlesFresh(): boolean {
  if (!bundlesBuilt('json') || !bundlesBuilt('yaml') || !existsSync(DIGEST_FILE)) return false;
  return readFileSync(DIGEST_FILE, 'utf8').trim() === sourcesDigest();
}

/**
 * The lock of whoever writes dist/openapi/ (buildBundles, ensureBundles): a directory beside it, holding the pid of its
 * owner, so that processes loading at the same moment (vitest workers, npm test's steps) build once and the others wait.
 */
export const BUNDLE_LOCK = join(bundleDir, '..', '.openapi-bundles.lock');
/** How long a process waits for another one's build: longer than the Redocly run may take (2 minutes). */
const LOCK_WAIT_MS = 180_000;
const LOCK_POLL_MS = 50;

/** Blocks this thread for `ms` (the loaders are synchronous: they run at import time). */
const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Whether this process holds the lock: buildBundles inside ensureBundles must not wait for itself. */
let lockHeld = false;
/** What this process wrote into the lock it holds: its pid, and a token no other holder (a worker thread too) shares. */
let lockContent = '';

/** Thrown when another process held the lock for the whole wait. */
class LockTimeout extends Error {}

/**
 * Takes the lock if nobody holds it. The pid is written in a private directory first and that directory renamed into
 * place, so the lock is taken atomically and never seen without its owner (rename fails onto a non-empty directory).
 */
function tryLock(): boolean {
  mkdirSync(dirname(BUNDLE_LOCK), { recursive: true });
  const draft = mkdtempSync(`${BUNDLE_LOCK}.${process.pid}-`);
  const content = `${process.pid} ${randomUUID()}\n`;
  writeFileSync(join(draft, 'pid'), content);
  try {
    renameSync(draft, BUNDLE_LOCK);
    lockContent = content;
    return true;
  } catch (error) {
    rmSync(draft, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'EISDIR') return false;
    throw error;
  }
}

/** The content of the lock's pid file, or undefined when there is no lock (or it just went). */
function lockFile(dir = BUNDLE_LOCK): string | undefined {
  try {
    return readFileSync(join(dir, 'pid'), 'utf8');
  } catch {
    return undefined;
  }
}

function unlock(): void {
  // Only our own lock: a lock another process took over after ours was deemed stale is theirs.
  if (lockFile() === lockContent) rmSync(BUNDLE_LOCK, { recursive: true, force: true });
  lockContent = '';
}

/** The pid a lock's content names (its first word). */
const ownerIn = (content: string): number => Number(content.trim().split(/\s+/)[0]);

/** The pid in the lock, or undefined when there is no lock (or it just went). */
function lockOwner(): number | undefined {
  const content = lockFile();
  return content === undefined ? undefined : ownerIn(content);
}

const alive = (pid: number): boolean => {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Removes a lock whose owner is dead (killed mid-build) or that is older than any build (its pid since reused): moved
 * aside first, so that of several waiters only one removes it, and put back should it turn out to be a new owner's.
 */
function reapStaleLock(log: (line: string) => void): boolean {
  const content = lockFile();
  if (content === undefined) return false;
  const owner = ownerIn(content);
  let age: number;
  try {
    age = Date.now() - statSync(BUNDLE_LOCK).mtimeMs;
  } catch {
    return false;
  }
  if (alive(owner) && age < LOCK_WAIT_MS) return false;
  const aside = `${BUNDLE_LOCK}.stale-${process.pid}-${Date.now()}`;
  try {
    renameSync(BUNDLE_LOCK, aside);
  } catch {
    return false; // another waiter moved it first
  }
  if (lockFile(aside) === content) {
    log(`removed the lock of process ${owner}, which ${alive(owner) ? 'has held it too long' : 'ended without releasing it'}`);
    rmSync(aside, { recursive: true, force: true });
  } else {
    // Between our look and the move, the stale lock was reaped and a live process locked again: give it back.
    try {
      renameSync(aside, BUNDLE_LOCK);
    } catch {
      rmSync(aside, { recursive: true, force: true });
    }
  }
  return true;
}

/** Runs `work` holding the lock, waiting (up to 3 minutes) for another process that holds it. */
function withLock<T>(log: (line: string) => void, work: () => T): T {
  if (lockHeld) return work();
  const deadline = Date.now() + LOCK_WAIT_MS;
  let said = false;
  while (!tryLock()) {
    if (reapStaleLock(log)) continue;
    if (Date.now() > deadline) {
      throw new LockTimeout(
        `waited ${LOCK_WAIT_MS / 1000} s for process ${lockOwner() ?? '?'} to finish bundling (lock ${relative(repoRoot, BUNDLE_LOCK)}); remove the lock if no such process runs`,
      );
    }
    if (!said) log(`waiting for process ${lockOwner() ?? '?'}, which is bundling`);
    said = true;
    sleep(LOCK_POLL_MS);
  }
  lockHeld = true;
  try {
    return work();
  } finally {
    lockHeld = false;
    unlock();
  }
}

/** buildBundles without the lock: the caller holds it. */
function writeBundles(): string[] {
  rmSync(DIGEST_FILE, { force: true });
  rmSync(bundleDir, { recursive: true, force: true });
  mkdirSync(bundleDir, { recursive: true });
  const digest = sourcesDigest();
  // Redocly's progress goes to our stderr (the mock's stdout is a dotenv block), without its Node.js end-of-life notice.
  runRedoclySync(['bundle', ...API_NAMES], repoRoot);
  const written = API_NAMES.flatMap((api) => {
    writeFileSync(bundlePath(api, 'json'), `${JSON.stringify(readBundle(api, 'yaml'), null, 2)}\n`);
    return [bundlePath(api, 'yaml'), bundlePath(api, 'json')];
  });
  // The Arazzo workflows ship beside the bundles they name (openapi/workflows/ names the sources under openapi/).
  written.push(...writePublishedWorkflows(bundleDir));
  // Last, so that bundles cut short by a failure are never taken for fresh.
  writeFileSync(DIGEST_FILE, `${digest}\n`);
  ensuredInThisProcess = true;
  return written;
}

/**
 * Bundles each API under openapi/ into dist/openapi/<api>.yaml (redocly.yaml names each API's output file; one CLI
 * call bundles all three), writes the same document as <api>.json and the published copy of each Arazzo workflow
 * (spec-core/workflows.ts), holding the lock (waiting for a build another
 * process is running). Returns the files written; prints nothing on stdout, because the mock's stdout is a dotenv block.
 */
export function buildBundles(): string[] {
  return withLock((line) => process.stderr.write(`spec-core: ${line}\n`), writeBundles);
}

/**
 * Builds the bundles when one is missing (a fresh checkout) or openapi/ changed since they were built, so the mock, the
 * sandbox, the docs, the release and every loadBundle never read a spec older than the one in the tree, without a
 * separate step. Safe when several processes call it at once: one builds, under the lock, and the others wait for it,
 * then find the bundles fresh. While another process holds the lock (bundling, or `npm run bundle` rewriting them),
 * the bundles are not taken for fresh even when they look it, so nobody reads a directory being rewritten.
 */
export function ensureBundles(log: (line: string) => void): void {
  if (lockHeld) return; // buildBundles of this process is writing them
  if (!existsSync(BUNDLE_LOCK) && bundlesFresh()) {
    ensuredInThisProcess = true;
    return;
  }
  try {
    withLock(log, () => {
      if (bundlesFresh()) return;
      log(bundlesBuilt('json') && bundlesBuilt('yaml') ? 'bundles older than openapi/, bundling again' : 'bundles missing, bundling');
      try {
        writeBundles();
      } catch (error) {
        throw new Error(`bundling the specs failed: ${(error as Error).message}`);
      }
    });
  } catch (error) {
    // Another process held the lock all along: if the bundles it was writing are whole and fresh now, read them.
    if (!(error instanceof LockTimeout && bundlesFresh())) throw error;
  }
  ensuredInThisProcess = true;
}
