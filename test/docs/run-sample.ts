// Runs a docs sample as a partner would: a shell command with curl, or a TypeScript file that imports
// '@logistics-partner/api' (resolved to the client's source) run by tsx. Bounded in time and output.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { repoRoot } from '../../spec-core/apis.ts';
import { testWaitMs } from '../../config/test-waits.ts';

const TIMEOUT_MS = testWaitMs(30_000);
const MAX_OUTPUT = 1024 * 1024;

export interface SampleRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

const result = (run: ReturnType<typeof spawnSync>): SampleRun => ({
  status: run.status,
  stdout: String(run.stdout),
  stderr: String(run.stderr),
});

/** A shell sample (sh -c), with only the given variables beside PATH: what it needs must come from the sample or `env`. */
export function runShellSample(source: string, env: Record<string, string> = {}): SampleRun {
  return result(
    spawnSync('sh', ['-c', source], {
      encoding: 'utf8',
      timeout: TIMEOUT_MS,
      maxBuffer: MAX_OUTPUT,
      env: { PATH: process.env.PATH ?? '', ...env },
    }),
  );
}

/** Compiler options under which a sample file sees '@logistics-partner/api' as a consumer does, from the client's source. */
export const consumerCompilerOptions = {
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  strict: true,
  skipLibCheck: true,
  types: ['node'],
  typeRoots: [`${repoRoot}/node_modules/@types`],
  paths: { '@logistics-partner/api': [`${repoRoot}/src/index.ts`] },
};

/** The project the samples are saved in: a fresh `npm init` project is CommonJS, where a `.mts` file is still ESM. */
export interface SampleProject {
  packageType?: 'module' | 'commonjs';
  extension?: 'ts' | 'mts';
}

const SEPARATOR = '\n--- next sample ---\n';

/**
 * TypeScript samples, each saved as a module of a fresh project and run one after the other by one tsx process (tsx
 * reads the tsconfig paths): one Node start for all of them. A sample that throws gets status 1 and the error's first
 * line as stderr; the others still run.
 */
export function runTypeScriptSamples(sources: string[], env: Record<string, string> = {}, project: SampleProject = {}): SampleRun[] {
  const { packageType = 'module', extension = 'ts' } = project;
  const dir = mkdtempSync(`${tmpdir()}/docs-sample-run-`);
  try {
    writeFileSync(`${dir}/package.json`, JSON.stringify({ type: packageType }));
    writeFileSync(`${dir}/tsconfig.json`, JSON.stringify({ compilerOptions: consumerCompilerOptions }));
    for (const [index, source] of sources.entries()) writeFileSync(`${dir}/sample-${index}.${extension}`, source);
    const runner = [
      `for (let i = 0; i < ${sources.length}; i++) {`,
      `  if (i > 0) process.stdout.write(${JSON.stringify(SEPARATOR)});`,
      '  try {',
      `    await import(\`./sample-\${i}.${extension}\`);`,
      '  } catch (error) {',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the sample runner's own source, a template literal in it on purpose
      "    process.stdout.write(`\\n[sample failed] ${String((error as Error).message ?? error).split('\\n')[0]}`);",
      '  }',
      '}',
    ].join('\n');
    writeFileSync(`${dir}/run-all.mts`, runner);
    const run = spawnSync(process.execPath, ['--import', import.meta.resolve('tsx'), 'run-all.mts'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: TIMEOUT_MS,
      maxBuffer: MAX_OUTPUT,
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    if (run.status !== 0) return sources.map(() => result(run));
    return String(run.stdout)
      .split(SEPARATOR)
      .map((stdout) => {
        const failed = /\n?\[sample failed\] (.*)$/.exec(stdout);
        return failed ? { status: 1, stdout: stdout.slice(0, failed.index), stderr: failed[1]! } : { status: 0, stdout, stderr: '' };
      });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One TypeScript sample, run as runTypeScriptSamples runs each. */
export const runTypeScriptSample = (source: string, env: Record<string, string> = {}, project: SampleProject = {}): SampleRun =>
  runTypeScriptSamples([source], env, project)[0]!;
