// YAML for the spec modules: parsing, with the yaml package loaded on the first parse, and what a module derives from
// YAML kept as JSON between processes. The contract suite's worker threads load these modules and need only what was
// derived (the seed's sections, the assumptions' sources): loading yaml cost each worker some 35 ms of its start, and
// a far run starts four of them on two cores.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

type Yaml = typeof import('yaml');

const require = createRequire(import.meta.url);
let loaded: Yaml | undefined;

/** The parsed value of one YAML document (yaml's `parse`). */
export function parseYaml(text: string): unknown {
  loaded ??= require('yaml') as Yaml;
  return loaded.parse(text);
}

/**
 * What `derive` makes of YAML sources, kept under `dir` as JSON, one file per `sources` (a digest of them, or their
 * text) and yaml version: the next process reads it rather than loading yaml and parsing again. Written to a file of its
 * own and renamed, the files of other sources removed; in a read-only checkout each process derives it again.
 */
export function keptAsJson<T>(dir: string, sources: string, derive: () => T): T {
  const { version } = require('yaml/package.json') as { version: string };
  const digest = createHash('sha256').update(`${version}\0${sources}`).digest('hex').slice(0, 16);
  const file = join(dir, `${digest}.json`);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    // Not written yet (or removed meanwhile by a process of other sources): derive it.
  }
  const derived = derive();
  try {
    mkdirSync(dir, { recursive: true });
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, JSON.stringify(derived));
    renameSync(partial, file);
    for (const name of readdirSync(dir)) if (name !== `${digest}.json` && !name.endsWith('.tmp')) rmSync(join(dir, name), { force: true });
  } catch {
    // A read-only checkout: the next process derives it again.
  }
  return derived;
}
