// The suite's positive flows and the documented flows as workflows do not drift: every step of every workflow sends
// what the suite's valid request of its operation sends (the same parameters in the same places, the same LP_*
// variables, credentials where the suite puts them, a bearer token from an earlier token request, a code from an
// earlier authorize redirect, a vehicle from an earlier list). Each rule is also shown failing on a changed copy.
import { describe, expect, it } from 'vitest';
import { loadWorkflows, type Workflow } from '../../spec-core/workflows.ts';
import { type StepRequest, stepRequests } from '../../tools/workflows/step-request.ts';
import { specModel } from '../model/model-entries.ts';
import { specRoles } from '../model/operations.ts';
import { driftProblems } from './workflows-drift.ts';

const workflows = loadWorkflows();
const requestsOf = new Map(workflows.map((w) => [w.workflowId, stepRequests(w)]));
const drift = (workflow: Workflow, requests: StepRequest[]) => driftProblems(workflow, requests, specModel(), specRoles().tokenEndpoints);

/** A workflow's step requests with one step changed. */
function changed(workflowId: string, stepIndex: number, change: (step: StepRequest) => StepRequest) {
  const workflow = workflows.find((w) => w.workflowId === workflowId)!;
  const requests = structuredClone(requestsOf.get(workflowId)!);
  requests[stepIndex] = change(requests[stepIndex]!);
  return drift(workflow, requests);
}

describe('the workflows against the suite’s valid requests, step by step', () => {
  it('every step of every workflow sends what the suite sends for its operation', () => {
    expect(workflows.length).toBeGreaterThanOrEqual(4);
    for (const workflow of workflows) expect(drift(workflow, requestsOf.get(workflow.workflowId)!), workflow.workflowId).toEqual([]);
  });

  it('fails on a step that sends a setting as a literal instead of its LP_* variable', () => {
    const found = changed('recordMilestoneWithIdentityProviderToken', 0, (step) => ({
      ...step,
      body: {
        ...step.body!,
        fields: step.body!.fields.map((f) => (f.name === 'scope' ? { ...f, value: [{ text: 'carriers.milestones' }] } : f)),
      },
    }));
    expect(found).toEqual([
      'recordMilestoneWithIdentityProviderToken, step getIdentityProviderToken (requestIdentityProviderToken): sends scope as carriers.milestones, where the suite sends LP_SCOPE',
    ]);
  });

  it('fails on a step that leaves out a field, renames a credential header, or takes a value from the wrong step', () => {
    const noLoad = changed('recordMilestoneWithServiceToken', 1, (step) => ({
      ...step,
      body: { ...step.body!, fields: step.body!.fields.filter((f) => f.name !== 'load_id') },
    }));
    expect(noLoad).toEqual([expect.stringContaining("leaves out json load_id, which the suite's valid request sends")]);
    const renamed = changed('lookUpVehicleFromList', 0, (step) => ({
      ...step,
      headers: [{ name: 'X-Api-Key', value: [{ variable: 'LP_FLEET_API_KEY' }] }],
    }));
    expect(renamed).toEqual([
      expect.stringContaining('sends header X-Api-Key, which listVehicles does not document'),
      expect.stringContaining('sends no API-Key'),
    ]);
    const literalVehicle = changed('lookUpVehicleFromList', 1, (step) => ({
      ...step,
      path: [{ text: '/vehicles/' }, { variable: 'VEHICLE' }],
    }));
    expect(literalVehicle).toEqual([
      expect.stringContaining('takes vehicleNumber from {VEHICLE}, where the suite takes it from an earlier listVehicles'),
    ]);
    const stolenToken = changed('recordMilestoneWithServiceToken', 1, (step) => ({
      ...step,
      headers: [{ name: 'Authorization', value: [{ text: 'Bearer ' }, { variable: 'LP_CLIENT_SECRET' }] }],
    }));
    expect(stolenToken).toEqual([expect.stringContaining('sends a bearer token that is not the output of an earlier token request')]);
  });

  it('fails on a literal its schema does not allow', () => {
    const found = changed('recordMilestoneWithServiceToken', 1, (step) => ({
      ...step,
      body: {
        ...step.body!,
        fields: step.body!.fields.map((f) => (f.name === 'milestone_type' ? { ...f, value: [{ text: '' }] } : f)),
      },
    }));
    expect(found).toEqual([expect.stringContaining('sends milestone_type as "", which its schema does not allow')]);
  });
});
