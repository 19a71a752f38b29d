// What a real environment does that a loopback sandbox does not, end to end through `contract:live`:
// - it decides the "not shown" points its own way: the vehicle list wrapped in an object, fleet JSON under another
//   content type. A contradicted assumption must not cascade: the run passes with the contradictions reported, and the
//   checks that build on the list still judge what the server sent (a leak of another lessee's vehicle still fails);
// - it refuses the configured credentials, cannot be reached, or the suite itself fails: "could not judge", exit 2,
//   never a violation and never a pass.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../../spec-core/apis.ts';
import { throughProxy } from '../../fixtures/contradicting-proxy.ts';
import { type RealEnvironmentProxy, startRealEnvironmentProxy } from '../../fixtures/real-environment-proxy.ts';
import type { RunReport } from '../../report/report-model.ts';
import { startSandbox, type TargetServer } from '../../runner/target-server.ts';
import { EXIT_CODES } from '../../report/verdict-line.ts';
import type { ViolationGroup } from '../../report/report-model.ts';
import { skipIf } from '../../support/skips.ts';
import { contractLive, LIVE_RUN_TIMEOUT_MS, type LiveRun, verdictLine } from '../live-runs.ts';
import { browserMissingReason, checkReportInBrowser } from '../report-browser.ts';
import { testWaitMs } from '../../../config/test-waits.ts';
import { workerRun } from '../../support/worker-run.ts';

const worker = workerRun();
const { target } = worker;

// The fleet's checks and its lessee-isolation checks: what builds on the list.
const FLEET_FILES = ['contract-tests/fleet/vehicles.test.ts', 'contract-tests/security/lessee-ownership.test.ts'];
const onlyWithMock = () => (target.name === 'mock' ? undefined : 'a self-test of the suite; it runs with the mock target');

const out = mkdtempSync(join(tmpdir(), 'lp-contract-real-'));
/** Where the browser check's screenshot of the leak run's report.html is kept for review. */
const SCREENSHOTS = join(repoRoot, 'dist/contract/report-screenshots');
const servers: Array<TargetServer | RealEnvironmentProxy> = [];
let runs: Record<'shapes' | 'leak' | 'wrongKey' | 'unreachable' | 'crash', LiveRun> | undefined;
/** The credentials of the leak run, which no report may show in any encoding. */
let secrets: string[] = [];

/** A sandbox (with a mutation, if given) behind a proxy that wraps the list and relabels the fleet's JSON. */
async function differentShapes(mutation?: string): Promise<Record<string, string>> {
  const sandbox = await startSandbox(mutation ? { mutation } : {});
  servers.push(sandbox);
  const upstream = new URL(sandbox.env.LP_BASE_URL!).origin;
  const proxy = await startRealEnvironmentProxy(upstream, { listWrapper: true, fleetContentType: 'text/plain; charset=utf-8' });
  servers.push(proxy);
  return throughProxy(sandbox.env, upstream, proxy.origin);
}

beforeAll(async () => {
  if (onlyWithMock()) return;
  const [conforming, leaking] = await Promise.all([differentShapes(), differentShapes('list-leaks-foreign-vehicles')]);
  const quick = ['--tries', '1', '--workers', '1'];
  // The leak run comes second, with the shapes run as its baseline and as GitHub Actions runs it: every report it writes
  // is checked below (the violation's reproduction, the drift, the annotations and the job summary).
  const leakRun = async () => {
    const baseline = await contractLive(
      { ...conforming, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: join(out, 'shapes-step-summary.md') },
      join(out, 'shapes'),
      [],
      FLEET_FILES,
    );
    const leak = await contractLive(
      { ...leaking, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: join(out, 'step-summary.md') },
      join(out, 'leak'),
      ['--baseline', join(out, 'shapes')],
      FLEET_FILES,
    );
    return [baseline, leak] as const;
  };
  secrets = [leaking.LP_FLEET_API_KEY!, leaking.LP_SUBSCRIPTION_KEY, leaking.LP_CLIENT_SECRET].filter((v): v is string => !!v);
  const [[shapes, leak], wrongKey, unreachable, crash] = await Promise.all([
    leakRun(),
    contractLive({ ...conforming, LP_FLEET_API_KEY: 'not-the-configured-key' }, join(out, 'wrong-key'), quick, FLEET_FILES),
    contractLive({ ...conforming, LP_FLEET_BASE_URL: 'http://127.0.0.1:1/fleet' }, join(out, 'unreachable'), quick, FLEET_FILES),
    // The suite's own failure: vitest is asked for a file the suite does not have, so no check ever reports.
    contractLive(conforming, join(out, 'crash'), quick, ['contract-tests/fleet/no-such-file.test.ts']),
  ]);
  runs = { shapes, leak, wrongKey, unreachable, crash };
}, LIVE_RUN_TIMEOUT_MS + 30_000);

afterAll(async () => {
  for (const server of servers.reverse()) await ('stop' in server ? server.stop() : server.close());
  rmSync(out, { recursive: true, force: true });
});

describe('a contradicted assumption never cascades', () => {
  it('a wrapped list under another content type passes, each contradiction reported, every fleet check run', (ctx) => {
    skipIf(worker, ctx, [], onlyWithMock());
    const { shapes } = runs!;
    expect(verdictLine(shapes), shapes.output.slice(-6000)).toMatch(
      /^contract verdict: PASS: 0 violations, [1-9]\d* contradicted assumptions, 0 checks could not be judged/,
    );
    expect(shapes.exitCode).toBe(EXIT_CODES.pass);
    const contradicted = shapes.assumptions.filter((a) => a.outcome === 'contradicted').map((a) => a.what);
    expect(contradicted.join('\n')).toContain('The list response is a bare JSON array');
    expect(contradicted.join('\n')).toContain('is sent as JSON, with the content type `application/json`.');
    // The checks that build on the list read the vehicles from the wrapper: none of them is skipped for it.
    expect(shapes.output).not.toMatch(/the vehicle list cannot be read/);
    // As GitHub Actions shows it: a ::warning at the spec line of each contradicted assumption, no ::error, and the
    // job summary's table of them with the file and line to change.
    const warnings = shapes.output.split('\n').filter((line) => line.startsWith('::warning '));
    expect(warnings).toHaveLength(contradicted.length);
    for (const warning of warnings)
      expect(warning).toMatch(/^::warning file=openapi\/[\w/{}-]+\.yaml,line=\d+,title=Contradicted assumption/);
    expect(shapes.output).not.toMatch(/^::error /m);
    const summary = readFileSync(join(out, 'shapes-step-summary.md'), 'utf8');
    expect(summary).toContain(`### Contradicted assumptions (${contradicted.length})`);
    expect(summary).toMatch(/\| `openapi\/fleet\/[\w/{}-]+\.yaml:\d+` \(/);
  });

  it("the same server leaking another lessee's vehicle fails, with the leak as the violation", (ctx) => {
    skipIf(worker, ctx, [], onlyWithMock());
    const { leak } = runs!;
    expect(leak.exitCode, leak.output.slice(-6000)).toBe(EXIT_CODES.fail);
    expect(verdictLine(leak)).toMatch(/^contract verdict: FAIL: [1-9]\d* violations/);
    expect(leak.output).toMatch(/listed vehicles of another lessee|not\.toContain/);
  });
});

describe('a violation in every report, with what a partner needs to act on it', () => {
  const LESSEE = "Security: one lessee never sees another lessee's vehicles";
  const read = (file: string) => readFileSync(join(out, file), 'utf8');

  it('the console names the promise, expected against got, the request, the answer and a curl; no vitest diff', (ctx) => {
    skipIf(worker, ctx, [], onlyWithMock());
    const { output } = runs!.leak;
    // A GitHub Actions run (as this one is) folds each section into a ::group:: block under its title.
    const section = output.slice(output.indexOf('\n::group::Violations ('));
    expect(section, output.slice(-6000)).toMatch(new RegExp(`^\\n::group::Violations \\(\\d+ broken promises\\)\\n\\n1\\. ${LESSEE}`));
    expect(section).toMatch(/\n {3}Expected: .*\. Got: 200 /);
    expect(section).toMatch(/\n {3}Request: GET \$LP_FLEET_BASE_URL\/vehicles/);
    expect(section).toMatch(/\n {3}Answer: 200 /);
    expect(section).toContain('-H "api-key: ${LP_FLEET_API_KEY}"');
    // vitest's output (the failed checks one line each) goes to suite-output.log, its diffs and code frames only with
    // --verbose: the console has neither.
    expect(read('leak/suite-output.log')).toMatch(/\nFailed checks \(\d+\): /);
    expect(output).not.toMatch(/- Expected\n\+ Received|❯ contract-tests\/.*:\d+:\d+|\nFailed checks \(/);
  });

  it('violations.json, the JUnit failure, report.json and summary.md carry it, with the drift from the baseline run', (ctx) => {
    skipIf(worker, ctx, [], onlyWithMock());
    const violations = JSON.parse(read('leak/violations.json')) as { violations: ViolationGroup[]; baseline: string };
    const lessee = violations.violations.find((g) => g.promise.startsWith(LESSEE));
    expect(lessee?.examples[0]?.curl).toContain('${LP_FLEET_API_KEY}');
    expect(lessee).toMatchObject({ sinceBaseline: 'new' });
    const junit = read('leak/junit.xml');
    expect(junit).toMatch(/<failure message="Violation: Security: one lessee never sees[^"]*"[^>]*>1\. Security: .*\n.*Expected: /);
    expect(junit).toMatch(/<failure [^>]*>[^<]*Request: GET \$LP_FLEET_BASE_URL\/vehicles[^<]*Reproduce:\n[^<]*curl -sS -i -X GET/);
    const report = JSON.parse(read('leak/report.json')) as RunReport;
    expect(report.verdict.word).toBe('FAIL');
    expect(report.drift?.violations.new.some((p) => p.startsWith(LESSEE))).toBe(true);
    expect(report.drift?.baselineVerdict).toBe('PASS');
    // Both runs went through the same reshaping proxy: the same assumptions are contradicted, none new, none gone.
    expect(report.drift?.contradicted).toMatchObject({ new: [], gone: [] });
    expect(report.drift?.contradicted.still).toBeGreaterThan(0);
    expect(runs!.leak.output).toMatch(
      /\n::group::Since the last run \(baseline .*shapes, verdict PASS\)\n\nViolations: [1-9]\d* new, 0 no longer seen/,
    );
    const summary = read('leak/summary.md');
    expect(summary).toContain('### Since the last run');
    expect(summary).toMatch(new RegExp(`- \\*\\*${LESSEE}.*\\*\\*\\(new since the last run\\)\\*\\*`));
  });

  it('in GitHub Actions: an ::error per violation, a ::warning at the spec line of each contradicted assumption, the job summary', (ctx) => {
    skipIf(worker, ctx, [], onlyWithMock());
    const { output } = runs!.leak;
    expect(output).toMatch(new RegExp(`\\n::error title=Contract violation[^:]*::${LESSEE}`));
    expect(output).toMatch(/\n::warning file=openapi\/fleet\/[^,]+\.yaml,line=\d+,title=Contradicted assumption \(seed 4\.[56]\)::/);
    expect(read('step-summary.md')).toContain(`**${LESSEE}`);
  });

  it(
    'report.html, in Chromium at 1280×900: the verdict first, the violation with its curl, the grid, offline',
    async (ctx) => {
      skipIf(worker, ctx, [], onlyWithMock(), browserMissingReason);
      const report = JSON.parse(read('leak/report.json')) as RunReport;
      const screenshot = await checkReportInBrowser(join(out, 'leak', 'report.html'), {
        secrets,
        operationIds: report.coverage.rows.map((r) => r.operationId),
      });
      // Kept for review (the run's own directory goes at the end of this file).
      mkdirSync(SCREENSHOTS, { recursive: true });
      copyFileSync(screenshot, join(SCREENSHOTS, 'leak-run-first-screen.png'));
    },
    testWaitMs(90_000),
  );

  it('no report, annotation or summary shows a credential, in any encoding', (ctx) => {
    skipIf(worker, ctx, [], onlyWithMock());
    expect(secrets.length).toBeGreaterThan(0);
    // Every file of the report directory, the run's ledger (.ledger/) included.
    const files = readdirSync(join(out, 'leak'), { recursive: true, encoding: 'utf8' }).filter((f) =>
      statSync(join(out, 'leak', f)).isFile(),
    );
    expect(files).toEqual(expect.arrayContaining(['report.json', 'summary.md', 'violations.json', 'junit.xml']));
    const texts = [runs!.leak.output, read('step-summary.md'), ...files.map((f) => read(join('leak', f)))];
    for (const secret of secrets)
      for (const shown of [
        secret,
        encodeURIComponent(secret),
        Buffer.from(secret).toString('base64'),
        Buffer.from(secret).toString('base64url'),
      ])
        for (const text of texts) expect(text.includes(shown), `a credential (${shown.length} characters) in a report`).toBe(false);
  });
});

describe("what is nobody's verdict ends as 'could not judge' (exit 2)", () => {
  it('credentials the target refuses: named in one line, no check run, never green', (ctx) => {
    skipIf(worker, ctx, [], onlyWithMock());
    const { wrongKey } = runs!;
    expect(wrongKey.exitCode, wrongKey.output.slice(-3000)).toBe(EXIT_CODES.couldNotJudge);
    expect(wrongKey.output).toMatch(/preflight: fleet API .* refused the configured credentials \(401\): check LP_FLEET_API_KEY/);
    expect(verdictLine(wrongKey)).toMatch(/^contract verdict: COULD NOT JUDGE/);
    expect(wrongKey.output).not.toContain('not-the-configured-key');
  });

  it('an unreachable target: one line, no stack trace, no violation', (ctx) => {
    skipIf(worker, ctx, [], onlyWithMock());
    const { unreachable } = runs!;
    expect(unreachable.exitCode, unreachable.output.slice(-3000)).toBe(EXIT_CODES.couldNotJudge);
    expect(unreachable.output).toMatch(/preflight: fleet API .* could not be reached: GET \/fleet\/vehicles: the connection failed/);
    expect(unreachable.output).not.toMatch(/\n\s+at /);
  });

  it("the suite's own failure is neither a violation nor a pass", (ctx) => {
    skipIf(worker, ctx, [], onlyWithMock());
    const { crash } = runs!;
    expect(crash.exitCode, crash.output.slice(-3000)).toBe(EXIT_CODES.couldNotJudge);
    expect(verdictLine(crash)).toMatch(/^contract verdict: COULD NOT JUDGE: 0 violations/);
  });
});
