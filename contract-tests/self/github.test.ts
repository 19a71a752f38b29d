// What GitHub users see of a run: an ::error per violation, a ::warning per contradicted assumption at the spec line to
// change, and the job summary; nothing at all outside GitHub Actions, and no credential in any of it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { repoRoot } from '../../spec-core/apis.ts';
import { githubReport, lineOf, reportToGithub } from '../runner/github.ts';
import type { AssumptionReportRow } from '../support/reports.ts';

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
const input = {
  verdictLine: 'contract verdict: FAIL: 1 violations, 1 contradicted assumptions, 1 checks could not be judged',
  failedChecks: [
    {
      name: 'lessee isolation > get-one never returns a foreign vehicle',
      file: 'f.test.ts',
      outcome: 'violation' as const,
      message: 'returned 100% of\nanother lessee',
    },
    { name: 'list > sorts', file: 'f.test.ts', outcome: 'unjudged' as const, reason: 'GET /vehicles: no answer within 15000 ms' },
  ],
  contradicted: [contradicted],
  coverage: { exercised: 22, total: 60 },
  transport: 'contract: requests: 10 requests (12 attempts)',
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
    const { annotations } = githubReport(input);
    expect(annotations[0]).toBe(
      '::error title=Contract violation::lessee isolation > get-one never returns a foreign vehicle: returned 100%25 of%0Aanother lessee',
    );
    const line = lineOf(SPEC, '/get/x-assumption/0');
    expect(
      annotations[1]?.startsWith(
        `::warning file=${SPEC},line=${line},title=Contradicted assumption (seed 4.5)::The spec guessed: Several values`,
      ),
    ).toBe(true);
    expect(annotations).toHaveLength(2);
  });

  it('writes the job summary with the verdict, each outcome in its own section and the coverage, redacted', () => {
    const summaryFile = join(dir, 'summary.md');
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      reportToGithub(githubReport(input), (text) => text.replaceAll('lessee', '***'), {
        GITHUB_ACTIONS: 'true',
        GITHUB_STEP_SUMMARY: summaryFile,
      });
      const summary = readFileSync(summaryFile, 'utf8');
      expect(summary).toContain('`contract verdict: FAIL: 1 violations');
      expect(summary).toContain('### Violations (1)');
      expect(summary).toContain('### Could not judge (1)');
      expect(summary).toMatch(
        /\| 4\.5 \| Several values .* \| GET \/fleet\/vehicles\?vin answered 200 application\/json \| `openapi\/fleet\/paths\/vehicles\.yaml:\d+`/,
      );
      expect(summary).toContain('22 of 60');
      expect(summary).not.toContain('lessee');
      expect(log.mock.calls.map(([line]) => String(line)).join('\n')).not.toContain('lessee');
      expect(log).toHaveBeenCalledTimes(2);
    } finally {
      log.mockRestore();
    }
  });

  it('prints and writes nothing outside GitHub Actions', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      reportToGithub(githubReport(input), (text) => text, { GITHUB_STEP_SUMMARY: join(dir, 'never.md') });
      expect(log).not.toHaveBeenCalled();
      expect(() => readFileSync(join(dir, 'never.md'))).toThrow();
    } finally {
      log.mockRestore();
    }
  });
});
