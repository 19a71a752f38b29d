// Redocly CLI prints a boxed "Node.js 20 reached end-of-life" notice at every start on Node 20, and no option turns it
// off; the kit relays Redocly's output without it (spec-core/redocly.ts). Checked on what a partner and CI read:
// `npm run bundle` and `npm run lint` as real processes, in a copy of the kit's spec files (so this tree's bundles are
// never rewritten under other readers), and the runner the docs build uses. On Node 22 and 24 Redocly prints no notice,
// and the checks hold trivially.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../spec-core/apis.ts';
import { REDOCLY_CLI, redoclyEnv, runRedocly } from '../../spec-core/redocly.ts';
import { testWaitMs } from '../../config/test-waits.ts';

const NOTICE = /end-of-life|support is ending/i;
const execute = promisify(execFile);
const onNode20 = process.versions.node.startsWith('20.');

/** Runs a command to its end; its exit code and its output, stdout and stderr together as a terminal shows them. */
async function run(command: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await execute(command, args, { cwd, timeout: testWaitMs(60_000), env: { ...process.env, NO_COLOR: '1' } });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: `${failed.stdout}${failed.stderr}` };
  }
}

let copy: string;
beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'lp-redocly-notice-'));
  for (const entry of ['package.json', 'redocly.yaml', 'openapi', 'spec-core', 'config', 'scripts'])
    cpSync(join(repoRoot, entry), join(copy, entry), { recursive: true });
  symlinkSync(join(repoRoot, 'node_modules'), join(copy, 'node_modules'), 'dir');
});
afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe("Redocly's Node.js end-of-life notice", { timeout: testWaitMs(60_000) }, () => {
  it('is what Redocly itself prints on Node 20, and the filter removes exactly that box', async () => {
    const { EndOfLifeNoticeFilter, withoutEndOfLifeNotice } = await import('../../spec-core/redocly.ts');
    const { stdout, stderr } = await execute(process.execPath, [REDOCLY_CLI, '--version'], { env: redoclyEnv() });
    if (onNode20) expect(stderr, 'Redocly prints the notice on Node 20').toMatch(NOTICE);
    expect(withoutEndOfLifeNotice(stderr)).not.toMatch(NOTICE);
    expect(withoutEndOfLifeNotice(stdout)).toBe(stdout);
    // Streamed in pieces of any size, the same result.
    const text = `${stderr}validating a.yaml...\n\n    ╔══╗\n    ║ another box ║\n    ╚══╝\n\ndone\n`;
    const filter = new EndOfLifeNoticeFilter();
    let streamed = '';
    for (let i = 0; i < text.length; i += 7) streamed += filter.push(text.slice(i, i + 7));
    streamed += filter.end();
    expect(streamed).toBe(withoutEndOfLifeNotice(text));
    expect(streamed).toContain('validating a.yaml...\n\n    ╔══╗\n    ║ another box ║\n    ╚══╝\n\ndone\n');
  });

  it('npm run bundle prints none', async () => {
    const { code, output } = await run(process.execPath, ['--import', 'tsx', '--', 'scripts/bundle.ts'], copy);
    expect(code, output).toBe(0);
    expect(output).toContain('bundled fleet: dist/openapi/fleet.yaml');
    expect(output).toMatch(/Created a bundle for openapi\/fleet\/openapi\.yaml/);
    expect(output).not.toMatch(NOTICE);
  });

  // The clean lint is npm test's own lint step; here, the run that must still say what is wrong.
  it('npm run lint prints none, and still reports a problem and fails on it', async () => {
    const spec = join(copy, 'openapi/token/paths/token.yaml');
    writeFileSync(spec, readFileSync(spec, 'utf8').replace('expired_in: 3600', 'expired_in: "an hour"'));
    const broken = await run('npm', ['run', '--silent', 'lint'], copy);
    expect(broken.code).not.toBe(0);
    expect(broken.output).toMatch(/no-invalid-media-type-examples/);
    expect(broken.output).not.toMatch(NOTICE);
  });

  it("the docs build's Redocly runs relay none, when they succeed and when they fail", async () => {
    const { stdout, stderr } = await runRedocly(['--version'], copy);
    expect(stdout + stderr).not.toMatch(NOTICE);
    const failed = await runRedocly(['build-docs', 'no-such-spec.yaml'], copy).catch((error: { stderr: string }) => error);
    expect('stderr' in failed && failed.stderr).toBeTruthy();
    expect((failed as { stderr: string }).stderr).not.toMatch(NOTICE);
  });
});
