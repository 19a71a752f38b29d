// The two verdicts end to end: `contract:live` against a server that keeps the seed but contradicts every probe-able
// assumption it can (the sandbox behind contract-tests/fixtures/contradicting-proxy.ts). The default run must pass and
// list each contradiction with its evidence; the strict run, sent through a gateway that throttles and fails now and
// then (contract-tests/fixtures/real-environment-proxy.ts), must fail on those same contradictions alone, with nothing
// left unjudged, and report what it met on the way (two runs instead of three: a run is some 4 CPU-seconds of npm test).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRADICTIONS, startContradictingProxy, throughProxy, type ContradictingProxy } from '../../fixtures/contradicting-proxy.ts';
import { PRESETS, type RealEnvironmentProxy, startRealEnvironmentProxy } from '../../fixtures/real-environment-proxy.ts';
import type { RetriedCheck, RunReport } from '../../report/report-model.ts';
import { startSandbox, type TargetServer } from '../../runner/target-server.ts';
import { skipIf } from '../../support/skips.ts';
import { contractLive, contradictedNames, LIVE_RUN_TIMEOUT_MS, type LiveRun, verdictLine } from '../live-runs.ts';
import { workerRun } from '../../support/worker-run.ts';

const worker = workerRun();
const { target } = worker;

// The checks of the three APIs and the probes of the size limits; the property-based, security and self checks add
// time, not assumptions.
const FILES = [
  'contract-tests/token/',
  'contract-tests/carriers/',
  'contract-tests/fleet/',
  'contract-tests/property/input-limits.test.ts',
];

let sandbox: TargetServer | undefined;
let proxy: ContradictingProxy | undefined;
let gateway: RealEnvironmentProxy | undefined;
const out = mkdtempSync(join(tmpdir(), 'lp-contract-verdicts-'));

/** The live suite on FILES with the sandbox's settings, through the contradicting proxy (and the gateway, if asked). */
function run(name: string, extraArgs: string[], through: 'direct' | 'gateway' = 'direct'): Promise<LiveRun> {
  const upstream = new URL(sandbox!.env.LP_BASE_URL!).origin;
  const settings = throughProxy(
    throughProxy(sandbox!.env, upstream, proxy!.origin),
    proxy!.origin,
    through === 'gateway' ? gateway!.origin : proxy!.origin,
  );
  return contractLive(settings, join(out, name), extraArgs, FILES);
}

describe('verdicts against a server that keeps the seed and contradicts the assumptions', () => {
  let runs: { lenient: LiveRun; strict: LiveRun } | undefined;

  beforeAll(async () => {
    // Two suite runs: once per `npm test` (the mock run) is enough, as for the other self-tests that run the suite.
    if (target.name !== 'mock') return;
    sandbox = await startSandbox();
    proxy = await startContradictingProxy(new URL(sandbox.env.LP_BASE_URL!).origin);
    // The same server behind a gateway that throttles (burst 20, 50 a second), answers transient 503s and drops
    // connections: what it met must be waited out or retried, never judged.
    gateway = await startRealEnvironmentProxy(proxy.origin, {
      ...PRESETS.throttled,
      ...PRESETS.flaky,
      // Waited out at once: the run proves the retries, not the waiting (send/transport's own tests time that).
      transient503RetryAfterSeconds: 0,
    });
    const [lenient, strict] = await Promise.all([run('default', []), run('strict', ['--strict-assumptions', '--verbose'], 'gateway')]);
    runs = { lenient, strict };
  }, LIVE_RUN_TIMEOUT_MS + 30_000);

  afterAll(async () => {
    await gateway?.close();
    await proxy?.close();
    await sandbox?.stop();
    rmSync(out, { recursive: true, force: true });
  });

  it('the default run passes, with no violation, and reports each contradiction apart with its evidence', (ctx) => {
    skipIf(worker, ctx, [], target.name === 'mock' ? undefined : 'a self-test of the suite; it runs with the mock target');
    const { lenient } = runs!;
    expect(lenient.transport?.retried, 'the direct run met nothing to retry').toBe(0);
    expect(verdictLine(lenient), lenient.output.slice(-6000)).toMatch(
      /^contract verdict: PASS: 0 violations, \d+ contradicted assumptions/,
    );
    expect(lenient.exitCode).toBe(0);
    const contradicted = lenient.assumptions.filter((a) => a.outcome === 'contradicted');
    for (const [assumed, rewrite] of Object.entries(CONTRADICTIONS)) {
      const row = contradicted.find((a) => a.what.includes(assumed));
      expect(row, `contradicted: "${assumed}" (the proxy: ${rewrite})`).toBeDefined();
      expect(row!.observed.length + row!.evidence.length, `evidence for "${assumed}"`).toBeGreaterThan(0);
      expect(row!.spec?.file, `spec file for "${assumed}"`).toMatch(/^openapi\/.+\.yaml$/);
    }
    // The section at the end names what was guessed, what the server did and where to change the spec.
    const section = lenient.output.slice(lenient.output.indexOf('Contradicted assumptions ('));
    expect(section).toContain(`Contradicted assumptions (${contradicted.length})`);
    expect(section).toMatch(/This server: GET \S*\/oauth2\/default\/v1\/authorize\S* answered 400 text\/plain/);
    expect(section).toContain('To change: openapi/fleet/components/schemas/Vehicle.yaml at /x-assumption/0');
  });

  it('the strict run, behind the gateway, fails on the same contradictions, still with no violation', (ctx) => {
    skipIf(worker, ctx, [], target.name === 'mock' ? undefined : 'a self-test of the suite; it runs with the mock target');
    const { lenient, strict } = runs!;
    expect(strict.exitCode).toBe(1);
    expect(verdictLine(strict)).toMatch(
      /^contract verdict: FAIL: 0 violations, \d+ contradicted assumptions \(\d+ checks failed on them: strict run\)/,
    );
    expect(contradictedNames(strict)).toEqual(contradictedNames(lenient));
    // --verbose keeps vitest's own account of each failed check: its assertion diff and code frame (without it, one
    // line per failed check: self/end-to-end/real-environment.test.ts).
    expect(strict.output).toMatch(/\n- Expected\n\+ Received\n/);
    expect(strict.output).toMatch(/\n ❯ contract-tests\/support\/setup\.ts:\d+:\d+/);
    expect(lenient.output).not.toMatch(/\n- Expected\n\+ Received\n/);
  });

  it('behind a throttling, flaky gateway nothing is left unjudged, and the run reports what it met', (ctx) => {
    skipIf(worker, ctx, [], target.name === 'mock' ? undefined : 'a self-test of the suite; it runs with the mock target');
    const { lenient, strict: behind } = runs!;
    expect(verdictLine(behind), behind.output.slice(-6000)).toMatch(
      /^contract verdict: FAIL: 0 violations, \d+ contradicted assumptions \(\d+ checks failed on them: strict run\), 0 checks could not be judged/,
    );
    const met = gateway!.stats();
    // The gateway did throttle, fail and drop requests; the suite saw them, retried, and says so.
    expect(met.throttled + met.transient503 + met.dropped, JSON.stringify(met)).toBeGreaterThan(0);
    expect(behind.transport?.retried, JSON.stringify(behind.transport)).toBeGreaterThan(0);
    expect(behind.output).toMatch(/^contract: requests: \d+ requests \(\d+ attempts\): \d+ throttled .*, [1-9]\d* retried/m);
    // The retries are told per check (transport.json); each check that passed only because a request was sent again
    // is marked so, in the console and in report.json. Which checks the gateway hits varies from run to run, and most
    // checks of this strict run fail on contradictions: the marked ones are exactly the retried ones that passed.
    const strictDir = join(out, 'strict');
    const report = JSON.parse(readFileSync(join(strictDir, 'report.json'), 'utf8')) as RunReport;
    const { retriedChecks } = JSON.parse(readFileSync(join(strictDir, 'transport.json'), 'utf8')) as { retriedChecks: RetriedCheck[] };
    expect(retriedChecks.length, 'checks with a retried request').toBeGreaterThan(0);
    expect(retriedChecks.reduce((sum, c) => sum + c.retried, 0)).toBeLessThanOrEqual(behind.transport!.retried);
    const failed = new Set(
      readFileSync(join(strictDir, 'failed-checks.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { name: string }).name),
    );
    const passedRetried = retriedChecks.filter((c) => !failed.has(c.check)).map((c) => c.check);
    expect(report.passedAfterRetries.map((c) => c.check).sort()).toEqual(passedRetried.sort());
    expect(report.counts.passedAfterRetries).toBe(passedRetried.length);
    if (passedRetried.length > 0)
      expect(behind.output).toMatch(new RegExp(`\\nPassed only after retries \\(${passedRetried.length}\\)\\n\\n- .+: [1-9]\\d* retries`));
    else expect(behind.output).not.toContain('Passed only after retries');
    expect(lenient.output).not.toContain('Passed only after retries');
  });
});
