// report.html's section of the documented flows (a live run runs them as Arazzo workflows after the suite): one row
// per workflow with its steps' outcomes, then each failed step as the violations are shown (the promise, what broke,
// the request, the answer and its curl), and the steps that could not be judged or were skipped with why.
import type { StepRequestRecord, StepResult } from '../../workflows/results.ts';
import type { WorkflowResult, WorkflowsRun } from '../../workflows/workflow-verdict.ts';
import { type Html, html } from './html-markup.ts';

const WORD = { passed: 'passed', failed: 'broke a promise', unjudged: 'could not judge', skipped: 'skipped' } as const;

const requestText = ({ method, url, headers, body }: StepRequestRecord) =>
  [
    `${method} ${url}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ...(body === undefined ? [] : ['', typeof body === 'string' ? body : JSON.stringify(body, null, 2)]),
  ].join('\n');

function failedStep(workflow: WorkflowResult, step: StepResult & { outcome: 'failed' }): Html {
  return html`<article class="card">
<h3>${workflow.workflowId}, step ${step.stepId} <span class="file">${step.operationId}</span></h3>
<p>${step.promise}</p>
<ul>${step.broken.map((broken) => html`<li>${broken}</li>`)}</ul>
<div class="exchange">
<div><h4>Request</h4><pre class="request">${requestText(step.request)}</pre></div>
<div><h4>Answer</h4><pre class="answer">${`${step.answer.status} ${step.answer.contentType}\n\n${step.answer.body || '(empty body)'}`}</pre></div>
</div>
<h4>Reproduce (after the steps before it)</h4>
<div class="repro"><pre class="curl">${step.curl}</pre></div>
</article>`;
}

/** The x-assumptions a step's answer contradicted (reported as the suite reports them; a strict run fails the step). */
function contradictedCards(workflow: WorkflowResult, step: StepResult): Html[] {
  if (step.outcome !== 'passed' && step.outcome !== 'failed') return [];
  return (step.contradicted ?? []).map(
    (c) => html`<article class="card">
<h3>${workflow.workflowId}, step ${step.stepId} <span class="file">${step.operationId}</span></h3>
<p>The spec guessed (seed section ${c.seed} leaves it open): ${c.what}</p>
<ul>${c.problems.map((problem) => html`<li>${problem}</li>`)}</ul>
<p>To change: <code>${c.spec ? `${c.spec.file} at ${c.spec.pointer}` : '(source not found)'}</code> (bundle: <code>${c.bundle}</code>)</p>
</article>`,
  );
}

function row(workflow: WorkflowResult): Html {
  const steps = workflow.steps.map((step) => `${step.stepId}: ${WORD[step.outcome]}`).join(', ');
  const why =
    workflow.reason ??
    workflow.steps
      .flatMap((step) => (step.outcome === 'unjudged' || step.outcome === 'skipped' ? [`${step.stepId}: ${step.reason}`] : []))
      .join('; ');
  return html`<tr><td><b>${workflow.workflowId}</b><br>${workflow.title}</td><td>${WORD[workflow.outcome]}</td><td>${steps}</td><td>${why}</td></tr>`;
}

export function workflowsSection(run: WorkflowsRun): Html {
  const failed = run.workflows.flatMap((workflow) =>
    workflow.steps.flatMap((step) => (step.outcome === 'failed' ? [failedStep(workflow, step)] : [])),
  );
  const contradicted = run.workflows.flatMap((workflow) => workflow.steps.flatMap((step) => contradictedCards(workflow, step)));
  return html`<section id="workflows">
<h2>Workflows <span class="n">${run.workflows.length}</span></h2>
<p class="intro">The documented flows as Arazzo workflows (<code>openapi/workflows/</code>), run by Redocly Respect against the same target after the suite; their outputs are in <code>workflows/</code> beside this page.</p>
<p><code>${run.line}</code></p>
<table class="plain"><thead><tr><th>Workflow</th><th>Outcome</th><th>Steps</th><th>Why</th></tr></thead><tbody>${run.workflows.map(row)}</tbody></table>
${failed}
${contradicted.length ? html`<h3>Contradicted assumptions in the workflows' answers</h3>${contradicted}` : ''}
</section>`;
}
