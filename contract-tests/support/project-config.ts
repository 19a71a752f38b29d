// The contract project's own options, whatever the run: its name, setup, tags, pool, module cache and retries. Both ways
// of starting it take them from here: a vitest started directly (contract-tests/vitest.config.ts, and the root config's
// projects), and the runner (runner/run-suite.ts), which passes them inline with its run's options over them, without a
// config file to bundle and load (some 0.15 CPU-seconds of a run's start).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InlineConfig } from 'vitest/node';
import { clauseTags } from '../judge/oauth-clauses.ts';

const root = new URL('../..', import.meta.url).pathname;

/** Vitest's transforms kept on disk (below): a folder per lock file. */
function moduleCachePath(): string {
  const lockFile = join(root, 'package-lock.json');
  return join(
    root,
    'node_modules/.experimental-vitest-cache',
    existsSync(lockFile) ? createHash('sha1').update(readFileSync(lockFile)).digest('hex').slice(0, 12) : 'no-lock-file',
  );
}

export function projectConfig() {
  return {
    name: 'contract',
    root,
    setupFiles: ['contract-tests/support/setup.ts'],
    globalSetup: ['contract-tests/support/global-setup.ts'],
    // A test that checks an OAuth clause declares the clause's id among its tags (judge/oauth-clauses.ts): one tag per
    // clause, so a test naming an id no clause has does not run, and `--tags-filter <id>` runs one clause's tests.
    tags: clauseTags(),
    // Files share one module graph, so the bundles are parsed and the ajv validators compiled once per run.
    isolate: false,
    // Worker threads: a run's worker starts cheaper than a process (contract:mutation starts one per run, some 50).
    pool: 'threads',
    // Vitest's transforms of the suite's modules kept on disk between runs (node_modules/.experimental-vitest-cache,
    // keyed by each file's content): a run's workers wait for the main thread to transform every module they load,
    // which took about 1.3 s of a live run's start on two cores.
    // Kept in a folder of its own per lock file: vitest clears its cache when the lock file changes, and that clearing
    // races the run's own first writes (the run after an `npm install` died with ENOENT on a .tmp file of the cache,
    // before any check); a new lock file now starts an empty folder, which nothing clears.
    experimental: { fsModuleCache: true, fsModuleCachePath: moduleCachePath() },
    // A write whose answer never came has an unknown outcome (send/transport.ts says so in these words): that is
    // nobody's verdict yet, so the check runs once more, building a new event, before it counts as "could not judge".
    // Nothing else is retried (self/transport.test.ts holds the words and the config together).
    retry: { count: 1, condition: /it is not sent again, since a second write could record twice/ },
  } satisfies InlineConfig;
}
