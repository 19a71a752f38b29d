// The workflows judge an answer as the contract suite does, with the suite's own conformance and verdicts: a correct
// server that adds fields and headers (`scope` in every token answer, `inServiceDate` in every vehicle) passes
// contract:live, the suite and the workflows alike; a field renamed or mistyped where the specs state the seed still
// fails its step; a field of another type where the specs only guessed is a contradicted assumption, reported as the
// suite reports one, and fails the step only in a strict run.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { throughProxy } from '../../contract-tests/fixtures/contradicting-proxy.ts';
import { type Change, type ExtraFieldsProxy, startExtraFieldsProxy } from '../../contract-tests/fixtures/extra-fields-proxy.ts';
import { contractLive, LIVE_RUN_TIMEOUT_MS } from '../../contract-tests/self/live-runs.ts';
import { workflowsText } from '../../contract-tests/workflows/report-text.ts';
import { runWorkflows, type WorkflowsRun } from '../../contract-tests/workflows/run-workflows.ts';
import { freePort } from '../../tools/free-port.ts';
import { startSandbox, type TargetEnv, type TargetServer } from '../../tools/targets.ts';

/** The suite's files that read token answers and vehicles, the answers the proxy grows. */
const SUITE_FILES = [
  'contract-tests/token/service-token.test.ts',
  'contract-tests/token/identity-provider.test.ts',
  'contract-tests/token/authorization-code.test.ts',
  'contract-tests/fleet/vehicles.test.ts',
];

const work = mkdtempSync(join(tmpdir(), 'lp-workflows-extra-'));
let sandbox: TargetServer;
const proxies: ExtraFieldsProxy[] = [];
beforeAll(async () => {
  // Its redirect URI on a free port, which the authorization code workflow listens on for the run.
  const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
  sandbox = await startSandbox({ sandboxArgs: ['--log-level', 'silent'], sandboxEnv: { LP_REDIRECT_URI: redirectUri } });
});
afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
  await sandbox?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** The sandbox behind the proxy (with `change`, if any): its settings, and the proxy. */
async function grown(change?: Change): Promise<{ env: TargetEnv; proxy: ExtraFieldsProxy }> {
  const upstream = new URL(sandbox.env.LP_BASE_URL!).origin;
  const proxy = await startExtraFieldsProxy(upstream, change);
  proxies.push(proxy);
  return { env: throughProxy(sandbox.env as Record<string, string>, upstream, proxy.origin), proxy };
}

const stepsOf = (run: WorkflowsRun) => run.workflows.flatMap((w) => w.steps.map((step) => ({ workflowId: w.workflowId, ...step })));

describe('an answer with more than the specs document', () => {
  it('passes contract:live: the suite and every workflow green, nothing contradicted', {
    timeout: LIVE_RUN_TIMEOUT_MS + 30_000,
  }, async () => {
    const { env, proxy } = await grown();
    const dir = join(work, 'live');
    const run = await contractLive(env, dir, [], SUITE_FILES, { workflows: true });
    expect(run.exitCode, run.output.slice(-3000)).toBe(0);
    expect(run.output).toMatch(/^contract verdict: PASS: 0 violations, 0 contradicted assumptions, 0 checks could not be judged/m);
    expect(run.output.split('\n')).toContain(
      'workflows verdict: PASS: 4 workflows passed (9 steps), 0 failed (0 steps broke a promise), 0 could not be judged, 0 skipped',
    );
    // The proxy grew the answers both ran on: token answers of both endpoints and vehicles of both operations.
    expect(proxy.stats().tokens).toBeGreaterThanOrEqual(3);
    expect(proxy.stats().vehicles).toBeGreaterThanOrEqual(2);
    const results = JSON.parse(readFileSync(join(dir, 'workflows', 'workflows.json'), 'utf8')) as WorkflowsRun;
    expect(results.counts.contradicted).toBe(0);
  });
});

describe('a field renamed or mistyped where the specs state the seed', () => {
  it.each([
    [
      'expired-in-renamed',
      [
        'success criterion does not hold: $response.body#/expired_in == 3600',
        'success criterion does not hold: $[?!@.expires_in]',
        "documented answer: requestServiceToken answered 200: body does not match the schema: (body) must have required property 'expired_in'",
      ],
    ],
    // The criterion `== 3600` holds for "3600" as well: the suite's conformance alone finds it.
    [
      'expired-in-as-string',
      ['documented answer: requestServiceToken answered 200: body does not match the schema: /expired_in must be integer'],
    ],
  ] as const)('%s: the step fails, on a live target too', async (change, broken) => {
    const { env } = await grown(change);
    const run = await runWorkflows({ target: 'live', env, outputDir: join(work, change), only: ['recordMilestoneWithServiceToken'] });
    expect(run.exitCode).toBe(1);
    const [token] = stepsOf(run);
    expect(token).toMatchObject({ stepId: 'getServiceToken', outcome: 'failed', broken });
  });
});

describe('a field of another type where the specs only guessed', () => {
  it('is a contradicted assumption: reported in the suite words, the step passes; a strict run fails it', async () => {
    const { env } = await grown('vehicle-number-field-as-number');
    const only = ['lookUpVehicleFromList'];
    const run = await runWorkflows({ target: 'live', env, outputDir: join(work, 'guessed'), only });
    expect(run.exitCode).toBe(0);
    expect(stepsOf(run).map((s) => `${s.stepId} ${s.outcome}`)).toEqual(['listVehicles passed', 'getVehicle passed']);
    expect(run.line).toBe(
      'workflows verdict: PASS: 1 workflow passed (2 steps), 0 failed (0 steps broke a promise), 0 could not be judged, 0 skipped; ' +
        '1 contradicted assumption (reported, not failed: --strict-assumptions to fail them)',
    );
    const text = workflowsText(run);
    expect(text).toContain('Contradicted assumptions in the workflows (1)');
    expect(text).toContain('1. The spec guessed (seed section 2.1 leaves it open): Each of the eight fields is a string');
    expect(text).toContain('   Differs: getVehicle answered 200: body does not match the schema: /domicileLocationNumber must be string');
    expect(text).toContain(
      '   To change: openapi/fleet/components/schemas/Vehicle.yaml at /x-assumption/0 (bundle: fleet#/components/schemas/Vehicle)',
    );

    const strict = await runWorkflows({ target: 'live', env, outputDir: join(work, 'guessed-strict'), only, strict: true });
    expect(strict.exitCode).toBe(1);
    const [list] = stepsOf(strict);
    expect(list!.outcome === 'failed' && list!.broken).toEqual([
      expect.stringMatching(
        /^contradicted assumption \(a strict run fails on it\): Each of the eight fields is a string.*: listVehicles answered 200: body does not match the schema: \/0\/domicileLocationNumber must be string \(and \d+ more like it\)$/,
      ),
    ]);
  });
});
