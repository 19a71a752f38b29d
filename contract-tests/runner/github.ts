// Where GitHub users look (GITHUB_ACTIONS=true): an `::error` annotation per violation, a `::warning` per contradicted
// assumption pointing at the spec line to change (`file=` and `line=`), and a job summary ($GITHUB_STEP_SUMMARY) with
// the verdict line, the violations, the checks that could not be judged, the contradicted assumptions and the coverage.
// Everything passes through the run's redactor before it is printed or written.
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, isSeq, LineCounter, parseDocument } from 'yaml';
import { repoRoot } from '../../spec-core/apis.ts';
import type { AssumptionReportRow, ViolationGroup } from '../support/reports.ts';
import type { FailedCheck } from './outcomes.ts';

/** The 1-based line of a JSON pointer inside a YAML file, or undefined when the pointer or the file is not there. */
export function lineOf(file: string, pointer: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(join(repoRoot, file), 'utf8');
  } catch {
    return undefined;
  }
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, keepSourceTokens: true });
  let node: unknown = document.contents;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (isMap(node)) node = node.get(key, true);
    else if (isSeq(node)) node = node.get(Number(key), true);
    else return undefined;
    if (node === undefined) return undefined;
  }
  const range = (node as { range?: [number, number, number] } | null)?.range;
  return range ? lineCounter.linePos(range[0]).line : undefined;
}

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

export function githubReport(input: {
  verdictLine: string;
  failedChecks: FailedCheck[];
  contradicted: AssumptionReportRow[];
  coverage: { exercised: number; total: number };
  transport: string;
  /** The violations grouped by promise, with their evidence (violations.json): the summary shows a reproduction each. */
  violationGroups?: ViolationGroup[];
}): GithubReport {
  const violations = input.failedChecks.filter((c) => c.outcome === 'violation');
  const unjudged = input.failedChecks.filter((c) => c.outcome === 'unjudged');
  // Each spec file is parsed once per row, for the annotation and the summary alike.
  const lines = new Map(input.contradicted.map((row) => [row, row.spec ? lineOf(row.spec.file, row.spec.pointer) : undefined]));
  const annotations: string[] = [];
  for (const check of violations)
    annotations.push(
      `::error title=${escapeProperty('Contract violation')}::${escapeData(`${check.name}${check.message ? `: ${check.message}` : ''}`)}`,
    );
  for (const row of input.contradicted) {
    const line = lines.get(row);
    const where = row.spec ? `file=${escapeProperty(row.spec.file)}${line ? `,line=${line}` : ''},` : '';
    const observed = row.observed[0];
    const server = observed ? ` This server: ${observed.request} answered ${observed.status} ${observed.contentType}.` : '';
    annotations.push(
      `::warning ${where}title=${escapeProperty(`Contradicted assumption (seed ${row.seed})`)}::${escapeData(`The spec guessed: ${row.what}${server} If the server is right, change the spec here.`)}`,
    );
  }
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const summary = [
    '## Contract suite',
    '',
    `\`${input.verdictLine}\``,
    '',
    ...(input.transport ? [`${input.transport.replace(/^contract: /, '')}`, ''] : []),
    `### Violations (${violations.length})`,
    '',
    ...(violations.length ? violations.map((c) => `- **${cell(c.name)}**${c.message ? `: ${cell(c.message)}` : ''}`) : ['None.']),
    '',
    ...(input.violationGroups ?? []).flatMap((group) => {
      const example = group.examples[0];
      if (!example) return [];
      return [
        `<details><summary>${cell(group.promise)}: ${example.request.method} ${cell(example.request.url)} answered ${example.answer.status} ${cell(example.answer.contentType)}</summary>`,
        '',
        '```sh',
        example.curl,
        '```',
        '',
        '</details>',
        '',
      ];
    }),
    `### Could not judge (${unjudged.length})`,
    '',
    ...(unjudged.length ? unjudged.map((c) => `- **${cell(c.name)}**: ${cell(c.reason ?? '')}`) : ['None.']),
    '',
    `### Contradicted assumptions (${input.contradicted.length})`,
    '',
    ...(input.contradicted.length
      ? [
          '| Seed § | The spec guessed | This server | To change |',
          '|---|---|---|---|',
          ...input.contradicted.map((row) => {
            const observed = row.observed[0];
            const line = lines.get(row);
            return `| ${row.seed} | ${cell(row.what)} | ${observed ? cell(`${observed.request} answered ${observed.status} ${observed.contentType}`) : ''} | ${row.spec ? `\`${row.spec.file}${line ? `:${line}` : ''}\` (${row.spec.pointer})` : ''} |`;
          }),
        ]
      : ['None.']),
    '',
    '### Coverage',
    '',
    `${input.coverage.exercised} of ${input.coverage.total} operation × status × scheme combinations exercised (coverage.md has the table, the negative-space dimensions and the OAuth clauses).`,
    '',
  ].join('\n');
  return { annotations, summary };
}

/** Prints the annotations and appends the summary, when running in GitHub Actions. */
export function reportToGithub(report: GithubReport, redact: (text: string) => string, env: NodeJS.ProcessEnv = process.env): void {
  if (env.GITHUB_ACTIONS !== 'true') return;
  for (const line of report.annotations) console.log(redact(line));
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, `${redact(report.summary)}\n`);
}
