// The temp project of the round trip: a consumer installs @logistics-partner/api by name and version, and compiles,
// strict, the ESM consumer and the README's samples (NodeNext) and the CommonJS consumer (node10 resolution, the
// classic `moduleResolution: "node"` many repos still use).
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ConsumerProject {
  dir: string;
  esm: string;
  cjs: string;
  /** Compiled programs to run, in order: the ESM consumer, the CommonJS consumer, then each README sample. */
  programs: Array<{ name: string; file: string }>;
}

const STRICT = {
  target: 'ES2022',
  strict: true,
  noUncheckedIndexedAccess: true,
  lib: ['ES2023', 'DOM'],
  skipLibCheck: false,
  skipDefaultLibCheck: true,
  outDir: 'out',
};

/** One half of the project: its package.json `type` and a strict tsconfig compiling `files` with node-globals.d.ts. */
function writeModule(dir: string, type: string, resolution: { module: string; moduleResolution: string }, files: string[]): void {
  writeFileSync(join(dir, 'package.json'), `{ "type": "${type}" }\n`);
  const tsconfig = { compilerOptions: { ...STRICT, types: [], ...resolution }, files: ['node-globals.d.ts', ...files] };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
}

/** Writes the project (no install yet). `consumers` is package/consumers of the repo; `samples` are the README's. */
export function writeConsumerProject(dir: string, consumers: string, samples: string[]): ConsumerProject {
  const esm = join(dir, 'esm');
  const cjs = join(dir, 'cjs');
  mkdirSync(esm, { recursive: true });
  mkdirSync(cjs, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'lp-round-trip-consumer', private: true }, null, 2)}\n`);
  // The little of Node the programs use, declared instead of installing @types/node: the compile checks the package's
  // own .d.ts files (skipLibCheck off) and stays quick.
  for (const project of [esm, cjs]) copyFileSync(join(consumers, 'node-globals.d.ts'), join(project, 'node-globals.d.ts'));
  const sampleFiles = samples.map((source, i) => {
    const name = `readme-sample-${i + 1}.ts`;
    writeFileSync(join(esm, name), source);
    return name;
  });
  writeModule(esm, 'module', { module: 'NodeNext', moduleResolution: 'NodeNext' }, ['consumer.ts', ...sampleFiles]);
  copyFileSync(join(consumers, 'esm', 'consumer.ts'), join(esm, 'consumer.ts'));
  writeModule(cjs, 'commonjs', { module: 'CommonJS', moduleResolution: 'node10' }, ['consumer.cts']);
  copyFileSync(join(consumers, 'cjs', 'consumer.cts'), join(cjs, 'consumer.cts'));
  return {
    dir,
    esm,
    cjs,
    programs: [
      { name: 'ESM consumer', file: join(esm, 'out', 'consumer.js') },
      { name: 'CommonJS consumer (node10 resolution, require(esm))', file: join(cjs, 'out', 'consumer.cjs') },
      ...sampleFiles.map((file, i) => ({ name: `README sample ${i + 1}`, file: join(esm, 'out', file.replace(/\.ts$/, '.js')) })),
    ],
  };
}
