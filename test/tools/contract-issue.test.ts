// npm run contract:issue as the nightly workflow runs it: a real process against a loopback server that plays the
// GitHub REST API (issues, comments, labels) and records every request. Each verdict leads to one thing: nothing (green,
// no issue), close (green, an issue open), create (not green, none open), comment (not green, one open; retitled and
// relabelled when the verdict changed); and no configured secret ever reaches a request body, whatever a report holds.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it, onTestFinished } from 'vitest';
import { runContractIssue } from '../../contract-tests/runner/live-issue.ts';
import { repoRoot } from '../../spec-core/apis.ts';
import { testWaitMs } from '../../config/test-waits.ts';

const REPO = 'partner/api-kit';
const TOKEN = 'ghs_fakeTokenForTheLoopbackGitHub0001';
const SECRETS = {
  LP_CLIENT_SECRET: 'cs-Zq8vN2pL6wR4tY9k',
  LP_SUBSCRIPTION_KEY: 'sub-4f9a1c7e2b8d6f30',
  LP_FLEET_API_KEY: 'fleet+key/Wx7Ht3Jm',
};
const RUN_URL = 'https://github.com/partner/api-kit/actions/runs/42';
const BASE = 'contract-live';
const FAIL = 'contract-live: fail';
const UNJUDGED = 'contract-live: could not judge';

interface Recorded {
  method: string;
  path: string;
  authorization: string | undefined;
  raw: string;
  body: Record<string, unknown> | undefined;
}

interface FakeIssue {
  number: number;
  title: string;
  body: string;
  labels: string[];
  state: 'open' | 'closed';
  pull_request?: object;
}

/** A loopback GitHub REST API with the few endpoints contract:issue uses, keeping issues, comments and labels. */
class FakeGitHub {
  readonly requests: Recorded[] = [];
  readonly issues: FakeIssue[] = [];
  readonly comments: Array<{ issue: number; body: string }> = [];
  readonly labels = new Set<string>();
  /** Answer this status to a request matching `method path` (path without the query). */
  failures = new Map<string, number>();
  #server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.#server = createServer((request, response) => void this.#handle(request, response));
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as { port: number }).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.#server?.close(() => resolve()) ?? resolve());
  }

  open(issue: Partial<FakeIssue> & { labels: string[] }): FakeIssue {
    const created: FakeIssue = { number: this.issues.length + 1, title: 'an issue', body: '', state: 'open', ...issue };
    this.issues.push(created);
    return created;
  }

  /** The requests that change something. */
  writes(): Recorded[] {
    return this.requests.filter((r) => r.method !== 'GET');
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of request) raw += chunk;
    const url = new URL(request.url ?? '/', this.url);
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
    this.requests.push({ method: request.method ?? '', path: url.pathname, authorization: request.headers.authorization, raw, body });
    const send = (status: number, value?: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(value === undefined ? '' : JSON.stringify(value));
    };
    const failure = this.failures.get(`${request.method} ${url.pathname}`);
    if (failure) return send(failure, { message: `failing on purpose (${failure})` });
    const prefix = `/repos/${REPO}`;
    if (!url.pathname.startsWith(prefix)) return send(404, { message: 'Not Found' });
    const path = url.pathname.slice(prefix.length);
    const view = (issue: FakeIssue) => ({
      number: issue.number,
      title: issue.title,
      html_url: `https://github.com/${REPO}/issues/${issue.number}`,
      labels: issue.labels.map((name) => ({ name })),
      ...(issue.pull_request ? { pull_request: issue.pull_request } : {}),
    });
    const issueMatch = /^\/issues\/(\d+)(\/comments)?$/.exec(path);
    const issue = issueMatch ? this.issues.find((i) => i.number === Number(issueMatch[1])) : undefined;
    if (request.method === 'GET' && path === '/issues') {
      const label = url.searchParams.get('labels') ?? '';
      const state = url.searchParams.get('state');
      return send(200, this.issues.filter((i) => i.state === state && i.labels.includes(label)).map(view));
    }
    if (request.method === 'GET' && path.startsWith('/labels/')) {
      const name = decodeURIComponent(path.slice('/labels/'.length));
      return this.labels.has(name) ? send(200, { name }) : send(404, { message: 'Not Found' });
    }
    if (request.method === 'POST' && path === '/labels') {
      this.labels.add(String(body?.name));
      return send(201, { name: body?.name });
    }
    if (request.method === 'POST' && path === '/issues') {
      const created = this.open({ title: String(body?.title), body: String(body?.body), labels: (body?.labels as string[]) ?? [] });
      return send(201, view(created));
    }
    if (request.method === 'PATCH' && issue && !issueMatch?.[2]) {
      if (typeof body?.title === 'string') issue.title = body.title;
      if (Array.isArray(body?.labels)) issue.labels = body.labels as string[];
      if (body?.state === 'closed') issue.state = 'closed';
      return send(200, view(issue));
    }
    if (request.method === 'POST' && issue && issueMatch?.[2]) {
      this.comments.push({ issue: issue.number, body: String(body?.body) });
      return send(201, { id: this.comments.length });
    }
    return send(404, { message: 'Not Found' });
  }
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fake GitHub of the test's own (the tests run side by side), stopped when the test ends. */
async function fakeGitHub(): Promise<FakeGitHub> {
  const github = new FakeGitHub();
  await github.start();
  onTestFinished(() => github.stop());
  return github;
}

type Word = 'PASS' | 'FAIL' | 'COULD NOT JUDGE';

/** A report directory as a run writes it (the fields contract:issue reads), or an empty one (a preflight failure). */
function reportDir(options: { word?: Word; line?: string; summary?: string; drift?: object } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'lp-contract-issue-'));
  dirs.push(dir);
  if (options.word) {
    const exitCode = options.word === 'PASS' ? 0 : options.word === 'FAIL' ? 1 : 2;
    const line = options.line ?? `contract verdict: ${options.word}: 2 violations, 0 contradicted assumptions`;
    writeFileSync(
      join(dir, 'report.json'),
      JSON.stringify({
        version: 1,
        target: 'live',
        generatedAt: new Date().toISOString(),
        verdict: { word: options.word, exitCode, line, strict: false },
        drift: options.drift,
      }),
    );
    writeFileSync(join(dir, 'summary.md'), options.summary ?? `## Contract suite: ${options.word} (target live)\n\n\`${line}\`\n`);
  }
  return dir;
}

const drift = (violationsNew: string[], violationsGone: string[] = [], still = 1) => ({
  baseline: 'dist/contract-baseline',
  baselineVerdict: 'FAIL',
  violations: { new: violationsNew, gone: violationsGone, still },
  contradicted: { new: [], gone: [], still: 0 },
  unjudged: { new: [], gone: [], still: 0 },
});

const execute = (args: string[], env: Record<string, string>) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    // No LP_* or GITHUB_* setting of the machine running the tests reaches the script: only the ones given here.
    const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(LP_|GITHUB_)/.test(name)));
    execFile(
      process.execPath,
      ['--import', 'tsx', '--', 'scripts/contract-issue.ts', ...args],
      { cwd: repoRoot, env: { ...clean, ...env }, timeout: testWaitMs(60_000) },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });

/**
 * What `npm run contract:issue -- --report DIR --exit-code N --run-url URL [--log FILE]` does once its command line
 * is read (contract-tests/runner/live-issue.ts), in this process: a process per case would cost npm test about half a
 * CPU-second each. The command line itself, and its usage errors, are run as a process below.
 */
async function run(github: FakeGitHub, dir: string, exitCode: string, log?: string) {
  const { code, line } = await runContractIssue({
    reportDir: dir,
    exitCode,
    logFile: log,
    runUrl: RUN_URL,
    environment: 'staging',
    label: 'contract-live',
    env: { GITHUB_API_URL: github.url, GITHUB_TOKEN: TOKEN, GITHUB_REPOSITORY: REPO, ...SECRETS },
  });
  return { code, stdout: code === 0 ? `${line}\n` : '', stderr: code === 0 ? '' : `${line}\n` };
}

describe.concurrent('npm run contract:issue', { timeout: testWaitMs(60_000) }, () => {
  it('does nothing on a green run when no issue is open', async ({ expect }) => {
    const github = await fakeGitHub();
    const result = await run(github, reportDir({ word: 'PASS' }), '0');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('green, and no issue is open: nothing to do');
    expect(github.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /repos/${REPO}/issues`]);
    // The token goes in the header the API reads, and nowhere else.
    expect(github.requests[0]!.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('opens one issue on a failing run, with the FAIL title and label, the verdict, the summary and the run', async ({ expect }) => {
    const github = await fakeGitHub();
    const summary =
      '## Contract suite: FAIL (target live)\n\n### Violations (1 broken promises)\n\n- **Seed 5.2: a wrong API-Key is refused**\n';
    const result = await run(github, reportDir({ word: 'FAIL', summary }), '1');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('FAIL: opened issue #1');
    const created = github.writes().find((r) => r.path === `/repos/${REPO}/issues`)!;
    expect(created.method).toBe('POST');
    expect(created.body?.title).toBe('Live contract run against staging: FAIL (contract violations)');
    expect(created.body?.labels).toEqual([BASE, FAIL]);
    const body = String(created.body?.body);
    expect(body).toContain(`[The run](${RUN_URL}) against staging exited 1`);
    expect(body).toContain('contract verdict: FAIL: 2 violations');
    expect(body).toContain('- **Seed 5.2: a wrong API-Key is refused**');
    // Both labels exist, with a colour and a description, before the issue uses them.
    expect([...github.labels].sort()).toEqual([BASE, FAIL]);
    expect(
      github
        .writes()
        .filter((r) => r.path.endsWith('/labels'))
        .map((r) => r.body?.description),
    ).toEqual([expect.stringContaining('not green'), expect.stringContaining('violations')]);
  });

  it('comments on the open issue with what changed since the last run, instead of opening a second', async ({ expect }) => {
    const github = await fakeGitHub();
    github.open({ title: 'Live contract run against staging: FAIL (contract violations)', labels: [BASE, FAIL, 'triaged'] });
    // The labels exist since the issue was opened.
    github.labels.add(BASE).add(FAIL);
    const dir = reportDir({
      word: 'FAIL',
      drift: drift(['Seed 8: a vehicle of another lessee never appears'], ['Seed 5.2: a wrong API-Key is refused']),
    });
    const result = await run(github, dir, '1');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('FAIL: commented on issue #1');
    expect(github.issues).toHaveLength(1);
    // Same verdict, same labels: no edit of the issue, one comment.
    expect(github.writes().map((r) => `${r.method} ${r.path}`)).toEqual([`POST /repos/${REPO}/issues/1/comments`]);
    const comment = github.comments[0]!.body;
    expect(comment).toContain('### Since the last run (its verdict: FAIL)');
    expect(comment).toContain('- new: `Seed 8: a vehicle of another lessee never appears`');
    expect(comment).toContain('- no longer seen: `Seed 5.2: a wrong API-Key is refused`');
    expect(comment).toContain("<details><summary>The run's summary</summary>");
  });

  it('keeps the comment short when nothing changed since the last run', async ({ expect }) => {
    const github = await fakeGitHub();
    github.open({ title: 'Live contract run against staging: FAIL (contract violations)', labels: [BASE, FAIL] });
    await run(github, reportDir({ word: 'FAIL', drift: drift([], [], 2) }), '1');
    const comment = github.comments[0]!.body;
    expect(comment).toContain('Nothing changed since the last run (its verdict: FAIL): 2 violations');
    expect(comment).not.toContain('<details>');
  });

  it('retitles and relabels the open issue when the verdict turns from FAIL to COULD NOT JUDGE, keeping other labels', async ({
    expect,
  }) => {
    const github = await fakeGitHub();
    github.open({ title: 'Live contract run against staging: FAIL (contract violations)', labels: [BASE, FAIL, 'triaged'] });
    const result = await run(github, reportDir({ word: 'COULD NOT JUDGE' }), '2');
    expect(result.stdout).toContain('COULD NOT JUDGE: commented on issue #1 (was FAIL)');
    const patch = github.writes().find((r) => r.method === 'PATCH')!;
    expect(patch.body).toEqual({
      title: 'Live contract run against staging: COULD NOT JUDGE (no verdict on the contract)',
      labels: ['triaged', BASE, UNJUDGED],
    });
    expect(github.comments[0]!.body).toContain('The verdict was FAIL when this issue was last updated.');
    expect(github.issues[0]!.state).toBe('open');
  });

  it('says COULD NOT JUDGE with the end of the output, redacted, when the preflight stopped the run before any report', async ({
    expect,
  }) => {
    const github = await fakeGitHub();
    const logDir = mkdtempSync(join(tmpdir(), 'lp-contract-issue-log-'));
    dirs.push(logDir);
    const log = join(logDir, 'output.log');
    writeFileSync(
      log,
      [
        ...Array.from({ length: 60 }, (_, i) => `early line ${i}`),
        '\u001b[31mcontract: preflight: fleet: the target refused LP_FLEET_API_KEY (401); check LP_FLEET_API_KEY\u001b[39m',
        `contract: preflight: echoed ${SECRETS.LP_FLEET_API_KEY} and api-key=${encodeURIComponent(SECRETS.LP_FLEET_API_KEY)}`,
        'contract verdict: COULD NOT JUDGE: the target refused the configured credentials or could not be reached (above); no check ran',
        '',
      ].join('\n'),
    );
    const result = await run(github, reportDir(), '2', log);
    expect(result.code).toBe(0);
    const created = github.writes().find((r) => r.path === `/repos/${REPO}/issues`)!;
    expect(created.body?.title).toBe('Live contract run against staging: COULD NOT JUDGE (no verdict on the contract)');
    expect(created.body?.labels).toEqual([BASE, UNJUDGED]);
    const body = String(created.body?.body);
    expect(body).toContain('It wrote no report: it ended before any check ran.');
    expect(body).toContain('contract: preflight: fleet: the target refused LP_FLEET_API_KEY (401)');
    expect(body).not.toContain('\u001b');
    expect(body).not.toContain('early line 10');
    expect(body).toContain('early line 59');
    expect(body).toContain('echoed [REDACTED] and api-key=[REDACTED]');
  });

  it('says COULD NOT JUDGE when the workflow gave no exit code (the job ended before the suite)', async ({ expect }) => {
    const github = await fakeGitHub();
    await run(github, reportDir(), '');
    const created = github.writes().find((r) => r.path === `/repos/${REPO}/issues`)!;
    expect(created.body?.labels).toEqual([BASE, UNJUDGED]);
    expect(String(created.body?.body)).toContain('gave no exit code. The workflow ended before the suite gave a verdict');
  });

  it('comments and closes the open issue when the run is green again', async ({ expect }) => {
    const github = await fakeGitHub();
    github.open({ title: 'Live contract run against staging: FAIL (contract violations)', labels: [BASE, FAIL] });
    const result = await run(github, reportDir({ word: 'PASS', line: 'contract verdict: PASS: 0 violations' }), '0');
    expect(result.stdout).toContain('green: closed issue #1');
    expect(github.writes().map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /repos/${REPO}/issues/1/comments`,
      `PATCH /repos/${REPO}/issues/1`,
    ]);
    expect(github.comments[0]!.body).toContain('is green again');
    expect(github.comments[0]!.body).toContain('contract verdict: PASS: 0 violations');
    expect(github.writes()[1]!.body).toEqual({ state: 'closed', state_reason: 'completed' });
    expect(github.issues[0]!.state).toBe('closed');
  });

  it('never sends a configured secret or the token, in any spelling, even when the reports hold them', async ({ expect }) => {
    const github = await fakeGitHub();
    const leaks = Object.values(SECRETS).flatMap((value) => [value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)]);
    const summary = [
      '## Contract suite: FAIL (target live)',
      `- answered: ${SECRETS.LP_CLIENT_SECRET}`,
      `- url: https://staging.example/vehicles?key=${encodeURIComponent(SECRETS.LP_FLEET_API_KEY)}`,
      `- base64: ${Buffer.from(`client:${SECRETS.LP_CLIENT_SECRET}`).toString('base64')}`,
      `- token: ${TOKEN}`,
    ].join('\n');
    const line = `contract verdict: FAIL: key ${SECRETS.LP_SUBSCRIPTION_KEY}`;
    const dir = reportDir({ word: 'FAIL', line, summary, drift: drift([`promise with ${SECRETS.LP_FLEET_API_KEY}`]) });
    // Once to create the issue (and its two labels), once to comment on it, once to comment and close it.
    await run(github, dir, '1');
    await run(github, dir, '1');
    await run(github, reportDir({ word: 'PASS', line: `contract verdict: PASS ${SECRETS.LP_FLEET_API_KEY}` }), '0');
    expect(github.writes().map((r) => r.method)).toEqual(['POST', 'POST', 'POST', 'POST', 'POST', 'PATCH']);
    const sent = github.writes().map((r) => r.raw);
    for (const raw of sent) {
      for (const leak of [...leaks, TOKEN]) expect(raw).not.toContain(leak);
      expect(raw).not.toContain(Buffer.from(`client:${SECRETS.LP_CLIENT_SECRET}`).toString('base64'));
    }
    expect(sent.join('\n')).toContain('[REDACTED]');
  });

  it('exits 1 naming the refused request when the GitHub API fails, without printing the token', async ({ expect }) => {
    const github = await fakeGitHub();
    github.failures.set(`POST /repos/${REPO}/issues`, 500);
    const result = await run(github, reportDir({ word: 'FAIL' }), '1');
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe('contract:issue: the GitHub API refused: POST /issues answered 500: failing on purpose (500)');
    expect(`${result.stdout}${result.stderr}`).not.toContain(TOKEN);
  });

  it('refuses to run without a token or an exit code, in one line (exit 2)', async ({ expect }) => {
    const github = await fakeGitHub();
    const noToken = await execute(['--exit-code', '1'], { GITHUB_REPOSITORY: REPO, GITHUB_API_URL: github.url });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toMatch(/^npm run contract:issue --: GITHUB_TOKEN is not set/);
    const noCode = await execute([], { GITHUB_TOKEN: TOKEN, GITHUB_REPOSITORY: REPO, GITHUB_API_URL: github.url });
    expect(noCode.code).toBe(2);
    expect(noCode.stderr).toMatch(/^npm run contract:issue --: --exit-code is required/);
    expect(github.requests).toEqual([]);
  });

  it('the command line, as the workflow runs it: a failing run opens the issue (exit 0)', async ({ expect }) => {
    const github = await fakeGitHub();
    const result = await execute(['--report', reportDir({ word: 'FAIL' }), '--exit-code', '1', '--run-url', RUN_URL], {
      GITHUB_API_URL: github.url,
      GITHUB_TOKEN: TOKEN,
      GITHUB_REPOSITORY: REPO,
      ...SECRETS,
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('FAIL: opened issue #1');
    expect(github.writes().map((r) => `${r.method} ${r.path}`)).toContain(`POST /repos/${REPO}/issues`);
  });

  it('ignores pull requests that carry the label', async ({ expect }) => {
    const github = await fakeGitHub();
    github.open({ title: 'a pull request', labels: [BASE], pull_request: {} });
    const result = await run(github, reportDir({ word: 'PASS' }), '0');
    expect(result.stdout).toContain('nothing to do');
    expect(github.writes()).toEqual([]);
  });
});
