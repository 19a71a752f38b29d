// report.html (report/views/html.ts): every text escaped (a hostile answer injects no markup), nothing fetched from
// elsewhere, the sections in a partner's reading order with a reproduction per violation and a coverage grid of one
// row per operation, no configured credential in any spelling; and in Chromium, the verdict on the first screen.
// The structure is checked on the report of a real run: fixtures/leak-run-report.json is the report of
// self/end-to-end/real-environment.test.ts's leak run (a sandbox leaking another lessee's vehicles behind a proxy that wraps the
// list and relabels the fleet's JSON: violations and contradicted assumptions both), taken from that run's files; of
// its coverage rows the file keeps those the run exercised, and the rest are made here from the registry (leakReport).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OTHER_LESSEE_API_KEY, SANDBOX_DEFAULTS } from '../../sandbox/config.ts';
import { repoRoot } from '../../spec-core/apis.ts';
import { coverage } from '../report/coverage.ts';
import type { RunReport } from '../report/report-model.ts';
import { escapeHtml, htmlReport } from '../report/views/html.ts';
import type { LedgerEntry } from '../send/ledger.ts';
import { expectNoSecrets } from './report-browser.ts';

const dir = mkdtempSync(join(tmpdir(), 'lp-contract-html-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The leak run's report. Its coverage grid has a row for every operation, status and scheme of the registry; the file
 * keeps only the rows the run exercised, and the others are made as the run made them (report/coverage.ts over the
 * run's exchanges), so the file names no operation the run did not reach and a new operation needs no edit of it.
 */
function leakReport(): RunReport {
  const saved = JSON.parse(readFileSync(join(repoRoot, 'contract-tests/fixtures/leak-run-report.json'), 'utf8')) as RunReport;
  const exchanges = saved.coverage.rows.flatMap((row) =>
    Array.from(
      { length: row.exercised },
      (): LedgerEntry => ({
        kind: 'exchange',
        operationId: row.operationId,
        status: Number(row.status),
        scheme: row.scheme,
        problems: [],
        test: '',
      }),
    ),
  );
  const rows = coverage(exchanges);
  return { ...saved, coverage: { ...saved.coverage, total: rows.length, rows } };
}

const leak = leakReport();
/** The credentials the leak run was configured with (the sandbox's public defaults). */
const LEAK_SECRETS = [
  SANDBOX_DEFAULTS.LP_CLIENT_SECRET,
  SANDBOX_DEFAULTS.LP_SUBSCRIPTION_KEY,
  SANDBOX_DEFAULTS.LP_FLEET_API_KEY,
  OTHER_LESSEE_API_KEY,
];

// What a hostile or broken server could put into the texts the report shows.
const EVIL_BODY = '</pre><script>alert(document.domain)</script><img src=x onerror=alert(1)>"\'&amp;';
const EVIL = '<b onmouseover="alert(2)">"quoted" & </pre></code></td></tr></table>';
const BIDI = 'curl \u202Eevil\u202C \u0007\u001b[31m';

const hostile: RunReport = {
  version: 1,
  target: `live ${EVIL}`,
  generatedAt: '2026-01-15T09:30:12.000Z',
  verdict: { word: 'FAIL', exitCode: 1, line: `contract verdict: FAIL: 1 violations ${EVIL}`, strict: false },
  counts: { violations: 1, contradicted: 1, unjudged: 1, confirmed: 3, passed: 40, passedAfterRetries: 1, skipped: 2 },
  violations: [
    {
      promise: `get one vehicle (GET {fleet_base_url}/vehicles/{vehicleNumber}) > answers ${EVIL}`,
      checks: [`get one vehicle > answers ${EVIL}`, 'lessee isolation > get-one never returns a foreign vehicle'],
      count: 3,
      messages: [`expected 404, got 200 ${EVIL}`, `a second failure ${EVIL}`],
      sentence: `Expected: answers ${EVIL}. Got: GET answered 200 text/html (expected 404, got 200 ${EVIL}).`,
      examples: [
        {
          request: {
            method: 'GET',
            url: `$LP_FLEET_BASE_URL/vehicles/V-000002?q=${EVIL}`,
            headers: { 'api-key': '$LP_FLEET_API_KEY', accept: `application/json ${EVIL}` },
            body: `{"note":"${EVIL}"}`,
          },
          answer: { status: 200, contentType: `text/html ${EVIL}`, body: EVIL_BODY },
          curl: `curl -sS -i -X GET "\${LP_FLEET_BASE_URL}/vehicles/V-000002?q=</pre><script>x()</script>" \\\n  -H "api-key: \${LP_FLEET_API_KEY}" ${BIDI}`,
        },
        {
          request: { method: 'GET', url: '$LP_FLEET_BASE_URL/vehicles/V-000007', headers: {} },
          answer: { status: 200, contentType: 'application/json', body: '' },
          curl: `curl -sS -i -X GET "\${LP_FLEET_BASE_URL}/vehicles/V-000007"`,
        },
      ],
    },
  ],
  violatingChecks: [{ name: `get one vehicle > answers ${EVIL}`, file: 'contract-tests/fleet/vehicles.test.ts', outcome: 'violation' }],
  contradicted: [
    {
      apis: ['fleet'],
      pointer: '/paths/~1vehicles/get',
      seed: `4.5 ${EVIL}`,
      what: `The list is sent as \`application/json\` ${EVIL} \`</code><script>y()</script>\``,
      outcome: 'contradicted',
      evidence: [`listVehicles answered 200: ${EVIL}`],
      observed: [{ request: `GET /fleet/vehicles?${'q'.repeat(300)}`, status: 200, contentType: 'text/plain', body: EVIL_BODY }],
      spec: { file: 'openapi/fleet/paths/vehicles.yaml', pointer: '/get/responses/200/x-assumption' },
      line: 168,
    },
  ],
  unjudged: [
    {
      name: `list > sorts ${EVIL}`,
      file: 'contract-tests/fleet/vehicles.test.ts',
      outcome: 'unjudged',
      reason: `no answer within 15000 ms ${EVIL}`,
    },
  ],
  passedAfterRetries: [{ check: `list > filters ${EVIL}`, retried: 2, throttled: 1 }],
  coverage: {
    exercised: 1,
    total: 2,
    rows: [
      { operationId: 'listVehicles', status: '200', scheme: 'FleetApiKey', exercised: 12 },
      { operationId: 'listVehicles', status: '429', scheme: 'FleetApiKey', exercised: 0, whyNot: `not provoked "><script>z()</script>` },
      { operationId: `gone${EVIL}`, status: '200', scheme: `Evil${EVIL}`, exercised: 0, whyNot: EVIL },
    ],
  },
  transport: `contract: requests: 10 requests ${EVIL}`,
  gateFailures: [`coverage below --min-coverage ${EVIL}`],
  drift: {
    baseline: `dist/previous ${EVIL}`,
    baselineVerdict: 'PASS',
    violations: { new: [`get one vehicle (GET {fleet_base_url}/vehicles/{vehicleNumber}) > answers ${EVIL}`], gone: [EVIL], still: 0 },
    contradicted: { new: [], gone: [EVIL], still: 1 },
    unjudged: { new: [`list > sorts ${EVIL}`], gone: [], still: 0 },
  },
  workflows: {
    version: 1,
    target: 'live',
    seconds: 4.2,
    exitCode: 1,
    line: `workflows verdict: FAIL: 1 workflow passed (2 steps), 1 failed (1 step broke a promise) ${EVIL}`,
    counts: {
      workflows: { passed: 1, failed: 1, unjudged: 0, skipped: 1 },
      steps: { passed: 3, failed: 1, unjudged: 0, skipped: 2 },
    },
    workflows: [
      {
        workflowId: 'recordMilestoneWithServiceToken',
        title: `A service token, then a milestone ${EVIL}`,
        file: 'openapi/workflows/milestones.arazzo.yaml',
        outcome: 'failed',
        seconds: 1.1,
        files: {},
        steps: [
          { stepId: 'requestServiceToken', operationId: 'requestServiceToken', outcome: 'passed' },
          {
            stepId: 'recordMilestone',
            operationId: 'recordLoadMilestoneEvent',
            outcome: 'failed',
            promise: `Published documentation, section 4.4: the event is confirmed ${EVIL}`,
            broken: [`$statusCode == 200, got 500 ${EVIL}`],
            request: {
              method: 'POST',
              url: '$LP_BASE_URL/v1/load-milestone-events',
              headers: { authorization: 'Bearer $TOKEN' },
              body: EVIL,
            },
            answer: { status: 500, contentType: 'text/html', body: EVIL_BODY },
            curl: `curl -sS -i -X POST "\${LP_BASE_URL}/v1/load-milestone-events" ${BIDI}`,
          },
        ],
      },
      {
        workflowId: 'recordMilestoneWithAuthorizationCode',
        title: 'The authorization code grant, then a milestone',
        file: 'openapi/workflows/milestones.arazzo.yaml',
        outcome: 'skipped',
        reason: `the target does not approve without a person ${EVIL}`,
        seconds: 0.1,
        files: {},
        steps: [],
      },
    ],
  },
};

/** The markup this module writes; anything else in the page came from a text. */
const OWN_TAGS = new Set(
  '!doctype html head meta title style body main header h1 p b section a div ul ol li nav h2 span code article h3 h4 pre table thead tr th tbody td details summary br footer script'.split(
    ' ',
  ),
);
const OWN_ATTRIBUTES = new Set(
  'html lang charset http-equiv content name class id href title aria-label scope rowspan data-operation'.split(' '),
);
/** A tag: its name and attributes (this module quotes every value with ", which escaping keeps out of values). */
const TAG = /<(\/?[a-zA-Z!][^\s>]*)((?:\s+[^\s=>"]+(?:="[^"]*")?)*)\s*>/g;

/** Every tag of the page, the style sheet and the script left out; fails when a "<" starts anything but a tag. */
function tagsOf(page: string): Array<{ name: string; attributes: Array<[string, string]> }> {
  const markup = page.replace(/<style>[\s\S]*?<\/style>/, '<style></style>').replace(/<script>[\s\S]*?<\/script>/, '<script></script>');
  const tags = [...markup.matchAll(TAG)];
  expect(markup.split('<').length - 1, 'a "<" that starts no tag').toBe(tags.length);
  return tags.map((m) => ({
    name: m[1]!.replace(/^\//, '').toLowerCase(),
    attributes: [...m[2]!.matchAll(/\s+([^\s=>"]+)(?:="([^"]*)")?/g)].map((a): [string, string] => [a[1]!.toLowerCase(), a[2] ?? '']),
  }));
}
const between = (page: string, from: string, to: string) => page.slice(page.indexOf(from), page.indexOf(to, page.indexOf(from)));

describe('report.html', () => {
  it('escapes every text: a hostile answer, promise, message or reason injects no markup, script or attribute', () => {
    const page = htmlReport(hostile);
    const tags = tagsOf(page);
    expect([...new Set(tags.map((t) => t.name))].filter((name) => !OWN_TAGS.has(name))).toEqual([]);
    expect([...new Set(tags.flatMap((t) => t.attributes.map(([name]) => name)))].filter((name) => !OWN_ATTRIBUTES.has(name))).toEqual([]);
    // Links only inside the page.
    for (const tag of tags) for (const [name, value] of tag.attributes) if (name === 'href') expect(value).toMatch(/^#[a-z]+$/);
    // One script, the page's own, at the end of the body.
    expect(page.match(/<script/g)).toHaveLength(1);
    expect(page.indexOf('<script>')).toBeGreaterThan(page.indexOf('<footer>'));
    expect(page).not.toContain('</pre><script>');
    expect(page).not.toContain('<img');
    // Each hostile text is there, escaped: the partner still reads what the server sent.
    expect(page).toContain(escapeHtml(EVIL_BODY));
    expect(page).toContain('&lt;/pre&gt;&lt;script&gt;alert(document.domain)&lt;/script&gt;');
    expect(page).toContain(escapeHtml(`expected 404, got 200 ${EVIL}`));
    expect(page).toContain(`title="Evil${escapeHtml(EVIL)}: not exercised: ${escapeHtml(EVIL)}"`);
    expect(page).toContain('not provoked &quot;&gt;&lt;script&gt;z()&lt;/script&gt;');
    // A code span of the spec's text becomes <code>, its content escaped.
    expect(page).toContain('<code>&lt;/code&gt;&lt;script&gt;y()&lt;/script&gt;</code>');
    // Control characters and direction overrides are shown, never obeyed.
    expect(page).toContain('curl &lt;U+202E&gt;evil&lt;U+202C&gt; \u2407\u241b[31m');
    for (const hidden of ['\u202e', '\u202c', '\u0007', '\u001b']) expect(page).not.toContain(hidden);
  });

  it("a live run's workflows in their own section: each workflow's outcome, a failed step with its promise, request, answer and curl, a skipped one with why", () => {
    const page = htmlReport(hostile);
    expect(page.indexOf('id="workflows"')).toBeGreaterThan(page.indexOf('id="drift"'));
    expect(page.indexOf('id="workflows"')).toBeLessThan(page.indexOf('id="coverage"'));
    expect(page).toContain('<a href="#workflows">Workflows (2)</a>');
    const section = between(page, 'id="workflows"', '</section>');
    expect(section).toContain(escapeHtml(`Published documentation, section 4.4: the event is confirmed ${EVIL}`));
    expect(section).toContain(escapeHtml(`$statusCode == 200, got 500 ${EVIL}`));
    expect(section).toContain(escapeHtml(EVIL_BODY));
    expect(section).toContain('curl -sS -i -X POST');
    expect(section).toContain(escapeHtml(`the target does not approve without a person ${EVIL}`));
    expect(section).toMatch(
      /recordMilestoneWithServiceToken<\/b>.*<td>broke a promise<\/td><td>requestServiceToken: passed, recordMilestone: broke a promise/s,
    );
    // A run without workflows (mock, sandbox, --no-workflows) has no such section.
    expect(htmlReport(leak)).not.toContain('id="workflows"');
  });

  it('asks for nothing from elsewhere: no src, no link, no url(), and a policy that allows only its own style and script', () => {
    for (const page of [htmlReport(hostile), htmlReport(leak)]) {
      expect(page).not.toMatch(/\s(src|href|srcset|action|poster|data)\s*=\s*"(?!#)/i);
      expect(page).not.toMatch(/url\(|@import|<link|<iframe|<object|<embed/i);
      const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page)?.[1];
      expect(policy).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'; script-src 'sha256-[^']+'; img-src data:;/);
      // The policy comes before anything that could load.
      expect(page.indexOf('Content-Security-Policy')).toBeLessThan(page.indexOf('<style>'));
    }
  });

  it('the report of a real run: verdict, violations with request, answer and curl, contradicted assumptions with the line to change, then the grid', () => {
    const page = htmlReport(leak);
    const order = ['id="verdict"', 'id="violations"', 'id="contradicted"', 'id="unjudged"', 'id="retries"', 'id="coverage"'].map((id) =>
      page.indexOf(id),
    );
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(page).not.toContain('id="drift"');
    // The verdict and the three outcomes apart, with the other counts.
    const verdict = between(page, 'id="verdict"', '<nav');
    expect(verdict).toContain('<h1 class="word">FAIL</h1>');
    expect(verdict).toMatch(/class="verdict v-fail"/);
    for (const [count, name] of [
      [leak.counts.violations, 'Violations'],
      [leak.counts.contradicted, 'Contradicted assumptions'],
      [leak.counts.unjudged, 'Could not judge'],
    ] as const)
      expect(verdict).toMatch(new RegExp(`<div class="count">${count}</div><div class="name">${name}</div>`));
    expect(verdict).toContain(`<b>${leak.counts.passed}</b> checks passed`);
    expect(verdict).toContain(`<b>${leak.counts.confirmed}</b> assumptions confirmed`);
    // One card per broken promise; each with an example has its request, its answer and its curl.
    const cards = between(page, 'id="violations"', 'id="contradicted"').split('<article class="card violation"').slice(1);
    expect(cards).toHaveLength(leak.violations.length);
    leak.violations.forEach((group, index) => {
      const card = cards[index]!;
      expect(card).toContain(escapeHtml(group.promise.split(' > ').at(-1)!));
      const example = group.examples[0];
      if (!example) {
        expect(card).toContain('No request was recorded');
        return;
      }
      expect(card).toContain(`<pre class="request">${escapeHtml(`${example.request.method} ${example.request.url}`)}`);
      expect(card).toContain(`<pre class="answer">${example.answer.status} ${escapeHtml(example.answer.contentType)}`);
      expect(card).toContain(`<pre class="curl">${escapeHtml(example.curl)}</pre>`);
    });
    expect(leak.violations.some((g) => g.examples.length)).toBe(true);
    // The contradicted assumptions: what the spec guessed, what the server did, the spec file and line to change.
    const assumptions = between(page, 'id="contradicted"', 'id="unjudged"').split('<article class="card assumption"').slice(1);
    expect(assumptions).toHaveLength(leak.contradicted.length);
    leak.contradicted.forEach((row, index) => {
      expect(assumptions[index]).toContain(`Section ${row.seed} of the published documentation leaves it open`);
      expect(assumptions[index]).toContain(`<code>${row.spec!.file}:${row.line}</code>`);
      expect(assumptions[index]).toContain(`answered <b>${row.observed[0]!.status} ${row.observed[0]!.contentType}</b>`);
    });
    // The grid: one row per operation, a mark per row of coverage.json, a filled one for each exercised.
    const grid = between(page, 'id="coverage-grid"', '</table>');
    const operationIds = [...new Set(leak.coverage.rows.map((r) => r.operationId))];
    expect([...grid.matchAll(/<tr data-operation="([^"]+)"/g)].map((m) => m[1])).toEqual(operationIds);
    expect(grid.match(/class="mark hit /g)).toHaveLength(leak.coverage.rows.filter((r) => r.exercised).length);
    expect(grid.match(/class="mark miss /g)).toHaveLength(leak.coverage.rows.filter((r) => !r.exercised).length);
    for (const row of leak.coverage.rows.filter((r) => !r.exercised))
      expect(grid).toContain(`title="${row.scheme}: not exercised: ${escapeHtml(row.whyNot!)}"`);
    // No credential the run was configured with, in any spelling.
    expectNoSecrets(page, LEAK_SECRETS);
  });

  it('finds a credential in the page in plain text, URL-encoded or base64 (the check itself)', () => {
    const secret = 'sandbox-fleet-key/lessee+a';
    for (const spelling of [secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64')]) {
      const page = htmlReport({ ...hostile, transport: `requests: ${spelling}` });
      expect(() => expectNoSecrets(page, [secret]), spelling).toThrow(/a configured secret/);
    }
  });

  it('words and colours the verdict by outcome, marks what is new since the baseline, lists retries and what could not be judged', () => {
    const page = htmlReport(hostile);
    expect(page).toContain('class="verdict v-fail"');
    expect(page).toContain(`<li>${escapeHtml(`coverage below --min-coverage ${EVIL}`)}</li>`);
    const drift = between(page, 'id="drift"', 'id="coverage"');
    expect(drift).toContain('whose verdict was <b>PASS</b>');
    expect(drift).toContain('New since the last run (1)');
    expect(drift).toContain('No longer seen (1)');
    expect(between(page, 'id="violations"', 'id="contradicted"')).toContain('new since the last run');
    expect(between(page, 'id="unjudged"', 'id="retries"')).toContain(escapeHtml(`no answer within 15000 ms ${EVIL}`));
    expect(between(page, 'id="retries"', 'id="drift"')).toContain('<td>2</td><td>1</td>');
    // Seen three times in two checks: both listed; the second example folded away.
    expect(page).toContain('Seen 3 times, in 2 checks');
    expect(page).toContain('<summary>1 more example</summary>');

    const pass = htmlReport({
      ...leak,
      verdict: { ...leak.verdict, word: 'PASS', exitCode: 0 },
      counts: { ...leak.counts, violations: 0 },
      violations: [],
      violatingChecks: [],
    });
    expect(pass).toContain('class="verdict v-pass"');
    expect(pass).toContain('No violation, and every check could be judged. This server differs from 4 guesses of the specs');
    expect(pass).toContain('None: no check found the server breaking a documented promise.');
    const unjudged = htmlReport({
      ...hostile,
      verdict: { ...hostile.verdict, word: 'COULD NOT JUDGE', exitCode: 2 },
      counts: { ...hostile.counts, violations: 0 },
      violations: [],
    });
    expect(unjudged).toContain('class="verdict v-unjudged"');
    expect(unjudged).toContain('No violation found, but 1 check got no answer the suite could judge');
  });
  // In Chromium: the report.html a real live run writes (real-environment.test.ts, its leak run).
});
