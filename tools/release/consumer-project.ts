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

/** Writes the project (no install yet). `consumers` is package/consumers of the repo; `samples` are the README's. */
export function writeConsumerProject(dir: string, consumers: string, samples: string[]): ConsumerProject {
  const esm = join(dir, 'esm');
  const cjs = join(dir, 'cjs');
  mkdirSync(esm, { recursive: true });
  mkdirSync(cjs, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'lp-round-trip-consumer', private: true }, null, 2)}\n`);
  const types = { types: [] };
  // The little of Node the programs use, declared instead of installing @types/node: the compile checks the package's
  // own .d.ts files (skipLibCheck off) and stays quick.
  for (const project of [esm, cjs]) copyFileSync(join(consumers, 'node-globals.d.ts'), join(project, 'node-globals.d.ts'));
  const sampleFiles = samples.map((source, i) => {
    const name = `readme-sample-${i + 1}.ts`;
    writeFileSync(join(esm, name), source);
    return name;
  });
  copyFileSync(join(consumers, 'esm', 'consumer.ts'), join(esm, 'consumer.ts'));
  writeFileSync(join(esm, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(
    join(esm, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: { ...STRICT, ...types, module: 'NodeNext', moduleResolution: 'NodeNext' },
        files: ['node-globals.d.ts', 'consumer.ts', ...sampleFiles],
      },
      null,
      2,
    ),
  );
  copyFileSync(join(consumers, 'cjs', 'consumer.cts'), join(cjs, 'consumer.cts'));
  writeFileSync(join(cjs, 'package.json'), '{ "type": "commonjs" }\n');
  writeFileSync(
    join(cjs, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: { ...STRICT, ...types, module: 'CommonJS', moduleResolution: 'node10' },
        files: ['node-globals.d.ts', 'consumer.cts'],
      },
      null,
      2,
    ),
  );
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
