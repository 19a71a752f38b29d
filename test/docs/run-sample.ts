// Runs a docs sample as a partner would: a shell command with curl, or a TypeScript file that imports
// '@logistics-partner/api' (resolved to the client's source) run by tsx. Bounded in time and output.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { repoRoot } from '../../spec-core/apis.ts';

const TIMEOUT_MS = 30_000;
const MAX_OUTPUT = 1024 * 1024;

export interface SampleRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

const result = (run: ReturnType<typeof spawnSync>): SampleRun => ({ status: run.status, stdout: String(run.stdout), stderr: String(run.stderr) });

/** A shell sample (sh -c), with only the given variables beside PATH: what it needs must come from the sample or `env`. */
export function runShellSample(source: string, env: Record<string, string> = {}): SampleRun {
  return result(spawnSync('sh', ['-c', source], { encoding: 'utf8', timeout: TIMEOUT_MS, maxBuffer: MAX_OUTPUT, env: { PATH: process.env.PATH ?? '', ...env } }));
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

/** A TypeScript sample saved as a file of a fresh module project and run with tsx (which reads the tsconfig paths). */
export function runTypeScriptSample(source: string, env: Record<string, string> = {}): SampleRun {
  const dir = mkdtempSync(`${tmpdir()}/docs-sample-run-`);
  try {
    writeFileSync(`${dir}/package.json`, JSON.stringify({ type: 'module' }));
    writeFileSync(`${dir}/tsconfig.json`, JSON.stringify({ compilerOptions: consumerCompilerOptions }));
    writeFileSync(`${dir}/sample.ts`, source);
    const tsx = import.meta.resolve('tsx');
    return result(
      spawnSync(process.execPath, ['--import', tsx, 'sample.ts'], {
        cwd: dir,
        encoding: 'utf8',
        timeout: TIMEOUT_MS,
        maxBuffer: MAX_OUTPUT,
        env: { PATH: process.env.PATH ?? '', ...env },
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
