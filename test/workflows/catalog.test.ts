// The Arazzo workflows as files: every flow the published documentation describes (openapi/seed-gaps.yaml, `flows`)
// has a workflow that calls its operations in that order, and every workflow is such a flow; every operation a
// workflow names exists in the bundles; the target's settings come from LP_* variables only; the published copies name
// the bundles beside them; and the lint of `npm run lint` finds nothing in them, and each of its problems in a broken copy.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBundles } from '../../spec-core/bundles.ts';
import { type SeedSection, seedSections } from '../../spec-core/seed-sections.ts';
import { lintWorkflow } from '../../spec-core/workflow-lint.ts';
import {
  findOperation,
  loadWorkflows,
  publishedWorkflowPath,
  publishedWorkflowText,
  WORKFLOW_FILES,
  WORKFLOWS_DIR,
  type Workflow,
} from '../../spec-core/workflows.ts';
import { MOCK_PLACEHOLDERS, SECRET_VARIABLES, TARGET_VARIABLES } from '../../config/environment.ts';
import { SANDBOX_DEFAULTS } from '../../sandbox/config.ts';

const bundles = loadBundles();
const workflows = loadWorkflows();
const operationsOf = (workflow: Workflow) => workflow.steps.map((step) => step.operation.operationId);

/** The documented flows that no workflow calls in order, and the workflows that are no documented flow. */
function unmatched(sections: Record<string, SeedSection>, all: Workflow[]) {
  const flows = Object.entries(sections).flatMap(([section, { flows = [] }]) => flows.map((flow) => ({ section, ...flow })));
  const same = (a: string[], b: string[]) => a.join(' ') === b.join(' ');
  return {
    flowsWithoutWorkflow: flows
      .filter((flow) => !all.some((w) => same(operationsOf(w), flow.operations)))
      .map((f) => `${f.section}: ${f.what}`),
    workflowsWithoutFlow: all.filter((w) => !flows.some((flow) => same(operationsOf(w), flow.operations))).map((w) => w.workflowId),
  };
}

describe('the documented flows', () => {
  it('each flow of the published documentation has a workflow calling its operations in order, and each workflow is such a flow', () => {
    const flows = Object.values(seedSections()).flatMap((section) => section.flows ?? []);
    expect(flows.length).toBe(4);
    expect(unmatched(seedSections(), workflows)).toEqual({ flowsWithoutWorkflow: [], workflowsWithoutFlow: [] });
  });

  it('the check fails on a documented flow without a workflow, and on a workflow that is no documented flow', () => {
    const extra = {
      '5.2': {
        ...seedSections()['5.2']!,
        flows: [{ what: 'A refresh, then a call.', operations: ['refreshToken', 'recordLoadMilestoneEvent'] }],
      },
    };
    const result = unmatched({ ...seedSections(), ...extra }, workflows);
    expect(result.flowsWithoutWorkflow).toEqual(['5.2: A refresh, then a call.']);
    expect(result.workflowsWithoutFlow).toEqual([
      'recordMilestoneWithServiceToken',
      'recordMilestoneWithIdentityProviderToken',
      'recordMilestoneWithAuthorizationCode',
    ]);
  });
});

describe('the workflow files', () => {
  it('are every *.arazzo.yaml of openapi/workflows/, one workflow each, its id camelCase and saying the flow', () => {
    expect(
      readdirSync(WORKFLOWS_DIR)
        .filter((name) => name.endsWith('.arazzo.yaml'))
        .sort(),
    ).toEqual([...WORKFLOW_FILES].sort());
    expect(workflows.map((w) => w.workflowId)).toEqual([
      'recordMilestoneWithServiceToken',
      'recordMilestoneWithIdentityProviderToken',
      'recordMilestoneWithAuthorizationCode',
      'lookUpVehicleFromList',
    ]);
    for (const workflow of workflows) expect(workflow.document.arazzo).toBe('1.0.1');
  });

  it('name the three APIs as their sources and only operations the bundles have', () => {
    for (const workflow of workflows) {
      expect(workflow.document.sourceDescriptions.map((s: { name: string }) => s.name)).toEqual(['token', 'carriers', 'fleet']);
      for (const step of workflow.steps)
        expect(findOperation(bundles, step.operation), `${workflow.workflowId} ${step.stepId}`).toBeDefined();
    }
    const renamed = readFileSync(join(WORKFLOWS_DIR, WORKFLOW_FILES[3]), 'utf8').replace('fleet.getVehicle', 'fleet.getVehicles');
    expect(lintWorkflow({ file: 'renamed', text: renamed }, bundles).map((p) => p.message)).toEqual([
      'the fleet API has no operation getVehicles',
    ]);
  });

  it('read every setting of a target from an LP_* variable (secrets as format: password) and hold no value of one', () => {
    // The settings' values, not flags such as LP_ALLOW_WRITES=1.
    const values = new Set<string>([...Object.values(MOCK_PLACEHOLDERS), ...Object.values(SANDBOX_DEFAULTS)].filter((v) => v.length > 3));
    for (const workflow of workflows) {
      for (const input of workflow.env) {
        expect(Object.keys(TARGET_VARIABLES), workflow.workflowId).toContain(input.name);
        expect(input.secret, `${input.name} is format: password`).toBe(SECRET_VARIABLES.includes(input.name as never));
      }
      const text = JSON.stringify(workflow.document.workflows);
      expect(
        [...values].filter((value) => text.includes(value)),
        workflow.workflowId,
      ).toEqual([]);
      expect(text, `${workflow.workflowId}: no address`).not.toMatch(/https?:\/\//);
    }
  });

  it('cite sections of the published documentation for each workflow and step', () => {
    const sections = Object.keys(seedSections());
    for (const workflow of workflows) {
      expect(sections).toContain(workflow.section);
      for (const step of workflow.steps) expect(sections, `${workflow.workflowId} ${step.stepId}`).toContain(step.section);
    }
  });

  it('are published beside the bundles, naming them, and otherwise as written', () => {
    for (const name of WORKFLOW_FILES) {
      const source = readFileSync(join(WORKFLOWS_DIR, name), 'utf8');
      const published = readFileSync(publishedWorkflowPath(name), 'utf8');
      expect(published).toBe(publishedWorkflowText(source));
      expect(published.split('\n').filter((line, i) => line !== source.split('\n')[i])).toEqual([
        '    url: token.yaml',
        '    url: carriers.yaml',
        '    url: fleet.yaml',
      ]);
    }
    expect(() => publishedWorkflowText('sourceDescriptions:\n  - name: x\n    url: https://example.com/x.yaml\n', 'x.arazzo.yaml')).toThrow(
      'x.arazzo.yaml: a source description names no API of the kit: https://example.com/x.yaml',
    );
  });
});

describe('the lint of the workflows (npm run lint)', () => {
  const text = (index: number) => readFileSync(join(WORKFLOWS_DIR, WORKFLOW_FILES[index]!), 'utf8');
  const lint = (copy: string) =>
    lintWorkflow({ file: 'copy.arazzo.yaml', text: copy }, bundles).map((p) => `${p.line}:${p.column} ${p.rule}: ${p.message}`);

  it('finds nothing in the workflows as they are', () => {
    for (const index of WORKFLOW_FILES.keys()) expect(lint(text(index)), WORKFLOW_FILES[index]).toEqual([]);
  });

  it.each([
    [
      'a header the operation does not take',
      0,
      ['name: Authorization', 'name: Authorisation'],
      /workflow-parameter-defined: header parameter "Authorisation" is not defined by recordLoadMilestoneEvent/,
    ],
    [
      'a body field the operation does not take',
      0,
      ['client_secret: $inputs', 'clientSecret: $inputs'],
      /the application\/x-www-form-urlencoded body of requestServiceToken has no field "clientSecret"/,
    ],
    [
      'an input that is not declared',
      0,
      ['$inputs.env.LP_CLIENT_ID', '$inputs.env.LP_CLIENT'],
      /workflow-expression-defined: \$inputs\.env\.LP_CLIENT: no such input/,
    ],
    [
      'an output of no earlier step',
      0,
      ['getServiceToken.outputs.accessToken', 'getServiceToken.outputs.token'],
      /step "getServiceToken" has no such output/,
    ],
    [
      'a field no documented answer has',
      0,
      ['#/access_token', '#/accessToken'],
      /no documented success answer of requestServiceToken has \/accessToken/,
    ],
    ['a status the operation does not document', 0, ['$statusCode == 200', '$statusCode == 201'], /requestServiceToken documents no 201/],
    [
      'a server variable filled from another LP_* variable',
      3,
      ['value: $inputs.env.LP_FLEET_BASE_URL', 'value: $inputs.env.LP_FLEET_API_KEY'],
      /workflow-server-variable: \{fleet_base_url\} is filled from \$inputs\.env\.LP_FLEET_BASE_URL/,
    ],
    [
      'a source that is not the API under openapi/',
      1,
      ['url: ../fleet/openapi.yaml', 'url: ../fleet/fleet.yaml'],
      /workflow-sources: source "fleet" must be type openapi/,
    ],
  ] as const)('reports %s, at the line of the change', (_what, index, [from, to], expected) => {
    const source = text(index);
    expect(source).toContain(from);
    const broken = source.replace(from, to);
    const problems = lint(broken);
    expect(problems.join('\n')).toMatch(expected);
    const line = Number(problems[0]!.split(':')[0]);
    expect(broken.split('\n')[line - 1], problems[0]).toContain(to.split(': ').at(-1));
  });
});
