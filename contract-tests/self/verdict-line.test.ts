// The end of a run: one verdict line with the counts, the contradicted assumptions apart, and the CI gates. Checked on
// report files written here, so each rule is seen to fail a run, or not to.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type FailedCheck, outcomesFile } from '../judge/outcomes.ts';
import type { SuiteRun } from '../runner/run-suite.ts';
import { EXIT_CODES, verdictOfRun } from '../report/verdict-line.ts';

const dir = mkdtempSync(join(tmpdir(), 'lp-contract-verdict-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const row = (outcome: string, what: string) => ({
  apis: ['fleet'],
  pointer: '/components/schemas/Vehicle',
  seed: '2.1',
  what,
  outcome,
  evidence: ['domicileLocationNumber must be string'],
  observed: [{ request: 'GET /fleet/vehicles', status: 200, contentType: 'application/json', body: '[{"domicileLocationNumber":412}]' }],
  spec: { file: 'openapi/fleet/components/schemas/Vehicle.yaml', pointer: '/x-assumption/0' },
});

function reports(strictFailures: string[] = [], failed: FailedCheck[] = []) {
  writeFileSync(outcomesFile(dir), failed.map((c) => `${JSON.stringify(c)}\n`).join(''));
  writeFileSync(
    join(dir, 'assumptions.json'),
    JSON.stringify({
      assumptions: [
        row('contradicted', 'Each field is a string.'),
        row('confirmed', 'A bare array.'),
        row('not testable', 'No callbacks.'),
      ],
    }),
  );
  writeFileSync(
    join(dir, 'coverage.json'),
    JSON.stringify({ rows: [{ exercised: 1 }, { exercised: 0 }, { exercised: 2 }, { exercised: 0 }] }),
  );
  writeFileSync(join(dir, 'strict-failures.json'), JSON.stringify({ strictFailures }));
}
const run = (over: Partial<SuiteRun> = {}): SuiteRun => ({
  exitCode: 0,
  output: '',
  seconds: 1,
  passed: 10,
  failed: 0,
  skipped: 2,
  ...over,
});

describe('verdict of a run', () => {
  it('passes a default run with contradicted assumptions, counting each kind, and lists them with where to change the spec', () => {
    reports();
    const verdict = verdictOfRun(run(), dir);
    expect(verdict.exitCode).toBe(0);
    expect(verdict.line).toBe(
      'contract verdict: PASS: 0 violations, 1 contradicted assumptions, 0 checks could not be judged, 1 confirmed assumptions, 10 checks passed, 2 checks skipped',
    );
    expect(verdict.contradictions).toContain('The spec guessed (seed section 2.1 leaves it open): Each field is a string.');
    expect(verdict.contradictions).toContain('This server: GET /fleet/vehicles answered 200 application/json');
    expect(verdict.contradictions).toContain('openapi/fleet/components/schemas/Vehicle.yaml at /x-assumption/0');
  });

  it('counts the checks a strict run failed on contradictions apart from violations', () => {
    const failed = (name: string): FailedCheck => ({ name: `list > ${name}`, file: 'f.test.ts', outcome: 'violation' });
    reports(['sort vehicleNumber desc'], [failed('sort vehicleNumber desc'), failed('a'), failed('b')]);
    const verdict = verdictOfRun(run({ exitCode: 1, failed: 3 }), dir);
    expect(verdict.exitCode).toBe(1);
    expect(verdict.violations).toBe(2);
    expect(verdict.line).toMatch(
      /^contract verdict: FAIL: 2 violations, 1 contradicted assumptions \(1 checks failed on them: strict run\)/,
    );
  });

  it('ends a run whose failed checks could not be judged with exit 2, never as a pass nor as violations', () => {
    const unjudged: FailedCheck = {
      name: 'list > sorts',
      file: 'f.test.ts',
      outcome: 'unjudged',
      reason: 'GET /vehicles: the connection failed (ECONNREFUSED), 6 tries',
    };
    reports([], [unjudged]);
    const verdict = verdictOfRun(run({ exitCode: 1, failed: 1 }), dir);
    expect(verdict.exitCode).toBe(EXIT_CODES.couldNotJudge);
    expect(verdict.violations).toBe(0);
    expect(verdict.line).toMatch(/^contract verdict: COULD NOT JUDGE: 0 violations, .*1 checks could not be judged/);
    expect(verdict.unjudgedText).toContain('ECONNREFUSED');
    // A violation elsewhere in the same run decides it: exit 1, the unjudged check still counted apart.
    reports([], [unjudged, { name: 'get > one', file: 'f.test.ts', outcome: 'violation' }]);
    const mixed = verdictOfRun(run({ exitCode: 1, failed: 2 }), dir);
    expect([mixed.exitCode, mixed.violations, mixed.unjudged]).toEqual([EXIT_CODES.fail, 1, 1]);
    // A run that failed before any check reported judged nothing.
    reports([], []);
    expect(verdictOfRun(run({ exitCode: 1, failed: 0, passed: 0 }), dir).exitCode).toBe(EXIT_CODES.couldNotJudge);
  });

  it('fails on skipped checks with --fail-on-skip and below --min-coverage, and not otherwise', () => {
    reports();
    expect(verdictOfRun(run(), dir, { failOnSkip: true }).gateFailures.join()).toMatch(/2 checks were skipped/);
    expect(verdictOfRun(run({ skipped: 0 }), dir, { failOnSkip: true }).exitCode).toBe(0);
    const low = verdictOfRun(run(), dir, { minCoverage: 0.75 });
    expect(low.exitCode).toBe(1);
    expect(low.line).toMatch(/coverage 2\/4 \(0\.50\) is below --min-coverage 0\.75/);
    expect(verdictOfRun(run(), dir, { minCoverage: 0.5 }).exitCode).toBe(0);
  });
});
