// The pieces of the reports that a real run rarely shows all at once: which promise a statement breaks (every
// operation of the specs has its section of the documentation), a JUnit report in which a check that could not be
// judged is an <error> and not a <failure> and one that passed after retries says so, and the drift between two runs.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rewriteJunit } from '../report/views/junit.ts';
import { driftOf, readBaseline } from '../report/build.ts';
import type { RunReport } from '../report/report-model.ts';
import { seedSections } from '../../spec-core/seed-sections.ts';
import { promiseOf } from '../judge/promises.ts';
import { specRegistry, registryProblems } from '../model/operations.ts';

const dir = mkdtempSync(join(tmpdir(), 'lp-report-shapes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the promise a violation breaks', () => {
  it('every operation of the specs has its section of the published documentation', () => {
    expect(registryProblems(specRegistry(), seedSections())).toEqual([]);
  });

  it.for([
    [
      'answers the foreign vehicle (LP_FLEET_FOREIGN_VEHICLE_NUMBER) with a 4xx',
      'check',
      'getVehicle',
      /^Security: one lessee never sees another lessee's vehicles \(published documentation, section 5\.3 \(Fleet API key\)\)$/,
    ],
    [
      'listVehicles refused the request (401) but its answer discloses property "vin"',
      'answer',
      'listVehicles',
      /^Security: a refused request discloses nothing/,
    ],
    [
      'RFC 6749 5.2: an invalid client is answered 401 with error=invalid_client',
      'check',
      'requestServiceToken',
      /^RFC 6749, section 5\.2,/,
    ],
    // The check's own name before its group's: the group lists several sections.
    [
      'OAuth clauses of the token endpoints (RFC 6749 3.2, 4.1.3, 5.1, 5.2) > RFC 6749 5.2: each refusal of the token endpoints names its error',
      'check',
      'requestServiceToken',
      /^RFC 6749, section 5\.2,/,
    ],
    ['GET /vehicles: a 5xx status (the server failed on this request)', 'answer', 'listVehicles', /^No server error/],
    [
      'rejects a request with a wrong subscription key with a 4xx',
      'check',
      'requestIdentityProviderToken',
      /^Security: wrong, missing or misplaced credentials are refused/,
    ],
    [
      'returns the vehicles with their eight fields for a valid key',
      'check',
      'listVehicles',
      /^Published documentation, section 4\.5 \(List vehicles\): returns the vehicles/,
    ],
    // The checker's problems are never read as a check's name: a missing token property is the documentation's promise.
    [
      'requestServiceToken: body must have required property access_token (missing token)',
      'answer',
      'requestServiceToken',
      /^Published documentation, section 4\.1/,
    ],
  ] as const)('%s → %s', ([statement, from, operationId, expected]) => {
    expect(promiseOf(statement, from, operationId)).toMatch(expected);
  });
});

const JUNIT = `<?xml version="1.0" encoding="UTF-8" ?>
<testsuites name="vitest tests" tests="3" failures="2" errors="0" time="1">
    <testsuite name="f.test.ts" timestamp="t" hostname="h" tests="3" failures="2" errors="0" skipped="0" time="1">
        <testcase classname="f.test.ts" name="list &gt; sorts" time="0.1">
            <failure message="CouldNotJudge: GET /vehicles: no answer" type="CouldNotJudge">CouldNotJudge: GET /vehicles: no answer within 15000 ms</failure>
        </testcase>
        <testcase classname="f.test.ts" name="list &gt; filters" time="0.1">
        </testcase>
        <testcase classname="f.test.ts" name="get &gt; foreign" time="0.1">
            <failure message="expected 2 to be 4" type="AssertionError">AssertionError: expected 2 to be 4</failure>
        </testcase>
    </testsuite>
</testsuites>
`;

const report = {
  unjudged: [{ name: 'list > sorts', file: 'f.test.ts', outcome: 'unjudged', reason: 'GET /vehicles: no answer within 15000 ms' }],
  passedAfterRetries: [{ check: 'list > filters', retried: 2, throttled: 1 }],
  violations: [],
  contradicted: [],
} as unknown as RunReport;

describe('the JUnit report, as a CI test tab shows it', () => {
  it('a violation carries its promise, request, answer and curl; could not judge is an <error>; retries are noted', () => {
    const file = join(dir, 'junit.xml');
    writeFileSync(file, JUNIT);
    const changed = rewriteJunit(file, report, [
      {
        check: 'get > foreign',
        violations: [
          {
            promise: "Security: one lessee never sees another lessee's vehicles",
            sentence: 'Expected: foreign. Got: 200 application/json.',
            evidence: {
              request: { method: 'GET', url: '$LP_FLEET_BASE_URL/vehicles/V-2', headers: { 'api-key': '$LP_FLEET_API_KEY' } },
              answer: { status: 200, contentType: 'application/json', body: '{"v":"<x>"}' },
              curl: 'curl -sS -i -X GET "${LP_FLEET_BASE_URL}/vehicles/V-2"',
            },
          },
        ],
      },
    ]);
    const xml = readFileSync(file, 'utf8');
    expect(changed).toBe(3);
    expect(xml).toContain('<error message="Could not judge: GET /vehicles: no answer within 15000 ms" type="CouldNotJudge">');
    expect(xml).toContain('<system-out>passed only after retries: 2 retries, 1 throttled');
    expect(xml).toContain(
      '<failure message="Violation: Security: one lessee never sees another lessee&apos;s vehicles. Expected: foreign. Got: 200 application/json."'.replace(
        '&apos;',
        "'",
      ),
    );
    expect(xml).toContain('Request: GET $LP_FLEET_BASE_URL/vehicles/V-2');
    expect(xml).toContain('Answer: 200 application/json: {&quot;v&quot;:&quot;&lt;x&gt;&quot;}');
    expect(xml).toContain('curl -sS -i -X GET &quot;${LP_FLEET_BASE_URL}/vehicles/V-2&quot;');
    expect(xml).toContain('<testsuites name="vitest tests" tests="3" failures="1" errors="1"');
    expect(xml).toContain('tests="3" failures="1" errors="1" skipped="0"');
  });
});

describe('drift between two runs', () => {
  it('names what is new and what is no longer seen, per outcome; a directory with no reports is an error naming it', () => {
    const previous = join(dir, 'previous');
    const now = {
      violations: [{ promise: 'A' }, { promise: 'B' }],
      contradicted: [{ what: 'guess 1' }],
      unjudged: [],
    } as unknown as RunReport;
    const before = { ...now, version: 1, verdict: { word: 'FAIL' }, violations: [{ promise: 'B' }, { promise: 'C' }] };
    rmSync(previous, { recursive: true, force: true });
    expect(() => readBaseline(previous)).toThrow(`--baseline ${previous}: no such directory`);
    writeFileSync(join(dir, 'report.json'), JSON.stringify(before));
    const drift = driftOf(now, readBaseline(dir), dir);
    expect(drift).toMatchObject({
      baselineVerdict: 'FAIL',
      violations: { new: ['A'], gone: ['C'], still: 1 },
      contradicted: { new: [], gone: [], still: 1 },
    });
    const empty = join(dir, 'empty');
    rmSync(empty, { recursive: true, force: true });
    writeFileSync(join(dir, 'not-a-dir'), '');
    expect(() => readBaseline(join(dir, 'not-a-dir'))).toThrow(/no report\.json, violations\.json or assumptions\.json/);
  });
});
