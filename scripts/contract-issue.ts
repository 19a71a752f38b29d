// `npm run contract:issue -- --report DIR --exit-code N --run-url URL [--log FILE]`: keeps one GitHub issue about a
// live contract run (.github/workflows/contract-live.yml) while the run is not green. The issue carries a fixed label
// (`contract-live`) by which the next run finds it, and a second label and its title say which of the two it is: FAIL
// (exit 1: contract violations, or a failed gate) or COULD NOT JUDGE (exit 2, or no exit code at all). A run that is
// not green opens the issue when none is open, or comments on the open one with what changed since the run before
// (report.json's drift) and the run's summary (summary.md), retitling and relabelling it when the verdict changed
// between the two. A green run comments and closes it; a green run with no open issue does nothing.
//
// What is posted comes only from report.json, summary.md and fixed text, plus, when the run wrote no report (a
// preflight that found the credentials refused or the target unreachable), the end of the run's output. Every request
// body goes through a redactor of the configured secrets (config/environment.ts's SECRET_VARIABLES, and the GitHub
// token) before it leaves: the reports are redacted by the suite already, this is the last line of defence.
// Talks to the GitHub REST API with fetch: GITHUB_TOKEN (issues: write), GITHUB_REPOSITORY (owner/name) and
// GITHUB_API_URL (default https://api.github.com) from the environment.
import { resolve } from 'node:path';
import { parseCommandLine, usageError } from '../config/cli.ts';
import { loadDotenv } from '../config/environment.ts';
import { runContractIssue } from '../contract-tests/runner/live-issue.ts';

const CLI = {
  command: 'npm run contract:issue --',
  summary:
    'Opens, updates or closes the GitHub issue of a live contract run from its reports: one issue (by its label) while the run is not green, a comment per run with what changed, closed when the run is green again.',
  options: {
    report: {
      type: 'string',
      value: 'DIR',
      default: 'dist/contract',
      description: 'The report directory of the run (report.json, summary.md).',
    },
    'exit-code': {
      type: 'string',
      value: 'N',
      description: 'The exit code of npm run contract:live: 0 pass, 1 fail, 2 could not judge; empty when the run gave none.',
    },
    'run-url': { type: 'string', value: 'URL', description: 'The link to the workflow run, shown in the issue.' },
    log: {
      type: 'string',
      value: 'FILE',
      description: 'The output of the run; its end is shown (redacted) when the run wrote no report.json.',
    },
    label: { type: 'string', value: 'NAME', default: 'contract-live', description: 'The label that marks the issue.' },
    environment: { type: 'string', value: 'NAME', default: 'staging', description: 'The environment the run was against, for the title.' },
  },
  notes: [
    'Environment: GITHUB_TOKEN (a token with issues: write), GITHUB_REPOSITORY (owner/name),',
    'GITHUB_API_URL (default https://api.github.com). The values of LP_CLIENT_SECRET, LP_SUBSCRIPTION_KEY,',
    'LP_FLEET_API_KEY (and GITHUB_TOKEN) are redacted from everything posted.',
    'Exit codes: 0 done (whatever the verdict); 1 the GitHub API refused a request; 2 a usage error.',
  ],
} as const;

async function main(): Promise<number> {
  const { values } = parseCommandLine(CLI);
  const exitCode = values['exit-code']?.trim();
  if (exitCode === undefined) usageError(CLI, '--exit-code is required (the exit code of npm run contract:live; empty when it gave none)');
  if (exitCode !== '' && !/^\d+$/.test(exitCode)) usageError(CLI, `--exit-code must be a number or empty, got "${exitCode}"`);
  // Locally the secrets may be in .env: read it so that they are redacted too.
  loadDotenv();
  const token = process.env.GITHUB_TOKEN?.trim();
  const repository = process.env.GITHUB_REPOSITORY?.trim();
  if (!token)
    usageError(CLI, 'GITHUB_TOKEN is not set (a token that may write issues: in a workflow, the github.token of a job with issues: write)');
  if (!repository || !/^[\w.-]+\/[\w.-]+$/.test(repository))
    usageError(CLI, `GITHUB_REPOSITORY must be owner/name, got "${repository ?? ''}"`);
  const { code, line } = await runContractIssue({
    reportDir: resolve(values.report ?? 'dist/contract'),
    exitCode,
    logFile: values.log,
    runUrl: values['run-url'],
    environment: values.environment ?? 'staging',
    label: values.label ?? 'contract-live',
    env: process.env,
  });
  if (code === 0) console.log(line);
  else console.error(line);
  return code;
}

process.exitCode = await main();
