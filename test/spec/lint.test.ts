// The lint configuration is strict: a copy of the specs with one broken example or one unused component fails `redocly lint`.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../spec-core/apis.ts';
import { REDOCLY_CLI, redoclyEnv } from '../../spec-core/redocly.ts';
import { testWaitMs } from '../../config/test-waits.ts';

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'lp-lint-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function lint(mutate: (dir: string) => void): Promise<{ code: number; output: string }> {
  const dir = mkdtempSync(join(work, 'case-'));
  cpSync(`${repoRoot}/openapi`, `${dir}/openapi`, { recursive: true });
  cpSync(`${repoRoot}/redocly.yaml`, `${dir}/redocly.yaml`);
  mutate(dir);
  try {
    const { stdout, stderr } = await run(process.execPath, [REDOCLY_CLI, 'lint', '--format=stylish'], {
      cwd: dir,
      env: redoclyEnv(),
    });
    return { code: 0, output: stdout + stderr };
  } catch (error: any) {
    return { code: error.code ?? 1, output: `${error.stdout}${error.stderr}` };
  }
}

const edit = (file: string, from: string, to: string) => {
  const text = readFileSync(file, 'utf8');
  if (!text.includes(from)) throw new Error(`${from} not found in ${file}`);
  writeFileSync(file, text.replace(from, to));
};

describe('redocly lint', { timeout: testWaitMs(60_000) }, () => {
  it('passes the specs as they are, with no warning', async () => {
    const { code, output } = await lint(() => {});
    expect(code, output).toBe(0);
    // Redocly's own Node.js deprecation notice is boxed in ║ lines; it is not a lint finding.
    const findings = output.split('\n').filter((line) => !line.includes('║'));
    expect(findings.join('\n')).not.toMatch(/warning/i);
    expect(output).toMatch(/Your API descriptions are valid/);
  });

  it('fails an example that does not match its schema', async () => {
    const { code, output } = await lint((dir) =>
      edit(`${dir}/openapi/token/paths/token.yaml`, 'expired_in: 3600', 'expired_in: "an hour"'),
    );
    expect(code).not.toBe(0);
    expect(output).toMatch(/no-invalid-media-type-examples/);
  });

  it('fails an unused component', async () => {
    const { code, output } = await lint((dir) =>
      edit(`${dir}/openapi/fleet/openapi.yaml`, 'components:\n', 'components:\n  schemas:\n    Unused:\n      type: string\n'),
    );
    expect(code).not.toBe(0);
    expect(output).toMatch(/no-unused-components/);
  });
});
