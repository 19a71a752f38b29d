// The temp project of the round trip: a consumer installs @logistics-partner/api by name and version, and compiles the
// README's samples and both consumers (package/consumers) in three configurations:
// - esm/: strict (strict, noUncheckedIndexedAccess), NodeNext, `"type": "module"`: the ESM consumer and the samples,
//   compiled to the programs pack:check runs against the sandbox;
// - init/: the tsconfig `tsc --init` of the kit's TypeScript writes (generated there by that tsc: exactOptionalPropertyTypes,
//   verbatimModuleSyntax, nodenext, ...), `"type": "module"`: the samples and both consumers, type-checked only;
// - cjs/: strict, `--module commonjs` with the classic node10 resolution, `"type": "commonjs"`: the CommonJS consumer
//   (run against the sandbox too) and every sample as CommonJS (its statements inside an async function: top-level
//   await is ESM only).
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ConsumerProject {
  dir: string;
  esm: string;
  cjs: string;
  /** Where `tsc --init` must be run before the compile; init/tsconfig.check.json extends what it writes. */
  init: string;
  /** The tsconfig files to build (`tsc --build`): esm and cjs emit, init only checks. */
  builds: string[];
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

/** One strict part of the project: its package.json `type` and a tsconfig compiling `files` with node-globals.d.ts. */
function writeStrict(dir: string, type: string, resolution: { module: string; moduleResolution: string }, files: string[]): void {
  writeFileSync(join(dir, 'package.json'), `{ "type": "${type}" }\n`);
  const tsconfig = { compilerOptions: { ...STRICT, types: [], ...resolution }, files: ['node-globals.d.ts', ...files] };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
}

/**
 * A sample as a CommonJS module: its leading imports (and the comments among them) stay at the top, the statements
 * after them go into an async function.
 */
export function asCommonJs(sample: string): string {
  const header = /^(?:[ \t]*(?:\/\/[^\n]*)?\n|[ \t]*import\b[^;]*;[^\n]*\n)*/.exec(sample)![0];
  const body = sample.slice(header.length);
  return `${header}\nexport {};\n\nasync function main(): Promise<void> {\n${body}}\n\nvoid main();\n`;
}

/** Writes the project (no install, no `tsc --init` yet). `consumers` is package/consumers of the repo; `samples` are the README's. */
export function writeConsumerProject(dir: string, consumers: string, samples: string[]): ConsumerProject {
  const esm = join(dir, 'esm');
  const cjs = join(dir, 'cjs');
  const init = join(dir, 'init');
  for (const part of [esm, cjs, init]) mkdirSync(part, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'lp-round-trip-consumer', private: true }, null, 2)}\n`);
  // The little of Node the programs use, declared instead of installing @types/node: the compile checks the package's
  // own .d.ts files (skipLibCheck off in the strict parts) and stays quick.
  for (const part of [esm, cjs, init]) copyFileSync(join(consumers, 'node-globals.d.ts'), join(part, 'node-globals.d.ts'));
  const sampleFiles = samples.map((_, i) => `readme-sample-${i + 1}.ts`);
  samples.forEach((source, i) => {
    writeFileSync(join(esm, sampleFiles[i]!), source);
    writeFileSync(join(init, sampleFiles[i]!), source);
    writeFileSync(join(cjs, sampleFiles[i]!), asCommonJs(source));
  });
  for (const part of [esm, init]) copyFileSync(join(consumers, 'esm', 'consumer.ts'), join(part, 'consumer.ts'));
  for (const part of [cjs, init]) copyFileSync(join(consumers, 'cjs', 'consumer.cts'), join(part, 'consumer.cts'));
  writeStrict(esm, 'module', { module: 'NodeNext', moduleResolution: 'NodeNext' }, ['consumer.ts', ...sampleFiles]);
  writeStrict(cjs, 'commonjs', { module: 'CommonJS', moduleResolution: 'node10' }, ['consumer.cts', ...sampleFiles]);
  writeFileSync(join(init, 'package.json'), '{ "type": "module" }\n');
  // Everything of the generated tsconfig.json but the files to check (and no output: only the strict parts are run).
  const check = {
    extends: './tsconfig.json',
    compilerOptions: { noEmit: true },
    files: ['node-globals.d.ts', 'consumer.ts', 'consumer.cts', ...sampleFiles],
  };
  writeFileSync(join(init, 'tsconfig.check.json'), JSON.stringify(check, null, 2));
  return {
    dir,
    esm,
    cjs,
    init,
    builds: [esm, cjs, join(init, 'tsconfig.check.json')],
    programs: [
      { name: 'ESM consumer', file: join(esm, 'out', 'consumer.js') },
      { name: 'CommonJS consumer (node10 resolution, require(esm))', file: join(cjs, 'out', 'consumer.cjs') },
      ...sampleFiles.map((file, i) => ({ name: `README sample ${i + 1}`, file: join(esm, 'out', file.replace(/\.ts$/, '.js')) })),
    ],
  };
}
