// A workflow run in words: one line per workflow as it ends, then the sections of the contract suite's console
// (violations with their promise, request, answer and curl; contradicted assumptions, in the suite's words; what could
// not be judged; what was skipped), and the same as a Markdown section for a run's report. Everything here comes from
// the run's results, which are redacted.
import type { StepAnswer, StepRequestRecord, StepResult } from './results.ts';
import type { StepContradiction } from './step-conformance.ts';
import type { WorkflowResult, WorkflowsRun } from './workflow-verdict.ts';

const MARK = { passed: '✓', failed: '✗', unjudged: '?', skipped: '-' } as const;

/** Why a workflow could not be judged: its own reason, else its first unjudged step's. */
const unjudgedReason = (result: WorkflowResult) =>
  result.reason ?? result.steps.flatMap((s) => (s.outcome === 'unjudged' ? [`step ${s.stepId}: ${s.reason}`] : []))[0];

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Each contradicted assumption of the steps once, with the steps whose answers showed it. */
function contradictionsOf(workflows: WorkflowResult[]) {
  const found = new Map<
    string,
    { contradiction: StepContradiction; seen: Array<{ where: string; answer?: StepAnswer; problems: string[] }> }
  >();
  for (const workflow of workflows)
    for (const step of workflow.steps) {
      if (step.outcome !== 'passed' && step.outcome !== 'failed') continue;
      for (const contradiction of step.contradicted ?? []) {
        const entry = found.get(contradiction.what) ?? { contradiction, seen: [] };
        entry.seen.push({ where: `${workflow.workflowId}, step ${step.stepId}`, answer: step.answer, problems: contradiction.problems });
        found.set(contradiction.what, entry);
      }
    }
  return [...found.values()];
}

/** One line for a workflow that ended. */
export function workflowLine(result: WorkflowResult): string {
  const steps = result.steps;
  const contradicted = contradictionsOf([result]).length;
  const what = {
    passed: () =>
      `${steps.filter((s) => s.outcome === 'passed').length} of ${steps.length} steps passed` +
      (contradicted > 0 ? `, ${plural(contradicted, 'contradicted assumption')} (below)` : ''),
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

/** The contradicted assumptions as the suite prints its own: what the spec guessed, this server, what differs, where. */
function contradictionsText(run: WorkflowsRun): string {
  const found = contradictionsOf(run.workflows);
  if (found.length === 0) return '';
  const lines = [
    `Contradicted assumptions in the workflows (${found.length})`,
    '',
    run.strict
      ? 'These answers differ from what the specs guessed where the seed says "not shown": a strict run fails their steps.'
      : 'These answers differ from what the specs guessed where the seed says "not shown". They are not contract violations:\n' +
        'they fail the run only with --strict-assumptions (LP_STRICT_ASSUMPTIONS=1). If the server is right, change the spec.',
    '',
  ];
  found.forEach(({ contradiction: c, seen }, i) => {
    lines.push(`${i + 1}. The spec guessed (seed section ${c.seed} leaves it open): ${c.what.replace(/\s+/g, ' ')}`);
    for (const { where, answer, problems } of seen) {
      const excerpt = answer && { ...answer, body: answer.body.length > 200 ? `${answer.body.slice(0, 197)}...` : answer.body };
      lines.push(`   This server: ${where}${excerpt ? ` answered ${answerText(excerpt)}` : ''}`);
      for (const problem of problems.slice(0, 3)) lines.push(`   Differs: ${problem}`);
      if (problems.length > 3) lines.push(`   (and ${problems.length - 3} more like it)`);
    }
    lines.push(`   To change: ${c.spec ? `${c.spec.file} at ${c.spec.pointer}` : '(source not found)'} (bundle: ${c.bundle})`);
  });
  return lines.join('\n');
}

/** The steps of the run with one outcome, with their workflow. */
const stepsWith = <O extends StepResult['outcome']>(run: WorkflowsRun, outcome: O) =>
  run.workflows.flatMap((workflow) =>
    workflow.steps.filter((step): step is StepResult & { outcome: O } => step.outcome === outcome).map((step) => ({ workflow, step })),
  );

/** The console's sections after the per-workflow lines: violations, contradicted assumptions, could not judge, skipped
 * (empty ones left out). */
export function workflowsText(run: WorkflowsRun): string {
  const violations = stepsWith(run, 'failed');
  const unjudged = stepsWith(run, 'unjudged');
  const skipped = run.workflows.filter((w) => w.outcome === 'skipped');
  const sections = [
    violations.length > 0
      ? `Workflow violations (${violations.length})\n\n${violations.map(({ workflow, step }, i) => violationText(workflow, step as Failed, i + 1)).join('\n\n')}`
      : '',
    contradictionsText(run),
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
