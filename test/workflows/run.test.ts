// The workflows run by Redocly Respect against real processes: green against the sandbox (through a recording proxy
// that sees every credential the run sends and every token and code the sandbox issues, none of which may reach an
// output in any encoding); red, through `npm run contract:workflows`, against a sandbox with an injected violation;
// green against the mock where Prism can serve the steps, the authorization code flow skipped with why; and neither
// green nor red (could not judge, or skipped) where the target cannot be reached, has no vehicle, or lacks settings.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../spec-core/apis.ts';
import { loadWorkflows } from '../../spec-core/workflows.ts';
import { SECRET_VARIABLES, withoutLpVariables } from '../../config/environment.ts';
import { freePort } from '../../tools/free-port.ts';
import { startMock, startSandbox, type TargetEnv, type TargetServer } from '../../tools/targets.ts';
import { HAR_NOTE, runWorkflows, type WorkflowsRun } from '../../contract-tests/workflows/run-workflows.ts';
import { sendJson, startLoopbackServer, startRecordingProxy } from '../client/loopback-server.ts';
import { TIMEOUT_MS } from './settings.ts';

const work = mkdtempSync(join(tmpdir(), 'lp-workflows-'));
let sandbox: TargetServer;
beforeAll(async () => {
  // Its redirect URI on a free port, which the authorization code workflow listens on for the run.
  const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
  sandbox = await startSandbox({ sandboxArgs: ['--log-level', 'silent'], sandboxEnv: { LP_REDIRECT_URI: redirectUri } });
  expect(sandbox.env.LP_REDIRECT_URI).toBe(redirectUri);
});
afterAll(async () => {
  await sandbox?.stop();
  rmSync(work, { recursive: true, force: true });
});

let runs = 0;
const outputDir = () => join(work, `run-${++runs}`);
const outcomes = (run: WorkflowsRun) =>
  Object.fromEntries(run.workflows.map((w) => [w.workflowId, w.steps.map((s) => `${s.stepId} ${s.outcome}`)]));

/** The spellings a credential may take in a file: as is, URL- and form-encoded, base64 and base64url (padded or not). */
function spellings(value: string): string[] {
  const bytes = Buffer.from(value);
  return [
    value,
    encodeURIComponent(value),
    new URLSearchParams({ v: value }).toString().slice(2),
    bytes.toString('base64'),
    bytes.toString('base64url'),
  ];
}

/** Every token and code the sandbox issued, from the answers a recording proxy passed back. */
function issued(answers: Array<{ headers: Record<string, unknown>; body: string }>): string[] {
  const tokens = answers.flatMap(({ body }) => [...body.matchAll(/"access_token":"([^"]+)"/g)].map((m) => m[1]!));
  const codes = answers.flatMap(({ headers }) => {
    const location = headers.location;
    return typeof location === 'string' ? [new URL(location).searchParams.get('code') ?? ''].filter(Boolean) : [];
  });
  return [...tokens, ...codes];
}

describe('against the sandbox', () => {
  it('every workflow passes, and no credential it sent or got reaches the outputs or the results in any encoding', async () => {
    const origin = new URL(sandbox.env.LP_BASE_URL!).origin;
    const proxy = await startRecordingProxy(origin);
    const env: TargetEnv = { ...sandbox.env };
    for (const name of ['LP_BASE_URL', 'LP_AUTH_URL', 'LP_FLEET_BASE_URL'] as const) env[name] = env[name]!.replace(origin, proxy.origin);
    const dir = outputDir();
    let run: WorkflowsRun;
    try {
      run = await runWorkflows({ target: 'sandbox', env, outputDir: dir });
    } finally {
      await proxy.close();
    }
    expect(outcomes(run)).toEqual(Object.fromEntries(loadWorkflows().map((w) => [w.workflowId, w.steps.map((s) => `${s.stepId} passed`)])));
    expect(run.exitCode).toBe(0);
    expect(run.line).toBe(
      'workflows verdict: PASS: 4 workflows passed (9 steps), 0 failed (0 steps broke a promise), 0 could not be judged, 0 skipped',
    );
    const code = run.workflows.find((w) => w.workflowId === 'recordMilestoneWithAuthorizationCode')!;
    expect(code.harNote).toBe(HAR_NOTE);
    for (const workflow of run.workflows) expect(Object.keys(workflow.files).sort(), workflow.workflowId).toEqual(['har', 'json', 'log']);

    const credentials = [...SECRET_VARIABLES.map((name) => env[name]!), ...issued(proxy.answers)];
    // Three tokens (service, identity provider, code exchange) and two codes (the approval probe's, the flow's).
    expect(credentials.length).toBeGreaterThanOrEqual(SECRET_VARIABLES.length + 5);
    const texts = [...readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')]), ['the results', JSON.stringify(run)]];
    const leaks = texts.flatMap(([name, text]) =>
      credentials.flatMap((c) =>
        spellings(c)
          .filter((s) => text!.includes(s))
          .map(() => name),
      ),
    );
    expect(leaks).toEqual([]);
    // The outputs are whole: Respect's JSON log and HAR of every step that ran.
    const har = JSON.parse(readFileSync(join(dir, `${code.workflowId}.har`), 'utf8'));
    expect(har.log.entries.map((e: { request: { url: string } }) => new URL(e.request.url).pathname)).toEqual([
      '/idp/oauth2/default/v1/authorize',
      '/idp/oauth2/default/v1/token',
      '/svc/v1/load-milestone-events',
    ]);
  });

  it('npm run contract:workflows is red against a sandbox with a violation a workflow covers, naming the promise, the request and the answer', async () => {
    const dir = outputDir();
    const script = promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/contract-workflows.ts', '--target', 'sandbox', '--mutation', 'service-token-expires-in', '--out', dir],
      { cwd: repoRoot, env: withoutLpVariables(), timeout: TIMEOUT_MS },
    );
    const failure = (await script.then(
      () => undefined,
      (error: unknown) => error,
    )) as { code: number; stdout: string } | undefined;
    expect(failure?.code, failure?.stdout).toBe(1);
    const output = failure!.stdout;
    expect(output).toContain('✗ recordMilestoneWithServiceToken: step getServiceToken broke a promise');
    expect(output).toContain('Promise: Published documentation, section 4.1 (Service token request (client credentials)):');
    expect(output).toContain('Broken: success criterion does not hold: $response.body#/expired_in == 3600');
    expect(output).toContain('Request: POST $LP_BASE_URL/token');
    expect(output).toMatch(/Answer: 200 application\/json[^\n]*"expires_in":3600/);
    expect(output).toContain('--data-urlencode "client_secret=$LP_CLIENT_SECRET"');
    expect(output).toMatch(/workflows verdict: FAIL: 3 workflows passed \(7 steps\), 1 failed/);
    expect(output).not.toContain('sandbox-client-secret');
    const results = JSON.parse(readFileSync(join(dir, 'workflows.json'), 'utf8')) as WorkflowsRun;
    expect(outcomes(results).recordMilestoneWithServiceToken).toEqual(['getServiceToken failed', 'recordMilestone skipped']);
  });
});

describe('against the mock', () => {
  it('passes where Prism serves the steps, and skips the authorization code flow: the mock answers with a sign-in page', async () => {
    const mock = await startMock();
    let run: WorkflowsRun;
    try {
      run = await runWorkflows({ target: 'mock', env: mock.env, outputDir: outputDir() });
    } finally {
      await mock.stop();
    }
    expect(run.exitCode).toBe(0);
    expect(run.workflows.map((w) => `${w.workflowId} ${w.outcome}`)).toEqual([
      'recordMilestoneWithServiceToken passed',
      'recordMilestoneWithIdentityProviderToken passed',
      'recordMilestoneWithAuthorizationCode skipped',
      'lookUpVehicleFromList passed',
    ]);
    expect(run.workflows[2]!.reason).toMatch(/^the authorize endpoint answered 200 text\/html: a person has to sign in and approve/);
  });
});

describe('where nothing can be judged', () => {
  it('a target that cannot be reached: every workflow could not be judged, exit 2', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const env: TargetEnv = {
      ...sandbox.env,
      LP_BASE_URL: `${closed}/svc`,
      LP_AUTH_URL: `${closed}/idp`,
      LP_FLEET_BASE_URL: `${closed}/fleet`,
    };
    const run = await runWorkflows({ target: 'live', env, outputDir: outputDir() });
    expect(run.exitCode).toBe(2);
    expect(run.workflows.map((w) => w.outcome)).toEqual(['unjudged', 'unjudged', 'unjudged', 'unjudged']);
    const first = run.workflows[0]!.steps[0]!;
    expect(first.outcome === 'unjudged' && first.reason).toMatch(/^no answer to judge: fetch failed/);
    expect(run.workflows[2]!.reason).toBe(
      `the authorize endpoint could not be asked (ECONNREFUSED): Nothing accepts connections at ${new URL(closed).host}: check that the server is running, and the host and port in "LP_AUTH_URL".`,
    );
  });

  it('a fleet key that sees no vehicle: the list step could not be judged (its precondition is unmet), exit 2', async () => {
    const fleet = await startLoopbackServer((_request, response) => sendJson(response, 200, []));
    let run: WorkflowsRun;
    try {
      const env: TargetEnv = { ...sandbox.env, LP_FLEET_BASE_URL: fleet.origin };
      run = await runWorkflows({ target: 'live', env, outputDir: outputDir(), only: ['lookUpVehicleFromList'] });
    } finally {
      await fleet.close();
    }
    expect(run.exitCode).toBe(2);
    expect(outcomes(run)).toEqual({ lookUpVehicleFromList: ['listVehicles unjudged', 'getVehicle skipped'] });
    const [list] = run.workflows[0]!.steps;
    expect(list!.outcome === 'unjudged' && list!.reason).toBe(
      'a precondition of the target is unmet: The fleet API key sees at least one vehicle; without one there is nothing to look up.',
    );
  });

  it('settings a workflow needs are missing, or writes are not allowed: skipped, saying which, and nothing is sent', async () => {
    const seen = await startLoopbackServer((_request, response) => {
      response.writeHead(500).end();
    });
    let run: WorkflowsRun;
    try {
      const { LP_FLEET_API_KEY: _key, LP_ALLOW_WRITES: _writes, ...rest }: TargetEnv = sandbox.env;
      const env: TargetEnv = { ...rest, LP_BASE_URL: seen.origin, LP_AUTH_URL: seen.origin };
      run = await runWorkflows({ target: 'live', env, outputDir: outputDir() });
    } finally {
      await seen.close();
    }
    expect(run.exitCode).toBe(0);
    expect(run.workflows.map((w) => `${w.workflowId}: ${w.reason}`)).toEqual([
      'recordMilestoneWithServiceToken: records a milestone, which the kit does only with LP_ALLOW_WRITES=1 (for LP_TEST_LOAD_ID)',
      'recordMilestoneWithIdentityProviderToken: records a milestone, which the kit does only with LP_ALLOW_WRITES=1 (for LP_TEST_LOAD_ID)',
      'recordMilestoneWithAuthorizationCode: records a milestone, which the kit does only with LP_ALLOW_WRITES=1 (for LP_TEST_LOAD_ID)',
      'lookUpVehicleFromList: needs LP_FLEET_API_KEY (not set)',
    ]);
    expect(seen.requests).toEqual([]);
  });
});
