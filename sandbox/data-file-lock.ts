// One sandbox per --data file: a lock file next to it holds the owner's pid. Two sandboxes
// appending to one file would interleave and each would miss the other's events. A lock left
// by a sandbox that was killed (kill -9 runs no cleanup) names a dead pid and is taken over.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';

export type DataFileLock = { path: string; release(): void };

/** True when a process with this pid exists (EPERM: it exists but belongs to another user). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function ownerOf(lockPath: string): number | undefined {
  try {
    const pid = Number(readFileSync(lockPath, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined; // removed meanwhile, or unreadable: treated as stale
  }
}

export function lockDataFile(dataFile: string): DataFileLock {
  const path = `${dataFile}.lock`;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    let fd: number;
    try {
      fd = openSync(path, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new Error(`--data ${dataFile}: cannot create the lock file ${path}: ${(error as Error).message}`);
      }
      const owner = ownerOf(path);
      if (owner !== undefined && isAlive(owner)) {
        throw new Error(
          `--data ${dataFile} is in use by another sandbox (pid ${owner}${owner === process.pid ? ', this process' : ''}). ` +
            `Stop it or use another file; if no sandbox runs with it, delete ${path}.`,
        );
      }
      // Stale: its sandbox died without cleaning up. Remove it and try once more (another starter may win the race).
      try {
        unlinkSync(path);
      } catch {
        // already gone
      }
      continue;
    }
    writeSync(fd, `${process.pid}\n`);
    closeSync(fd);
    let released = false;
    return {
      path,
      release() {
        if (released) return;
        released = true;
        // Only remove our own lock: a stale-lock takeover by another process must not be undone.
        if (ownerOf(path) === process.pid) {
          try {
            unlinkSync(path);
          } catch {
            // already gone
          }
        }
      },
    };
  }
  throw new Error(`--data ${dataFile}: another sandbox took the lock ${path} while this one was starting`);
}
