// The flows page (dist/docs/workflows.html, from the docs/workflows.html template): each Arazzo workflow as numbered
// steps, each step linked to its operation on its API's page, with what it states, its curl, what it keeps for the next
// step and what it checks; the workflow files to download beside the specs; how to run them with Respect.
import { readFileSync } from 'node:fs';
import { repoRoot, type ApiName } from '../../spec-core/apis.ts';
import { seedSections } from '../../spec-core/seed-sections.ts';
import { findOperation, loadWorkflows, type Workflow } from '../../spec-core/workflows.ts';
import { curlOf } from '../workflows/curl.ts';
import { type StepRequest, stepRequests } from '../workflows/step-request.ts';
import { breakablePath, operationAnchor } from './enrich.ts';
import { escapeHtml, faviconHref, fill, inlineMarkdown, style, supportHtml } from './landing.ts';
import type { SupportContact } from './support.ts';

type Json = Record<string, any>;

/** Where the docs link a workflow file: beside the specs it names (see build.ts). */
export const workflowDownload = (workflow: Pick<Workflow, 'name'>) => `specs/${workflow.name}`;

/** The id of a step's item on the page, `<workflowId>-<stepId>`. */
export const stepAnchor = (workflow: Pick<Workflow, 'workflowId'>, stepId: string) => `${workflow.workflowId}-${stepId}`;

/** What a step keeps for the steps after it, in words. */
function keepsHtml(request: StepRequest): string {
  const items = request.keeps.map(({ variable, pointer }) =>
    pointer === '' && request.redirects
      ? `<code>${variable}</code>: the <code>code</code> your redirect URI receives (curl prints the redirect; take <code>code</code> from its query, and check that <code>state</code> came back unchanged)`
      : `<code>${variable}</code>: <code>${escapeHtml(pointer.replace(/^\//, '').replace(/\//g, '.') || 'the answer')}</code> of the answer`,
  );
  return items.length ? `<p class="keep">Keep for the next step: ${items.join('; ')}.</p>` : '';
}

function checksHtml(criteria: Workflow['steps'][number]['successCriteria']): string {
  const items = criteria.map(
    (c) => `<li><code>${escapeHtml(c.condition)}</code>${c.context ? ` on <code>${escapeHtml(c.context)}</code>` : ''}</li>`,
  );
  return `<details class="checks"><summary>What Respect checks (${criteria.length})</summary><ul>${items.join('')}</ul></details>`;
}

function stepHtml(workflow: Workflow, index: number, request: StepRequest, bundles: Record<ApiName, Json>): string {
  const step = workflow.steps[index]!;
  const { op, method, path } = findOperation(bundles, step.operation)!;
  const link = `${step.operation.api}.html${operationAnchor(op)}`;
  const section = step.section ? ` <span class="count">(section ${escapeHtml(step.section)})</span>` : '';
  return [
    `      <li id="${stepAnchor(workflow, step.stepId)}">`,
    `        <h3><a href="${link}"><code class="lp-path">${method.toUpperCase()} ${breakablePath(path)}</code></a> ${escapeHtml(op.summary ?? '')}</h3>`,
    `        <p>${inlineMarkdown(step.description)}${section}</p>`,
    `        <pre class="sample"><code data-sample="${stepAnchor(workflow, step.stepId)}">${escapeHtml(curlOf(request))}</code></pre>`,
    `        ${keepsHtml(request)}${checksHtml(step.successCriteria)}`,
    '      </li>',
  ].join('\n');
}

function workflowHtml(workflow: Workflow, bundles: Record<ApiName, Json>): string {
  const requests = stepRequests(workflow, bundles);
  const title = workflow.section ? seedSections()[workflow.section]?.title : undefined;
  const section = workflow.section
    ? `Published documentation, section ${escapeHtml(workflow.section)}${title ? `: ${escapeHtml(title)}` : ''} · `
    : '';
  return [
    `  <section id="${workflow.workflowId}" class="workflow">`,
    `    <h2>${escapeHtml(workflow.title)}</h2>`,
    `    <p>${inlineMarkdown(workflow.summary)}</p>`,
    `    <p class="count">${section}workflow <code>${workflow.workflowId}</code> · Arazzo <a href="${workflowDownload(workflow)}" download>${escapeHtml(workflow.name)}</a></p>`,
    '    <ol class="steps">',
    ...requests.map((request, index) => stepHtml(workflow, index, request, bundles)),
    '    </ol>',
    '  </section>',
  ].join('\n');
}

const RESPECT_NOTES =
  'Respect follows every redirect, so in the authorization code flow the application at your redirect URI must check ' +
  '<code>state</code> and answer with the code it received as its page; in a checkout of the kit, ' +
  '<code>npm run contract:workflows</code> does that itself when <code>LP_REDIRECT_URI</code> is a loopback address, ' +
  'and runs every flow against the sandbox, the mock or your environment.';

export interface WorkflowsPageOptions {
  builtFrom: string;
  support: SupportContact;
}

/** The whole page. */
export function workflowsPage(bundles: Record<ApiName, Json>, { builtFrom, support }: WorkflowsPageOptions): string {
  const workflows = loadWorkflows();
  const [first] = workflows;
  return fill(readFileSync(`${repoRoot}/docs/workflows.html`, 'utf8'), 'docs/workflows.html', {
    style: style(),
    favicon: faviconHref(),
    workflowLinks: workflows.map((w) => `<a href="#${w.workflowId}">${escapeHtml(w.title)}</a>`).join(' · '),
    workflows: workflows.map((w) => workflowHtml(w, bundles)).join('\n\n'),
    respectCommand: escapeHtml(`npx @redocly/cli respect ${workflowDownload(first!)} --input eventTime=2026-11-22T14:30:00Z`),
    respectNotes: RESPECT_NOTES,
    support: supportHtml(support),
    builtFrom: escapeHtml(builtFrom),
  });
}
