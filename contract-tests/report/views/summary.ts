// The run as Markdown: summary.md in the report directory, and the GitHub job summary. The verdict line first, then
// each outcome in its own section with its count (violations with a reproduction each, could not judge, contradicted
// assumptions with the spec line to change), the checks that passed only after retries, what changed since the
// baseline run, the coverage, and the documented flows as workflows (a live run).
import { workflowsMarkdown } from '../../workflows/report-text.ts';
import { contradictedKey, type DriftList, type RunReport, ungroupedViolations } from '../report-model.ts';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const tag = (list: DriftList | undefined, key: string) => (list?.new.includes(key) ? ' **(new since the last run)**' : '');

function driftSection(report: RunReport): string[] {
  const drift = report.drift;
  if (!drift) return [];
  const list = (title: string, l: DriftList) => [
    `**${title}**: ${l.new.length} new, ${l.gone.length} no longer seen, ${l.still} still seen`,
    '',
    ...l.new.map((key) => `- new: ${cell(key)}`),
    ...l.gone.map((key) => `- no longer seen: ${cell(key)}`),
    ...(l.new.length || l.gone.length ? [''] : []),
  ];
  return [
    '### Since the last run',
    '',
    `Compared with \`${drift.baseline}\`${drift.baselineVerdict ? ` (its verdict: ${drift.baselineVerdict})` : ''}.`,
    '',
    ...list('Violations', drift.violations),
    ...list('Contradicted assumptions', drift.contradicted),
    ...list('Could not judge', drift.unjudged),
  ];
}

export function summaryMarkdown(report: RunReport): string {
  const ungrouped = ungroupedViolations(report);
  return [
    `## Contract suite: ${report.verdict.word} (target ${report.target})`,
    '',
    `\`${report.verdict.line}\``,
    '',
    ...(report.transport ? [report.transport.replace(/^contract: /, ''), ''] : []),
    ...driftSection(report),
    `### Violations (${report.violations.length} broken promises)`,
    '',
    ...(report.violations.length || ungrouped.length ? [] : ['None.', '']),
    ...report.violations.flatMap((group) => {
      const example = group.examples[0];
      return [
        `- **${cell(group.promise)}**${tag(report.drift?.violations, group.promise)}${group.count > 1 ? ` (${group.count} times, in ${group.checks.length} checks)` : ''}  `,
        `  ${cell(group.sentence)}`,
        ...(example
          ? [
              '',
              `  <details><summary>${cell(`${example.request.method} ${example.request.url}`)} answered ${example.answer.status} ${cell(example.answer.contentType)}: reproduce</summary>`,
              '',
              '  ```sh',
              example.curl.replace(/^/gm, '  '),
              '  ```',
              '',
              `  Answer body: \`${cell(example.answer.body || '(empty)').replace(/`/g, "'")}\``,
              '',
              '  </details>',
            ]
          : []),
        '',
      ];
    }),
    ...ungrouped.map((c) => `- **${cell(c.name)}**${c.message ? `: ${cell(c.message)}` : ''}`),
    ...(ungrouped.length ? [''] : []),
    `### Could not judge (${report.unjudged.length})`,
    '',
    ...(report.unjudged.length
      ? report.unjudged.map((c) => `- **${cell(c.name)}**${tag(report.drift?.unjudged, c.name)}: ${cell(c.reason ?? '')}`)
      : ['None.']),
    '',
    `### Contradicted assumptions (${report.contradicted.length})`,
    '',
    ...(report.contradicted.length
      ? [
          'Not violations: the server decided a point the published documentation leaves open otherwise than the spec guessed.',
          '',
          '| Seed § | The spec guessed | This server | To change |',
          '|---|---|---|---|',
          ...report.contradicted.map((row) => {
            const observed = row.observed[0];
            return `| ${row.seed} | ${cell(row.what)}${tag(report.drift?.contradicted, contradictedKey(row))} | ${observed ? cell(`${observed.request} answered ${observed.status} ${observed.contentType}`) : ''} | ${row.spec ? `\`${row.spec.file}${row.line ? `:${row.line}` : ''}\` (${row.spec.pointer})` : ''} |`;
          }),
        ]
      : ['None.']),
    '',
    ...(report.passedAfterRetries.length
      ? [
          `### Passed only after retries (${report.passedAfterRetries.length})`,
          '',
          'These checks passed, but some of their requests were throttled or failed in transit first and were sent again.',
          '',
          ...report.passedAfterRetries.map(
            (c) => `- ${cell(c.check)}: ${c.retried} retries${c.throttled ? `, ${c.throttled} throttled` : ''}`,
          ),
          '',
        ]
      : []),
    '### Coverage',
    '',
    `${report.coverage.exercised} of ${report.coverage.total} operation × status × scheme combinations exercised (coverage.md has the table, the negative-space dimensions and the OAuth clauses; report.html shows the grid).`,
    '',
    ...(report.workflows ? [workflowsMarkdown(report.workflows), ''] : []),
  ].join('\n');
}
