// The Postman folders of the Arazzo workflows: a "Flows" folder with one folder per workflow, in the docs' order, and one
// request per step in the workflow's order. Each request is the step's (tools/workflows/step-request.ts): settings and
// credentials from the environment's variables, what an earlier step kept from collection variables (`wf_...`). Its
// tests are the step's success criteria; it keeps its outputs for the next step; and it is not sent when a step before
// it did not leave what it needs. Postman can stop at a redirect, which Respect cannot: the authorize step checks the
// redirect to the redirect URI itself (state unchanged, a code) and keeps the code from its Location.
import { stableId } from './stable-id.ts';
import type { ApiName } from '../../spec-core/apis.ts';
import type { Bundle } from '../../spec-core/bundles.ts';
import { findOperation, loadWorkflows, type Workflow } from '../../spec-core/workflows.ts';
import { type Part, type StepRequest, stepRequests } from '../workflows/step-request.ts';
import { AT_HELPER, criteriaTests, WORKFLOW_VARIABLE_PREFIX, workflowVariable } from './criteria.ts';
import type { PostmanCollectionJson } from '../interop/consumers.ts';

type Item = PostmanCollectionJson;

export const FLOWS_FOLDER = 'Flows (Arazzo workflows)';

/** The test a step fails with, unsent, when a step before it did not keep what it needs. */
export const STEP_BEFORE_TEST = 'the step before it kept what this one needs';

/** Inputs of a workflow run that Postman makes itself: the time of a milestone, and a fresh state. */
const INPUTS: Record<string, string> = { EVENT_TIME: '{{$isoTimestamp}}', STATE: `{{${workflowVariable('state')}}}` };

const lines = (exec: string[]) => ({ type: 'text/javascript', exec });

/** A part as Postman text: `{{client_id}}` for LP_CLIENT_ID, `{{wf_access_token}}` for what a step kept. */
function postmanText(parts: Part[], variableOf: (lp: string) => string): string {
  return parts
    .map((part) => {
      if ('text' in part) return part.text;
      if (part.variable.startsWith('LP_')) return `{{${variableOf(part.variable)}}}`;
      // What an earlier step kept: its shell name (ACCESS_TOKEN) is the collection variable's (wf_access_token).
      return INPUTS[part.variable] ?? `{{${WORKFLOW_VARIABLE_PREFIX}${part.variable.toLowerCase()}}}`;
    })
    .join('');
}

/** The collection variables a request reads (what earlier steps kept, and the state the authorize step makes). */
const readsOf = (item: Item): string[] => [...new Set([...JSON.stringify(item.request).matchAll(/\{\{(wf_\w+)\}\}/g)].map((m) => m[1]!))];

function requestOf(request: StepRequest, variableOf: (lp: string) => string): Item {
  const text = (parts: Part[]) => postmanText(parts, variableOf);
  const path = text(request.path);
  const body = request.body;
  return {
    method: request.method,
    header: [
      ...request.headers.map((h) => ({ key: h.name, value: text(h.value) })),
      ...(body ? [{ key: 'Content-Type', value: body.contentType }] : []),
    ],
    url: {
      raw: `{{${variableOf(request.server)}}}${path}${request.query.length ? `?${request.query.map((q) => `${q.name}=${text(q.value)}`).join('&')}` : ''}`,
      host: [`{{${variableOf(request.server)}}}`],
      path: path.split('/').filter(Boolean),
      query: request.query.map((q) => ({ key: q.name, value: text(q.value) })),
    },
    auth: { type: 'noauth' },
    ...(body?.kind === 'form'
      ? { body: { mode: 'urlencoded', urlencoded: body.fields.map((f) => ({ key: f.name, value: text(f.value) })) } }
      : {}),
    ...(body?.kind === 'json'
      ? {
          body: {
            mode: 'raw',
            raw: JSON.stringify(Object.fromEntries(body.fields.map((f) => [f.name, text(f.value)])), null, 2),
            options: { raw: { language: 'json' } },
          },
        }
      : {}),
  };
}

/** Pre-request: a fresh state for the authorize step; no request when a step before did not keep what it reads. */
function preRequest(reads: string[]): string[] {
  const state = workflowVariable('state');
  const needed = reads.filter((name) => name !== state);
  return [
    ...(reads.includes(state)
      ? [`pm.collectionVariables.set('${state}', 'state-' + Date.now() + '-' + Math.random().toString(36).slice(2));`]
      : []),
    ...(needed.length === 0
      ? []
      : [
          `const missing = ${JSON.stringify(needed)}.filter((name) => !pm.collectionVariables.get(name));`,
          'if (missing.length > 0) {',
          `  pm.test('${STEP_BEFORE_TEST}', () => { throw new Error('not sent: no ' + missing.join(', ') + ' from the step before it'); });`,
          '  pm.execution.skipRequest();',
          '}',
        ]),
  ];
}

/** Tests and outputs of a step: its criteria (the redirect's own checks for the authorize step), then what it keeps. */
function testScript(workflow: Workflow, index: number, request: StepRequest): string[] {
  const step = workflow.steps[index]!;
  const keeps = Object.keys(step.outputs).map((name) => ({ name, pointer: step.outputs[name]!.split('#')[1] ?? '' }));
  const clear = keeps.map(({ name }) => `pm.collectionVariables.set('${workflowVariable(name)}', '');`);
  if (request.redirects) {
    return [
      ...clear,
      // Postman's script sandbox has no URL class: the query of the Location is read by hand.
      "const location = pm.response.headers.get('Location') || '';",
      "const query = (location.split('?')[1] || '').split('#')[0].split('&').map((pair) => pair.split('=').map((part) => decodeURIComponent((part || '').replace(/\\+/g, ' '))));",
      "const param = (name) => (query.find(([key]) => key === name) || [])[1] || '';",
      "pm.test('redirected to the redirect URI', () => pm.expect(pm.response.code >= 300 && pm.response.code < 400 && location.split('?')[0] === pm.variables.get('redirect_uri')).to.equal(true));",
      `pm.test('the state came back unchanged', () => pm.expect(param('state')).to.equal(pm.collectionVariables.get('${workflowVariable('state')}')));`,
      "pm.test('a code came back', () => pm.expect(param('code')).to.not.equal(''));",
      ...keeps.map(({ name }) => `pm.collectionVariables.set('${workflowVariable(name)}', param('code'));`),
    ];
  }
  return [
    AT_HELPER,
    ...clear,
    ...criteriaTests(step.successCriteria),
    ...keeps.map(
      ({ name, pointer }) =>
        `try { pm.collectionVariables.set('${workflowVariable(name)}', String(at(pm.response.json(), ${JSON.stringify(pointer)}) ?? '')); } catch (notJson) {}`,
    ),
  ];
}

function workflowFolder(workflow: Workflow, bundles: Record<ApiName, Bundle>, variableOf: (lp: string) => string): Item {
  const requests = stepRequests(workflow, bundles);
  const item = requests.map((request, index) => {
    const step = workflow.steps[index]!;
    const built: Item = {
      id: stableId(`${workflow.workflowId} ${step.stepId}`),
      name: `${index + 1}. ${findOperation(bundles, step.operation)!.op.summary}`,
      request: requestOf(request, variableOf),
    };
    built.request.description = step.description;
    built.event = [
      { listen: 'prerequest', script: lines(preRequest(readsOf(built))) },
      { listen: 'test', script: lines(testScript(workflow, index, request)) },
    ];
    if (request.redirects) built.protocolProfileBehavior = { followRedirects: false };
    return built;
  });
  return {
    name: workflow.title,
    description: `${workflow.summary}\n\nArazzo workflow \`${workflow.workflowId}\` (${workflow.name}).`,
    item,
  };
}

/** The Flows folder and the collection variables its requests keep and read. */
export function flowsFolder(
  bundles: Record<ApiName, Bundle>,
  variableOf: (lp: string) => string,
): { folder: Item; variables: Array<{ key: string; value: string }> } {
  const folders = loadWorkflows().map((workflow) => workflowFolder(workflow, bundles, variableOf));
  const keys = [...new Set([...JSON.stringify(folders).matchAll(/\b(wf_\w+)\b/g)].map((m) => m[1]!))].sort();
  return {
    folder: {
      name: FLOWS_FOLDER,
      description:
        'The flows of the published documentation, one folder per Arazzo workflow, one request per step. Each step keeps what the next one needs in a collection variable (wf_...), and is not sent when a step before it did not keep it. Postman stops at the authorize redirect, so that step checks the redirect itself (the state unchanged, a code) and keeps the code from its Location.',
      item: folders,
    },
    variables: keys.map((key) => ({ key, value: '' })),
  };
}
