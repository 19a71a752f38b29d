// The sandbox as a real process: the dotenv lines it prints, masking of credentials from
// the environment, --env-file, redacted logs, argument errors and clean shutdown.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SANDBOX_DEFAULTS } from '../../sandbox/config.ts';
import { aMilestone, authorize, recordMilestone } from './api-calls.ts';
import { repoRoot, startSandboxProcess, type RunningProcess } from './sandbox-process.ts';
import { testWaitMs } from '../../config/test-waits.ts';

const EXPECTED_VARIABLES = [
  'LP_BASE_URL',
  'LP_AUTH_URL',
  'LP_FLEET_BASE_URL',
  'LP_CLIENT_ID',
  'LP_CLIENT_SECRET',
  'LP_SUBSCRIPTION_KEY',
  'LP_SCOPE',
  'LP_REDIRECT_URI',
  'LP_FLEET_API_KEY',
  'LP_FLEET_FOREIGN_VEHICLE_NUMBER',
  'LP_FLEET_FOREIGN_CUSTOMER_NUMBER',
  'LP_ALLOW_WRITES',
  'LP_TEST_LOAD_ID',
];
/** Runs sandbox/main.ts with `args` to its exit (at most 30 s). */
function runSandbox(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'sandbox/main.ts', ...args],
      { cwd: repoRoot, encoding: 'utf8', timeout: testWaitMs(30_000) },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') reject(error);
        else resolve({ status: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
  });
}

const dir = mkdtempSync(join(tmpdir(), 'lp-sandbox-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sandbox/main.ts', () => {
  // One process for the first two checks: --clock-offset changes nothing the LP_* lines and the shutdown depend on.
  let shared: Promise<RunningProcess> | undefined;
  const started = () => (shared ??= startSandboxProcess(['--clock-offset', '7200']));
  afterAll(() =>
    shared?.then(
      (running) => running.stop(),
      () => undefined,
    ),
  );

  it('starts with a clock offset', async () => {
    const running = await started();
    const clock = (await (await fetch(`${running.env.LP_BASE_URL!.replace(/\/svc$/, '')}/_sandbox/clock`)).json()) as {
      now: string;
      offsetSeconds: number;
    };
    expect(clock.offsetSeconds).toBe(7200);
    expect(Date.parse(clock.now) - Date.now()).toBeGreaterThan(7100_000);
  });

  it('prints every LP_* line of the live suite, then "sandbox ready", and stops on SIGTERM', async () => {
    const sandbox = await started();
    try {
      const lines = sandbox.stdout.trim().split('\n');
      expect(lines.at(-1)).toBe('sandbox ready');
      expect(lines.slice(0, -1).map((line) => line.split('=')[0])).toEqual(EXPECTED_VARIABLES);
      const origin = sandbox.env.LP_BASE_URL!.replace(/\/svc$/, '');
      expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(sandbox.env).toMatchObject({
        LP_AUTH_URL: `${origin}/idp`,
        LP_FLEET_BASE_URL: `${origin}/fleet`,
        LP_CLIENT_SECRET: SANDBOX_DEFAULTS.LP_CLIENT_SECRET, // public sandbox default, printed in full
        LP_ALLOW_WRITES: '1',
        LP_FLEET_FOREIGN_VEHICLE_NUMBER: expect.stringMatching(/^V-\d+$/),
      });
      expect((await fetch(`${origin}/_sandbox/health`)).status).toBe(200);
      // The foreign vehicle exists for the other lessee but not for the caller.
      const foreign = await fetch(`${sandbox.env.LP_FLEET_BASE_URL}/vehicles/${sandbox.env.LP_FLEET_FOREIGN_VEHICLE_NUMBER}`, {
        headers: { 'api-key': sandbox.env.LP_FLEET_API_KEY! },
      });
      expect(foreign.status).toBe(404);
      expect(await sandbox.stop()).toBe(0);
      await expect(fetch(`${origin}/_sandbox/health`)).rejects.toThrow();
    } finally {
      await sandbox.stop();
    }
  });

  it('masks credentials from the environment on stdout and in logs, and writes them in full to a 0600 --env-file', async () => {
    const secrets = {
      LP_CLIENT_SECRET: 'env-secret-5f0c9a',
      LP_SUBSCRIPTION_KEY: 'env-subkey-77aa21',
      LP_FLEET_API_KEY: 'env-fleetkey-3b9e04',
    };
    const envFile = join(dir, 'sandbox.env');
    const sandbox = await startSandboxProcess(['--env-file', envFile], { ...secrets, LP_CLIENT_ID: 'env-client' });
    try {
      expect(sandbox.stdout).toContain('LP_CLIENT_SECRET=***  # from your environment');
      expect(sandbox.stdout).toContain('LP_FLEET_API_KEY=***  # from your environment');
      expect(sandbox.stdout).toContain('LP_CLIENT_ID=env-client');
      const saved = readFileSync(envFile, 'utf8');
      for (const [name, value] of Object.entries(secrets)) expect(saved).toContain(`${name}=${value}\n`);
      expect(statSync(envFile).mode & 0o777).toBe(0o600);

      // The environment's credentials are the ones the sandbox accepts.
      const base = saved.match(/^LP_BASE_URL=(.*)$/m)![1]!;
      const origin = base.replace(/\/svc$/, '');
      const token = await fetch(`${base}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'env-client', client_secret: secrets.LP_CLIENT_SECRET }),
      });
      expect(token.status).toBe(200);
      const { access_token: accessToken } = (await token.json()) as { access_token: string };
      // Send every credential in the ways a client might, then look for it in the logs.
      await recordMilestone(origin, accessToken, aMilestone, { 'ocp-apim-subscription-key': secrets.LP_SUBSCRIPTION_KEY });
      await fetch(`${origin}/fleet/vehicles`, { headers: { 'api-key': secrets.LP_FLEET_API_KEY } });
      await fetch(`${origin}/svc/token?client_secret=${secrets.LP_CLIENT_SECRET}&code=abc`);
      await authorize(origin, { client_id: 'env-client', redirect_uri: SANDBOX_DEFAULTS.LP_REDIRECT_URI });
      expect(await sandbox.stop()).toBe(0);
      const logs = sandbox.stderr();
      expect(logs).toContain('"statusCode":200');
      for (const value of [...Object.values(secrets), accessToken]) {
        expect(sandbox.stdout).not.toContain(value);
        expect(logs).not.toContain(value);
      }
      // Every log line is structured JSON.
      for (const line of logs.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    } finally {
      await sandbox.stop();
    }
  });

  // Eight short-lived processes: they start side by side instead of one after another.
  it.concurrent.each([
    [['--vehicles', '1'], '--vehicles must be an integer from 2'],
    [['--port', 'eighty'], '--port must be an integer'],
    [['--clock-offset', 'soon'], '--clock-offset must be a number'],
    [['--no-such-flag'], "Unknown option '--no-such-flag'"],
    [['--headers-timeout', '0'], '--headers-timeout must be an integer from 1 to 3600'],
    [['--headers-timeout', '40', '--request-timeout', '30'], '--headers-timeout must not exceed --request-timeout'],
    [['--max-codes', 'many'], '--max-codes must be an integer'],
    [['--max-connections', '0'], '--max-connections must be an integer from 1'],
  ])('refuses %j with exit code 2 and a clear message', async (args, message) => {
    const run = await runSandbox(args);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stdout).toBe('');
  });
});
