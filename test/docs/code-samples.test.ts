// The x-codeSamples shown in the docs: every operation has a curl and a published-client sample, and every
// TypeScript sample compiles (strict) against the client's public surface, so the docs cannot drift from src/.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { API_NAMES, repoRoot } from '../../spec-core/apis.ts';
import { loadBundle } from '../../spec-core/bundles.ts';
import { operationsOf } from '../../spec-core/operations.ts';
import { QUICK_START } from '../../tools/docs/landing.ts';
import { consumerCompilerOptions } from './run-sample.ts';
import { testWaitMs } from '../../config/test-waits.ts';

interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

const operations = API_NAMES.flatMap((api) =>
  operationsOf(loadBundle(api)).map(({ op }) => ({
    api,
    operationId: op.operationId as string,
    samples: (op['x-codeSamples'] ?? []) as CodeSample[],
  })),
);

const workDir = mkdtempSync(`${tmpdir()}/docs-samples-`);
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe('code samples', () => {
  it.each(operations)('$api $operationId has a curl and a @logistics-partner/api sample', ({ samples }) => {
    expect(samples.map((s) => `${s.lang}/${s.label}`).sort()).toEqual(['Shell/curl', 'TypeScript/@logistics-partner/api']);
    expect(samples.find((s) => s.label === 'curl')!.source).toMatch(/^curl |\ncurl /);
  });

  it('every TypeScript sample and the quick start compile against the published client (tsc --strict)', () => {
    const files = operations.flatMap(({ operationId, samples }) =>
      samples
        .filter((s) => s.lang === 'TypeScript')
        .map((s) => {
          const file = `${workDir}/${operationId}.ts`;
          // Each sample is a module of its own (top-level await needs one).
          writeFileSync(file, `${s.source}\nexport {};\n`);
          return file;
        }),
    );
    expect(files.length).toBe(operations.length);
    // The landing page's quick start, too.
    writeFileSync(`${workDir}/quick-start.ts`, `${QUICK_START.typescript}\nexport {};\n`);
    files.push(`${workDir}/quick-start.ts`);
    writeFileSync(`${workDir}/package.json`, JSON.stringify({ type: 'module' }));
    writeFileSync(
      `${workDir}/tsconfig.json`,
      JSON.stringify({
        // The package name, as a consumer writes it, resolved to the client's source.
        compilerOptions: { ...consumerCompilerOptions, noEmit: true },
        files,
      }),
    );
    const tsc = spawnSync(process.execPath, [`${repoRoot}/node_modules/typescript/bin/tsc`, '-p', `${workDir}/tsconfig.json`], {
      cwd: workDir, // tsc then names the failing sample by its operationId
      encoding: 'utf8',
      timeout: testWaitMs(120_000),
    });
    expect(`${tsc.stdout}${tsc.stderr}`).toBe('');
    expect(tsc.status).toBe(0);
  });
});
