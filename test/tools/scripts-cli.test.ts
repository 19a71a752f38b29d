// The command line of the kit's scripts as a user meets it: real processes. The two servers refuse an unknown option in
// one line (exit 2), which every script gets from the same config/cli.ts parser (its own tests cover the refusal;
// spawning each script twice cost npm test more than it proved; every script's --help: scripts-help.test.ts); a busy
// port is one line naming --port; the mock prints settings a client can use and keeps its own readiness checks out of
// its log. (login and spec:diff: test/client, test/spec-diff.)
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../spec-core/apis.ts';
import { MOCK_PLACEHOLDERS } from '../../config/environment.ts';
import { startMock, type TargetServer } from '../../tools/targets.ts';
import { testWaitMs } from '../../config/test-waits.ts';

const SCRIPTS = [
  ['scripts/mock.ts', 'npm run mock --'],
  ['sandbox/main.ts', 'npm run sandbox --'],
] as const;

const execute = promisify(execFile);
/** Each script is a fresh tsx process; several start side by side on a small machine. */
const SCRIPT_TIMEOUT_MS = testWaitMs(60_000);
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Runs a script to its end; resolves with its exit code and output whatever the code. */
async function run(script: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execute(process.execPath, ['--import', 'tsx', '--', script, ...args], {
      cwd: repoRoot,
      timeout: SCRIPT_TIMEOUT_MS,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe.concurrent.each(SCRIPTS)('%s', { timeout: SCRIPT_TIMEOUT_MS }, (script, command) => {
  it('refuses an unknown option with exit 2: one line naming it, one pointing at --help, no stack', async () => {
    const wrong = await run(script, '--no-such-option');
    expect(wrong.code).toBe(2);
    const lines = wrong.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^${escapeRegExp(command)}: Unknown option '--no-such-option'`));
    expect(lines[1]).toBe(`Run \`${command} --help\` for the options.`);
    expect(wrong.stdout).toBe('');
  });
});

describe('a busy port', () => {
  let holder: Server;
  let port: number;
  beforeAll(async () => {
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    port = (holder.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => holder.close(() => resolve())));

  it.concurrent.each([
    ['scripts/mock.ts', 'mock'],
    ['sandbox/main.ts', 'sandbox'],
  ])('%s says so in one line that suggests --port, and exits 1', { timeout: SCRIPT_TIMEOUT_MS }, async (script, name) => {
    const busy = await run(script, '--port', String(port));
    expect(busy.code).toBe(1);
    expect(busy.stderr.trim()).toBe(
      `${name}: port ${port} on 127.0.0.1 is already in use. Stop the other process, or pass --port N (--port 0 picks a free port).`,
    );
    expect(busy.stdout).toBe('');
  });
});

describe('npm run mock', () => {
  let mock: TargetServer;
  beforeAll(async () => {
    mock = await startMock();
  }, SCRIPT_TIMEOUT_MS);
  afterAll(() => mock?.stop());

  it('prints complete LP_* settings: the base URLs and the placeholder credentials', () => {
    const origin = mock.env.LP_BASE_URL!;
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(mock.env).toEqual({ LP_BASE_URL: origin, LP_AUTH_URL: origin, LP_FLEET_BASE_URL: origin, ...MOCK_PLACEHOLDERS });
  });

  it('keeps its readiness checks out of its log: only requests clients send appear', async () => {
    expect(mock.stderr()).toContain('Prism is listening');
    expect(mock.stderr()).not.toContain('[HTTP SERVER]');
    const answer = await fetch(`${mock.env.LP_FLEET_BASE_URL}/vehicles`, { headers: { 'api-key': mock.env.LP_FLEET_API_KEY! } });
    expect(answer.status).toBe(200);
    await answer.arrayBuffer();
    await expect.poll(() => mock.stderr().match(/\[HTTP SERVER\] get \/vehicles/g)?.length ?? 0).toBe(1);
    // Prism logs in order: a readiness check logged late would still come before this request's line.
    expect(mock.stderr().match(/\[HTTP SERVER\]/g)).toHaveLength(1);
  });
});
