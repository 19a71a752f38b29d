// The two verdicts end to end: `contract:live` against a server that keeps the seed but contradicts every probe-able
// assumption it can (the sandbox behind contract-tests/fixtures/contradicting-proxy.ts). The default run must pass and
// list each contradiction with its evidence; the strict run must fail, on those contradictions alone.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../spec-core/apis.ts';
import { CONTRADICTIONS, startContradictingProxy, throughProxy, type ContradictingProxy } from '../fixtures/contradicting-proxy.ts';
import { startSandbox, type RunningServer } from '../runner/target-server.ts';
import type { AssumptionReportRow } from '../support/reports.ts';
import { skipIf } from '../support/skips.ts';
import { LP_VARIABLES, target } from '../support/target.ts';

// The checks of the three APIs and the probes of the size limits; the property-based, security and self checks add
// time, not assumptions.
const FILES = [
  'contract-tests/token/',
  'contract-tests/carriers/',
  'contract-tests/fleet/',
  'contract-tests/property/input-limits.test.ts',
];
const RUN_TIMEOUT_MS = 90_000;

interface CliRun {
  exitCode: number;
  output: string;
  assumptions: AssumptionReportRow[];
}

let sandbox: RunningServer | undefined;
let proxy: ContradictingProxy | undefined;
const out = mkdtempSync(join(tmpdir(), 'lp-contract-verdicts-'));

/** `tsx scripts/contract.ts --target live` with the proxy's settings and nothing of the outer run's LP_* environment. */
function contractLive(name: string, extraArgs: string[]): Promise<CliRun> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const variable of [
    ...LP_VARIABLES,
    'LP_STRICT_ASSUMPTIONS',
    'LP_FAIL_ON_SKIP',
    'LP_MIN_COVERAGE',
    'LP_CONTRACT_OUT',
    'LP_CONTRACT_TARGET',
  ])
    delete env[variable];
  const upstream = new URL(sandbox!.env.LP_BASE_URL!).origin;
  Object.assign(env, throughProxy(sandbox!.env, upstream, proxy!.origin));
  const dir = join(out, name);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/contract.ts', '--target', 'live', '--out', dir, ...extraArgs, '--', ...FILES],
    {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
  return new Promise((resolve) => {
    child.once('exit', (code) => {
      clearTimeout(timer);
      let assumptions: AssumptionReportRow[] = [];
      try {
        assumptions = (JSON.parse(readFileSync(join(dir, 'assumptions.json'), 'utf8')) as { assumptions: AssumptionReportRow[] })
          .assumptions;
      } catch {
        // No report: the run did not get that far; its output (in the failure message) says why.
      }
      resolve({ exitCode: code ?? 1, output, assumptions });
    });
  });
}

const verdictLine = (run: CliRun) => run.output.split('\n').find((line) => line.startsWith('contract verdict:')) ?? '(no verdict line)';

describe('verdicts against a server that keeps the seed and contradicts the assumptions', () => {
  let runs: { lenient: CliRun; strict: CliRun } | undefined;

  beforeAll(async () => {
    // Two suite runs: once per `npm test` (the mock run) is enough, as for the other self-tests that run the suite.
    if (target.name !== 'mock') return;
    sandbox = await startSandbox();
    proxy = await startContradictingProxy(new URL(sandbox.env.LP_BASE_URL!).origin);
    const [lenient, strict] = await Promise.all([contractLive('default', []), contractLive('strict', ['--strict-assumptions'])]);
    runs = { lenient, strict };
  }, RUN_TIMEOUT_MS + 30_000);

  afterAll(async () => {
    await proxy?.close();
    await sandbox?.stop();
    rmSync(out, { recursive: true, force: true });
  });

  it('the default run passes, with no violation, and reports each contradiction apart with its evidence', (ctx) => {
    skipIf(ctx, [], target.name === 'mock' ? undefined : 'a self-test of the suite; it runs with the mock target');
    const { lenient } = runs!;
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

  it('the strict run fails on the same contradictions, still with no violation', (ctx) => {
    skipIf(ctx, [], target.name === 'mock' ? undefined : 'a self-test of the suite; it runs with the mock target');
    const { lenient, strict } = runs!;
    expect(strict.exitCode).toBe(1);
    expect(verdictLine(strict)).toMatch(
      /^contract verdict: FAIL: 0 violations, \d+ contradicted assumptions \(\d+ checks failed on them: strict run\)/,
    );
    const names = (run: CliRun) =>
      run.assumptions
        .filter((a) => a.outcome === 'contradicted')
        .map((a) => a.what)
        .sort();
    expect(names(strict)).toEqual(names(lenient));
  });
});
