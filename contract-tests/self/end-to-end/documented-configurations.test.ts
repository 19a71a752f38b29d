// Every configuration the README documents runs: `contract:live`, the suite and the workflows, against a correct
// server (the sandbox) with one optional setting left out at a time: writes not allowed (no LP_ALLOW_WRITES, no
// LP_TEST_LOAD_ID), no foreign identifiers, no redirect URI, no subscription key. Each passes (exit 0), and every check
// that needs the missing setting skips, saying which; none ends "could not judge".
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLedger } from '../../report/run-files.ts';
import { EXIT_CODES } from '../../report/verdict-line.ts';
import { startSandbox, type TargetServer } from '../../runner/target-server.ts';
import { skipIf } from '../../support/skips.ts';
import { contractLive, type LiveRun, verdictLine, WHOLE_RUN_TIMEOUT_MS } from '../live-runs.ts';
import { workerRun } from '../../support/worker-run.ts';

const worker = workerRun();
const { target } = worker;

/** Each documented configuration: the settings it leaves out, and what the skip of a check that needs them says. */
const CONFIGURATIONS = {
  'writes not allowed': {
    unset: ['LP_ALLOW_WRITES', 'LP_TEST_LOAD_ID'],
    skip: /writes are not allowed/,
    operation: 'recordLoadMilestoneEvent',
  },
  'no foreign identifiers': {
    unset: ['LP_FLEET_FOREIGN_VEHICLE_NUMBER', 'LP_FLEET_FOREIGN_CUSTOMER_NUMBER'],
    skip: /LP_FLEET_FOREIGN_(VEHICLE|CUSTOMER)_NUMBER/,
    operation: 'getVehicle',
  },
  'no redirect URI': { unset: ['LP_REDIRECT_URI'], skip: /LP_REDIRECT_URI/, operation: 'requestAuthorization' },
  'no subscription key': { unset: ['LP_SUBSCRIPTION_KEY'], skip: /LP_SUBSCRIPTION_KEY/, operation: 'requestIdentityProviderToken' },
} as const;
type Name = keyof typeof CONFIGURATIONS;
const NAMES = Object.keys(CONFIGURATIONS) as Name[];

const onlyWithMock = () => (target.name === 'mock' ? undefined : 'a self-test of the suite; it runs with the mock target');
const out = mkdtempSync(join(tmpdir(), 'lp-contract-configurations-'));
const dirOf = (name: Name) => join(out, name.replace(/\W+/g, '-'));
let sandbox: TargetServer | undefined;
const runs = new Map<Name, LiveRun>();

beforeAll(
  async () => {
    if (onlyWithMock()) return;
    sandbox = await startSandbox();
    const settings = (name: Name) =>
      Object.fromEntries(
        Object.entries(sandbox!.env).filter(([variable]) => !(CONFIGURATIONS[name].unset as readonly string[]).includes(variable)),
      );
    // Two at a time: the machine has two cores, and each run shares them with the sandbox.
    for (const pair of [NAMES.slice(0, 2), NAMES.slice(2)]) {
      const results = await Promise.all(
        pair.map((name) => contractLive(settings(name), dirOf(name), [], [], { workflows: true, timeoutMs: WHOLE_RUN_TIMEOUT_MS })),
      );
      for (const [i, name] of pair.entries()) runs.set(name, results[i]!);
    }
  },
  2 * WHOLE_RUN_TIMEOUT_MS + 60_000,
);

afterAll(async () => {
  await sandbox?.stop();
  rmSync(out, { recursive: true, force: true });
});

describe.for(NAMES)('the documented configuration "%s"', (name) => {
  it('passes: the suite and the workflows, nothing left unjudged', (ctx) => {
    skipIf(worker, ctx, [], onlyWithMock());
    const run = runs.get(name)!;
    expect(run.exitCode, run.output.slice(-4000)).toBe(EXIT_CODES.pass);
    expect(verdictLine(run)).toMatch(/^contract verdict: PASS: 0 violations, 0 contradicted assumptions, 0 checks could not be judged/);
    expect(run.output).toMatch(/^workflows verdict: PASS/m);
  });

  it('every check that needs what is left out skips, and says which setting', (ctx) => {
    skipIf(worker, ctx, [], onlyWithMock());
    const { skip, operation } = CONFIGURATIONS[name];
    const skips = readLedger(join(dirOf(name), '.ledger')).flatMap((e) => (e.kind === 'skip' ? [e] : []));
    const because = skips.filter((e) => skip.test(e.reason));
    expect(because.length, skips.map((e) => `${e.test}: ${e.reason}`).join('\n')).toBeGreaterThan(0);
    expect(because.some((e) => e.operationIds.includes(operation))).toBe(true);
    for (const e of skips) expect(e.reason.trim(), e.test).not.toBe('');
  });
});
