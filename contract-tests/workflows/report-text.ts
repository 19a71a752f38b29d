// A workflow run in words: one line per workflow as it ends, then the sections of the contract suite's console
// (violations with their promise, request, answer and curl; what could not be judged; what was skipped), and the same
// as a Markdown section for a run's report. Everything here comes from the run's results, which are redacted.
import type { StepAnswer, StepRequestRecord, StepResult } from './results.ts';
import type { WorkflowResult, WorkflowsRun } from './verdict.ts';

const MARK = { passed: '✓', failed: '✗', unjudged: '?', skipped: '-' } as const;

/** Why a workflow could not be judged: its own reason, else its first unjudged step's. */
const unjudgedReason = (result: WorkflowResult) =>
  result.reason ?? result.steps.flatMap((s) => (s.outcome === 'unjudged' ? [`step ${s.stepId}: ${s.reason}`] : []))[0];

/** One line for a workflow that ended. */
export function workflowLine(result: WorkflowResult): string {
  const steps = result.steps;
  const what = {
    passed: () => `${steps.filter((s) => s.outcome === 'passed').length} of ${steps.length} steps passed`,
    failed: () => `${steps.flatMap((s) => (s.outcome === 'failed' ? [`step ${s.stepId}`] : [])).join(', ')} broke a promise`,
    unjudged: () => `could not judge: ${unjudgedReason(result)}`,
    skipped: () => `skipped: ${result.reason}`,
  }[result.outcome]();
  return `  ${MARK[result.outcome]} ${result.workflowId}: ${what} (${result.seconds.toFixed(1)} s)`;
}

const indent = (text: string, by: string) => text.replace(/^/gm, by);

function requestText({ method, url, headers, body }: StepRequestRecord): string {
  const lines = [`${method} ${url}`, ...Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`)];
  if (body !== undefined) lines.push(`  ${typeof body === 'string' ? body : JSON.stringify(body)}`);
  return lines.join('\n');
}

const answerText = ({ status, contentType, body }: StepAnswer) =>
  `${status} ${contentType || '(no content type)'}${body ? `: ${body}` : ''}`;

type Failed = StepResult & { outcome: 'failed' };
type Unjudged = StepResult & { outcome: 'unjudged' };

function violationText(workflow: WorkflowResult, step: Failed, index: number): string {
  return [
    `${index}. ${workflow.workflowId}, step ${step.stepId} (${step.operationId})`,
    `   Promise: ${step.promise}`,
    ...step.broken.map((broken) => `   Broken: ${broken}`),
    `   Request: ${indent(requestText(step.request), '   ').trimStart()}`,
    `   Answer: ${answerText(step.answer)}`,
    '   Repeat it (after the steps before it; settings from the LP_* variables):',
    indent(step.curl, '     '),
  ].join('\n');
}

/** The steps of the run with one outcome, with their workflow. */
const stepsWith = <O extends StepResult['outcome']>(run: WorkflowsRun, outcome: O) =>
  run.workflows.flatMap((workflow) =>
    workflow.steps.filter((step): step is StepResult & { outcome: O } => step.outcome === outcome).map((step) => ({ workflow, step })),
  );

/** The console's sections after the per-workflow lines: violations, could not judge, skipped (empty ones left out). */
export function workflowsText(run: WorkflowsRun): string {
  const violations = stepsWith(run, 'failed');
  const unjudged = stepsWith(run, 'unjudged');
  const skipped = run.workflows.filter((w) => w.outcome === 'skipped');
  const sections = [
    violations.length > 0
      ? `Workflow violations (${violations.length})\n\n${violations.map(({ workflow, step }, i) => violationText(workflow, step as Failed, i + 1)).join('\n\n')}`
      : '',
    unjudged.length > 0
      ? `Workflow steps that could not be judged (${unjudged.length})\n\n${unjudged.map(({ workflow, step }) => `- ${workflow.workflowId}, step ${step.stepId}: ${(step as Unjudged).reason}`).join('\n')}`
      : '',
    skipped.length > 0 ? `Workflows skipped (${skipped.length})\n\n${skipped.map((w) => `- ${w.workflowId}: ${w.reason}`).join('\n')}` : '',
  ];
  return sections.filter(Boolean).join('\n\n');
}

/** The run as a Markdown section (`## Workflows`), for a run's summary. */
export function workflowsMarkdown(run: WorkflowsRun): string {
  const rows = run.workflows.map(
    (w) =>
      `| ${MARK[w.outcome]} \`${w.workflowId}\` | ${w.outcome === 'unjudged' ? 'could not judge' : w.outcome} | ${w.steps.map((s) => `${MARK[s.outcome]} ${s.stepId}`).join(', ')} | ${(w.reason ?? '').replace(/\|/g, '\\|')} |`,
  );
  const details = workflowsText(run);
  return [
    '## Workflows (Arazzo, run by Redocly Respect)',
    '',
    `**${run.line.replace(/^workflows verdict: /, '')}**`,
    '',
    '| Workflow | Outcome | Steps | Why |',
    '|---|---|---|---|',
    ...rows,
    ...(details ? ['', '```text', details, '```'] : []),
  ].join('\n');
}
