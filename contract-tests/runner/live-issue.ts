// The GitHub issue of a live contract run (npm run contract:issue, .github/workflows/contract-live.yml): one issue,
// found by its label, while the run is not green; what it says comes from the run's report.json and summary.md (or the
// end of its output when it wrote none), every request body redacted of the configured secrets and the token. The
// command line is scripts/contract-issue.ts; this is what it runs, and what test/tools/contract-issue.test.ts calls.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { type Redactor, redactorFromEnvironment } from '../send/redact.ts';
import { readJsonFile } from '../report/run-files.ts';
import type { DriftList, RunReport } from '../report/report-model.ts';

/** Lines of the run's output shown when it wrote no report. */
const TAIL_LINES = 40;
/** GitHub refuses an issue or comment body over 65,536 characters; the summary is cut to leave room for the rest. */
const MAX_SUMMARY_CHARS = 55_000;
/** Drift keys listed per kind and direction; the summary has them all. */
const MAX_DRIFT_KEYS = 25;

type Kind = 'pass' | 'fail' | 'unjudged';

interface Outcome {
  kind: Kind;
  /** The exit code as given ('' when the run gave none). */
  exitCode: string;
  report?: RunReport;
  summary?: string;
  /** The end of the run's output, when it wrote no report. */
  tail?: string;
}

interface Labels {
  base: string;
  fail: string;
  unjudged: string;
}

interface Issue {
  number: number;
  title: string;
  html_url: string;
  labels: Array<string | { name?: string }>;
  pull_request?: unknown;
}

const WORD: Record<Kind, string> = { pass: 'PASS', fail: 'FAIL', unjudged: 'COULD NOT JUDGE' };

const titleOf = (kind: Exclude<Kind, 'pass'>, environment: string) =>
  kind === 'fail'
    ? `Live contract run against ${environment}: FAIL (contract violations)`
    : `Live contract run against ${environment}: COULD NOT JUDGE (no verdict on the contract)`;

/** An inline code span that holds any text (a fence longer than its longest run of backticks). */
function code(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, ' ');
  const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${flat.startsWith('`') || flat.endsWith('`') ? ` ${flat} ` : flat}${fence}`;
}

/** A fenced block that holds any text. */
function block(text: string, info = 'text'): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${info}\n${text}\n${fence}`;
}

function cut(text: string, max: number, note: string): string {
  if (text.length <= max) return text;
  const at = text.lastIndexOf('\n', max);
  return `${text.slice(0, at > 0 ? at : max)}\n\n${note}`;
}

function readOutcome(reportDir: string, exitCode: string, logFile: string | undefined): Outcome {
  const kind: Kind = exitCode === '0' ? 'pass' : exitCode === '1' ? 'fail' : 'unjudged';
  const report = readJsonFile<RunReport>(join(reportDir, 'report.json'));
  const summaryFile = join(reportDir, 'summary.md');
  const summary = existsSync(summaryFile) ? readFileSync(summaryFile, 'utf8') : undefined;
  let tail: string | undefined;
  if (!report && logFile && existsSync(logFile)) {
    // Colours, if a tool printed any.
    const lines = stripVTControlCharacters(readFileSync(logFile, 'utf8')).split('\n');
    while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
    tail = lines.slice(-TAIL_LINES).join('\n');
  }
  return { kind, exitCode, report, summary, tail };
}

function exitCodeText(outcome: Outcome): string {
  return outcome.exitCode === '' ? 'gave no exit code' : `exited ${outcome.exitCode}`;
}

/** What the run found, in a paragraph: its verdict line, or why there is none. */
function verdictParagraph(outcome: Outcome, runUrl: string | undefined, environment: string): string {
  const run = runUrl ? `[The run](${runUrl})` : 'The run';
  const { report } = outcome;
  if (report) {
    const lines = [report.verdict.line, ...(report.workflows ? [report.workflows.line] : [])].map(code).join('\n\n');
    return `**${WORD[outcome.kind]}**: ${run} against ${environment} ${exitCodeText(outcome)}.\n\n${lines}`;
  }
  const why =
    outcome.exitCode === ''
      ? 'The workflow ended before the suite gave a verdict (a failed install or checkout, or a timeout).'
      : 'It wrote no report: it ended before any check ran. Either the preflight found the configured credentials refused or the target unreachable (its lines below name the `LP_*` variable to check), or the suite could not start.';
  const tail = outcome.tail?.trim()
    ? `The end of its output:\n\n${block(outcome.tail)}`
    : 'Its output is not shown here (withheld when it may hold a secret, or there was none): see the log of the run.';
  return `**${WORD[outcome.kind]}**: ${run} against ${environment} ${exitCodeText(outcome)}. ${why}\n\n${tail}`;
}

function driftLines(title: string, list: DriftList): string[] {
  if (list.new.length === 0 && list.gone.length === 0) return [];
  const keys = (prefix: string, all: string[]) => [
    ...all.slice(0, MAX_DRIFT_KEYS).map((key) => `- ${prefix} ${code(key)}`),
    ...(all.length > MAX_DRIFT_KEYS ? [`- … and ${all.length - MAX_DRIFT_KEYS} more (the run's summary lists them all)`] : []),
  ];
  return [
    `**${title}**: ${list.new.length} new, ${list.gone.length} no longer seen, ${list.still} still seen`,
    '',
    ...keys('new:', list.new),
    ...keys('no longer seen:', list.gone),
    '',
  ];
}

/** What changed since the run before, or undefined when there was no earlier report to compare with. */
function driftSection(report: RunReport | undefined): { text: string; changed: boolean } | undefined {
  const drift = report?.drift;
  if (!drift) return undefined;
  const lines = [
    ...driftLines('Violations', drift.violations),
    ...driftLines('Contradicted assumptions', drift.contradicted),
    ...driftLines('Could not judge', drift.unjudged),
  ];
  const before = drift.baselineVerdict ? ` (its verdict: ${drift.baselineVerdict})` : '';
  if (lines.length === 0)
    return {
      text: `Nothing changed since the last run${before}: ${drift.violations.still} violations, ${drift.contradicted.still} contradicted assumptions and ${drift.unjudged.still} checks that could not be judged, as before.`,
      changed: drift.baselineVerdict !== undefined && drift.baselineVerdict !== report.verdict.word,
    };
  return { text: [`### Since the last run${before}`, '', ...lines].join('\n').trimEnd(), changed: true };
}

function summaryDetails(outcome: Outcome, runUrl: string | undefined): string[] {
  if (!outcome.summary?.trim()) return [];
  return [
    "<details><summary>The run's summary</summary>",
    '',
    cut(outcome.summary.trim(), MAX_SUMMARY_CHARS, cutNote(runUrl)),
    '',
    '</details>',
  ];
}

const FOOTER = (label: string) =>
  `<sub>Kept by .github/workflows/contract-live.yml (npm run contract:issue): one issue labelled ${code(label)} while the live contract run is not green, a comment per run, closed by the first green run.</sub>`;

const cutNote = (runUrl: string | undefined) =>
  `*Cut here: the whole summary is in the job summary${runUrl ? ` of [the run](${runUrl})` : ''} and in its contract-live-reports artifact.*`;

function issueBody(outcome: Outcome, runUrl: string | undefined, environment: string, label: string): string {
  // summary.md has its own "Since the last run" section; without one, the drift comes from report.json.
  const summary = outcome.summary?.trim();
  const drift = summary ? undefined : driftSection(outcome.report);
  return [
    verdictParagraph(outcome, runUrl, environment),
    '',
    ...(drift ? [drift.text, ''] : []),
    ...(summary ? ['---', '', cut(summary, MAX_SUMMARY_CHARS, cutNote(runUrl)), ''] : []),
    FOOTER(label),
  ].join('\n');
}

function commentBody(outcome: Outcome, runUrl: string | undefined, environment: string, was: Kind | undefined): string {
  const drift = driftSection(outcome.report);
  const switched = was !== undefined && was !== outcome.kind ? `The verdict was ${WORD[was]} when this issue was last updated.` : undefined;
  // Nothing new: one paragraph, no copy of a summary the issue has seen already.
  const quiet = drift && !drift.changed && !switched;
  return [
    verdictParagraph(outcome, runUrl, environment),
    '',
    ...(switched ? [switched, ''] : []),
    ...(drift
      ? [drift.text, '']
      : outcome.report
        ? ['No earlier report to compare with (the first run, or the last reports are no longer kept).', '']
        : []),
    ...(quiet ? [] : summaryDetails(outcome, runUrl)),
  ]
    .join('\n')
    .trimEnd();
}

function greenBody(outcome: Outcome, runUrl: string | undefined, environment: string): string {
  const run = runUrl ? `[The run](${runUrl})` : 'The run';
  const line = outcome.report ? `\n\n${code(outcome.report.verdict.line)}` : '';
  const drift = driftSection(outcome.report);
  return `**PASS**: ${run} against ${environment} is green again. Closing this issue.${line}${drift ? `\n\n${drift.text}` : ''}`;
}

class GitHubError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The few REST calls the issue needs. Every body is redacted before it is sent. */
class GitHub {
  readonly #api: string;
  readonly #repo: string;
  readonly #token: string;
  readonly #redactor: Redactor;

  constructor(api: string, repo: string, token: string, redactor: Redactor) {
    this.#api = api.replace(/\/+$/, '');
    this.#repo = repo;
    this.#token = token;
    this.#redactor = redactor;
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const url = `${this.#api}/repos/${this.#repo}${path}`;
    const response = await fetch(url, {
      method,
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${this.#token}`,
        'x-github-api-version': '2022-11-28',
        'user-agent': 'logistics-partner-contract-issue',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(this.#redactor.redactValue(body)) }),
      signal: AbortSignal.timeout(30_000),
    }).catch((error: unknown) => {
      throw new GitHubError(`${method} ${path}: ${(error as Error).message}`);
    });
    const text = await response.text();
    if (!response.ok) {
      const message = readMessage(text);
      throw new GitHubError(`${method} ${path} answered ${response.status}${message ? `: ${message}` : ''}`, response.status);
    }
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** The open issue with the label (the oldest, if someone opened a second), pull requests aside. */
  async openIssue(label: string): Promise<Issue | undefined> {
    const issues = await this.request<Issue[]>(
      'GET',
      `/issues?state=open&labels=${encodeURIComponent(label)}&sort=created&direction=asc&per_page=100`,
    );
    return issues.find((issue) => issue.pull_request === undefined);
  }

  /** Creates the label unless it exists (an issue created with an unknown label would get it without a colour or a description). */
  async ensureLabel(name: string, color: string, description: string): Promise<void> {
    try {
      await this.request('GET', `/labels/${encodeURIComponent(name)}`);
    } catch (error) {
      if (!(error instanceof GitHubError) || error.status !== 404) throw error;
      await this.request('POST', '/labels', { name, color, description });
    }
  }
}

function readMessage(text: string): string {
  try {
    const json = JSON.parse(text) as { message?: unknown };
    if (typeof json.message === 'string') return json.message;
  } catch {}
  return text.slice(0, 200);
}

const labelNames = (issue: Issue) => issue.labels.map((l) => (typeof l === 'string' ? l : (l.name ?? ''))).filter(Boolean);

/** The verdict the issue was last updated with, by its label (none when someone labelled an issue by hand). */
function kindOfIssue(issue: Issue, labels: Labels): Kind | undefined {
  const names = labelNames(issue);
  return names.includes(labels.unjudged) ? 'unjudged' : names.includes(labels.fail) ? 'fail' : undefined;
}

async function keepIssue(
  github: GitHub,
  outcome: Outcome,
  options: { runUrl?: string; environment: string; labels: Labels },
): Promise<string> {
  const { labels, environment, runUrl } = options;
  const open = await github.openIssue(labels.base);
  if (outcome.kind === 'pass') {
    if (!open) return 'green, and no issue is open: nothing to do';
    await github.request('POST', `/issues/${open.number}/comments`, { body: greenBody(outcome, runUrl, environment) });
    await github.request('PATCH', `/issues/${open.number}`, { state: 'closed', state_reason: 'completed' });
    return `green: closed issue #${open.number}`;
  }
  const kind = outcome.kind;
  const label = kind === 'fail' ? labels.fail : labels.unjudged;
  await github.ensureLabel(labels.base, '5319e7', 'The live contract run (contract-live.yml) is not green');
  await github.ensureLabel(
    label,
    kind === 'fail' ? 'b60205' : 'fbca04',
    kind === 'fail'
      ? 'The live contract run found contract violations (exit 1)'
      : 'The live contract run could not judge the contract (exit 2)',
  );
  if (!open) {
    const created = await github.request<Issue>('POST', '/issues', {
      title: titleOf(kind, environment),
      body: issueBody(outcome, runUrl, environment, labels.base),
      labels: [labels.base, label],
    });
    return `${WORD[kind]}: opened issue #${created.number}`;
  }
  const was = kindOfIssue(open, labels);
  const title = titleOf(kind, environment);
  const current = labelNames(open);
  const wanted = [
    ...current.filter((name) => name !== labels.fail && name !== labels.unjudged && name !== labels.base),
    labels.base,
    label,
  ];
  if (open.title !== title || wanted.some((name) => !current.includes(name)) || current.length !== wanted.length)
    await github.request('PATCH', `/issues/${open.number}`, { title, labels: wanted });
  await github.request('POST', `/issues/${open.number}/comments`, { body: commentBody(outcome, runUrl, environment, was) });
  return `${WORD[kind]}: commented on issue #${open.number}${was !== undefined && was !== kind ? ` (was ${WORD[was]})` : ''}`;
}

export interface ContractIssueRun {
  /** The run's report directory (report.json, summary.md). */
  reportDir: string;
  /** The exit code of npm run contract:live as given ('' when it gave none). */
  exitCode: string;
  logFile?: string | undefined;
  runUrl?: string | undefined;
  environment: string;
  label: string;
  /** GITHUB_TOKEN, GITHUB_REPOSITORY, GITHUB_API_URL, and the LP_* secrets to redact. */
  env: NodeJS.ProcessEnv;
}

/** Opens, comments on or closes the issue; the line to print and the exit code (0 done, 1 the GitHub API refused). */
export async function runContractIssue(run: ContractIssueRun): Promise<{ code: number; line: string }> {
  const token = run.env.GITHUB_TOKEN?.trim() ?? '';
  const repository = run.env.GITHUB_REPOSITORY?.trim() ?? '';
  const redactor = redactorFromEnvironment(Object.fromEntries(Object.entries(run.env).map(([k, v]) => [k, v?.trim()])));
  redactor.add(token);
  const base = run.label;
  const outcome = readOutcome(run.reportDir, run.exitCode, run.logFile);
  const github = new GitHub(run.env.GITHUB_API_URL?.trim() || 'https://api.github.com', repository, token, redactor);
  try {
    const done = await keepIssue(github, outcome, {
      runUrl: run.runUrl || undefined,
      environment: run.environment,
      labels: { base, fail: `${base}: fail`, unjudged: `${base}: could not judge` },
    });
    return { code: 0, line: `contract:issue: ${done}` };
  } catch (error) {
    const what = error instanceof GitHubError ? 'the GitHub API refused' : 'failed';
    return { code: 1, line: redactor.redact(`contract:issue: ${what}: ${(error as Error).message}`) };
  }
}
