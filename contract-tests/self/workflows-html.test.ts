// report.html's section of the workflows shows what a step's answer contradicted, as the suite's contradicted
// assumptions are shown: what the spec guessed, where the answer differs and the spec file to change, escaped.
import { describe, expect, it } from 'vitest';
import { workflowsSection } from '../report/views/workflows-html.ts';
import { summarize, type WorkflowResult } from '../workflows/workflow-verdict.ts';

const workflow = (contradicted: boolean): WorkflowResult => ({
  workflowId: 'lookUpVehicleFromList',
  title: 'Look up a vehicle from the list',
  file: 'openapi/workflows/look-up-vehicle-from-list.arazzo.yaml',
  outcome: 'passed',
  seconds: 1,
  files: {},
  steps: [
    {
      stepId: 'listVehicles',
      operationId: 'listVehicles',
      outcome: 'passed',
      ...(contradicted
        ? {
            contradicted: [
              {
                what: 'Each of the eight fields is a string <guessed>',
                seed: '2.1',
                problems: ['listVehicles answered 200: body /0/domicileLocationNumber must be string'],
                spec: { file: 'openapi/fleet/components/schemas/Vehicle.yaml', pointer: '/x-assumption/0' },
                bundle: 'fleet#/components/schemas/Vehicle',
              },
            ],
          }
        : {}),
    },
  ],
});

describe("report.html's workflows section", () => {
  it('shows each contradicted assumption of a step, escaped, with the spec file to change', () => {
    const text = workflowsSection(summarize('live', [workflow(true)], 1)).text;
    expect(text).toContain("Contradicted assumptions in the workflows' answers");
    expect(text).toContain('Each of the eight fields is a string &lt;guessed&gt;');
    expect(text).toContain('openapi/fleet/components/schemas/Vehicle.yaml at /x-assumption/0');
    expect(text).toContain('body /0/domicileLocationNumber must be string');
  });

  it('has no such part when no answer contradicted anything', () => {
    expect(workflowsSection(summarize('live', [workflow(false)], 1)).text).not.toContain('Contradicted assumptions');
  });
});
