// What GitHub users see of a run: an ::error per violation, a ::warning per contradicted assumption at the spec line to
// change, and the job summary; nothing at all outside GitHub Actions, and no credential in any of it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { repoRoot } from '../../spec-core/apis.ts';
import { githubReport, reportToGithub } from '../report/views/github.ts';
import type { RunReport } from '../report/report-model.ts';
import { lineOf } from '../report/spec-lines.ts';
import type { AssumptionReportRow } from '../report/report-model.ts';

const dir = mkdtempSync(join(tmpdir(), 'lp-contract-github-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SPEC = 'openapi/fleet/paths/vehicles.yaml';
const contradicted: AssumptionReportRow = {
  apis: ['fleet'],
  pointer: '/paths/~1vehicles/get',
  seed: '4.5',
  what: 'Several values of one filter are sent as repeated query parameters',
  outcome: 'contradicted',
  evidence: ['of repeated values only the last one is kept'],
  observed: [{ request: 'GET /fleet/vehicles?vin', status: 200, contentType: 'application/json', body: '[]' }],
  spec: { file: SPEC, pointer: '/get/x-assumption/0' },
};
const report: RunReport = {
  version: 1,
  target: 'live',
  generatedAt: '2026-11-25T00:00:00.000Z',
  verdict: {
    word: 'FAIL',
    exitCode: 1,
    line: 'contract verdict: FAIL: 1 violations, 1 contradicted assumptions, 1 checks could not be judged',
    strict: false,
  },
  counts: { violations: 1, contradicted: 1, unjudged: 1, confirmed: 0, passed: 3, passedAfterRetries: 1, skipped: 0 },
  violations: [
    {
      promise: "Security: one lessee never sees another lessee's vehicles",
      checks: ['lessee isolation > get-one never returns a foreign vehicle'],
      count: 2,
      messages: ['returned 100% of\nanother lessee'],
      sentence: 'Expected: get-one never returns a foreign vehicle. Got: 200 application/json (returned 100% of another lessee).',
      examples: [
        {
          request: { method: 'GET', url: '$LP_FLEET_BASE_URL/vehicles/V-2', headers: { 'api-key': '$LP_FLEET_API_KEY' } },
          answer: { status: 200, contentType: 'application/json', body: '{"vehicleNumber":"V-2"}' },
          curl: 'curl -sS -i -X GET "${LP_FLEET_BASE_URL}/vehicles/V-2" \\\n  -H "api-key: ${LP_FLEET_API_KEY}"',
        },
      ],
    },
  ],
  violatingChecks: [
    { name: 'lessee isolation > get-one never returns a foreign vehicle', file: 'f.test.ts', outcome: 'violation', message: 'returned' },
    { name: 'a broken hook', file: 'g.test.ts', outcome: 'violation', message: 'no request' },
  ],
  contradicted: [{ ...contradicted, line: lineOf(SPEC, '/get/x-assumption/0')! }],
  unjudged: [{ name: 'list > sorts', file: 'f.test.ts', outcome: 'unjudged', reason: 'GET /vehicles: no answer within 15000 ms' }],
  passedAfterRetries: [{ check: 'list > filters', retried: 2, throttled: 1 }],
  coverage: { exercised: 22, total: 60, rows: [] },
  transport: 'contract: requests: 10 requests (12 attempts)',
  gateFailures: [],
  drift: {
    baseline: 'previous',
    baselineVerdict: 'PASS',
    violations: { new: ["Security: one lessee never sees another lessee's vehicles"], gone: [], still: 0 },
    contradicted: { new: [], gone: ['An older guess'], still: 1 },
    unjudged: { new: ['list > sorts'], gone: [], still: 0 },
  },
};

describe('GitHub annotations and job summary', () => {
  it('finds the line of an x-assumption in its spec file', () => {
    const line = lineOf(SPEC, '/get/x-assumption/0');
    const text = readFileSync(join(repoRoot, SPEC), 'utf8').split('\n');
    expect(line).toBeGreaterThan(1);
    expect(text[line! - 1]).toMatch(/what: Several values of one filter/);
    expect(lineOf(SPEC, '/get/no-such-key')).toBeUndefined();
  });

  it('annotates a violation as an error and a contradicted assumption as a warning at its spec line, escaped', () => {
    const { annotations } = githubReport(report);
    expect(annotations[0]).toBe(
      "::error title=Contract violation (2 times)::Security: one lessee never sees another lessee's vehicles. Expected: get-one never returns a foreign vehicle. Got: 200 application/json (returned 100%25 of another lessee). Request: GET $LP_FLEET_BASE_URL/vehicles/V-2 answered 200.",
    );
    // A violating check no group names (a broken hook) is annotated on its own.
    expect(annotations[1]).toBe('::error title=Contract violation::a broken hook: no request');
    const line = lineOf(SPEC, '/get/x-assumption/0');
    expect(
      annotations[2]?.startsWith(
        `::warning file=${SPEC},line=${line},title=Contradicted assumption (seed 4.5)::The spec guessed: Several values`,
      ),
    ).toBe(true);
    expect(annotations).toHaveLength(3);
  });

  it('writes the job summary with the verdict, each outcome in its own section and the coverage, redacted', () => {
    const summaryFile = join(dir, 'summary.md');
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      reportToGithub(githubReport(report), (text) => text.replaceAll('lessee', '***'), {
        GITHUB_ACTIONS: 'true',
        GITHUB_STEP_SUMMARY: summaryFile,
      });
      const summary = readFileSync(summaryFile, 'utf8');
      expect(summary).toContain('`contract verdict: FAIL: 1 violations');
      expect(summary).toContain('### Violations (1 broken promises)');
      expect(summary).toContain('curl -sS -i -X GET "${LP_FLEET_BASE_URL}/vehicles/V-2"');
      expect(summary).toContain('### Could not judge (1)');
      expect(summary).toContain('### Passed only after retries (1)');
      expect(summary).toContain('- list > filters: 2 retries, 1 throttled');
      expect(summary).toContain('### Since the last run');
      expect(summary).toContain('**(new since the last run)**');
      expect(summary).toContain('- no longer seen: An older guess');
      expect(summary).toMatch(
        /\| 4\.5 \| Several values .* \| GET \/fleet\/vehicles\?vin answered 200 application\/json \| `openapi\/fleet\/paths\/vehicles\.yaml:\d+`/,
      );
      expect(summary).toContain('22 of 60');
      expect(summary).not.toContain('lessee');
      expect(log.mock.calls.map(([line]) => String(line)).join('\n')).not.toContain('lessee');
      expect(log).toHaveBeenCalledTimes(3);
    } finally {
      log.mockRestore();
    }
  });

  it('prints and writes nothing outside GitHub Actions', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      reportToGithub(githubReport(report), (text) => text, { GITHUB_STEP_SUMMARY: join(dir, 'never.md') });
      expect(log).not.toHaveBeenCalled();
      expect(() => readFileSync(join(dir, 'never.md'))).toThrow();
    } finally {
      log.mockRestore();
    }
  });
});
