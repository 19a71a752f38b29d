// Where GitHub users look (GITHUB_ACTIONS=true): an `::error` annotation per violation, a `::warning` per contradicted
// assumption pointing at the spec line to change (`file=` and `line=`), and a job summary ($GITHUB_STEP_SUMMARY): the
// run's summary.md (report/views/summary.ts). Everything passes through the run's redactor before it is
// printed or written.
import { appendFileSync } from 'node:fs';
import { type RunReport, ungroupedViolations } from '../report-model.ts';
import { summaryMarkdown } from './summary.ts';

/** A workflow command's message: GitHub ends it at a newline and reads % as an escape. */
const escapeData = (text: string) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
/** A workflow command's property value: commas and colons end it as well. */
const escapeProperty = (text: string) => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

export interface GithubReport {
  /** The lines to print on stdout: one workflow command each. */
  annotations: string[];
  /** The job summary, Markdown. */
  summary: string;
}

export function githubReport(report: RunReport): GithubReport {
  const annotations: string[] = [];
  for (const group of report.violations) {
    const example = group.examples[0];
    const request = example ? ` Request: ${example.request.method} ${example.request.url} answered ${example.answer.status}.` : '';
    annotations.push(
      `::error title=${escapeProperty(`Contract violation${group.count > 1 ? ` (${group.count} times)` : ''}`)}::${escapeData(`${group.promise}. ${group.sentence}${request}`)}`,
    );
  }
  // A failed check with no recorded violation (a broken hook, a file that failed outside its checks) still shows.
  for (const check of ungroupedViolations(report))
    annotations.push(
      `::error title=${escapeProperty('Contract violation')}::${escapeData(`${check.name}${check.message ? `: ${check.message}` : ''}`)}`,
    );
  for (const row of report.contradicted) {
    const where = row.spec ? `file=${escapeProperty(row.spec.file)}${row.line ? `,line=${row.line}` : ''},` : '';
    const observed = row.observed[0];
    const server = observed ? ` This server: ${observed.request} answered ${observed.status} ${observed.contentType}.` : '';
    annotations.push(
      `::warning ${where}title=${escapeProperty(`Contradicted assumption (seed ${row.seed})`)}::${escapeData(`The spec guessed: ${row.what}${server} If the server is right, change the spec here.`)}`,
    );
  }
  return { annotations, summary: summaryMarkdown(report) };
}

/** Prints the annotations and appends the summary, when running in GitHub Actions. */
export function reportToGithub(report: GithubReport, redact: (text: string) => string, env: NodeJS.ProcessEnv = process.env): void {
  if (env.GITHUB_ACTIONS !== 'true') return;
  for (const line of report.annotations) console.log(redact(line));
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, `${redact(report.summary)}\n`);
}
