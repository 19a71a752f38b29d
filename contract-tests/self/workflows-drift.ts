// The documented flows (openapi/workflows/, run by Redocly Respect) against the suite's model of a valid request
// (model/model-entries.ts, model/valid-requests.ts, model/credentials.ts), step by step: each step must send what the suite sends
// for that operation, from the same LP_* variables and the same earlier operations, so that the two never drift.
import { createSpecAjv } from '../../spec-core/ajv.ts';
import type { Workflow } from '../../spec-core/workflows.ts';
import type { Field, Part, StepRequest } from '../../tools/workflows/step-request.ts';
import { CREDENTIALS, type CredentialId } from '../send/model.ts';
import { type ModelEntry, parameterValue } from '../model/model-entries.ts';
import type { DocumentedParameter } from '../model/operations.ts';
import type { EarlierValue, VariableValue } from '../model/valid-requests.ts';

/** Headers the transport or Respect sets, not parameters of the operation. */
const TRANSPORT_HEADERS = new Set(['content-type', 'accept']);

type Sent = { place: DocumentedParameter['in']; name: string; value: Part[] };

/** What a step sends: its path variables, query, headers and body fields, each with where it goes. */
function sentBy(request: StepRequest, entry: ModelEntry): Sent[] {
  const pathParameters = entry.parameters.filter((p) => p.in === 'path');
  const pathValues = request.path.filter((part) => 'variable' in part);
  const place = (field: Field, where: DocumentedParameter['in']): Sent => ({ place: where, name: field.name, value: field.value });
  return [
    ...pathParameters.flatMap((p, i) => (pathValues[i] ? [{ place: 'path' as const, name: p.name, value: [pathValues[i]!] }] : [])),
    ...request.query.map((f) => place(f, 'query')),
    ...request.headers.filter((f) => !TRANSPORT_HEADERS.has(f.name.toLowerCase())).map((f) => place(f, 'header')),
    ...(request.body?.fields ?? []).map((f) => place(f, request.body!.kind)),
  ];
}

type Where = Pick<DocumentedParameter, 'in' | 'name'>;
const same = (a: Where, b: Where) =>
  a.in === b.in && (a.in === 'header' ? a.name.toLowerCase() === b.name.toLowerCase() : a.name === b.name);
const asParameter = (sent: Sent): Where => ({ in: sent.place, name: sent.name });
const variableOf = (value: Part[]) => (value.length === 1 && 'variable' in value[0]! ? value[0].variable : undefined);
const text = (value: Part[]) => value.map((p) => ('text' in p ? p.text : `{${p.variable}}`)).join('');

const ajv = createSpecAjv();
/** Whether a literal is a value the parameter's schema (its $refs resolved) allows. */
const allows = (schema: DocumentedParameter['schema'], value: string) => ajv.validate(schema, value) as boolean;

/** The model's entry for a step: its operation, and on a token endpoint the grant type the step sends. */
export function entryOfStep(request: StepRequest, model: ModelEntry[]): ModelEntry | undefined {
  const entries = model.filter((e) => e.operationId === request.operationId);
  const grant = request.body?.fields.find((f) => f.name === 'grant_type');
  return (grant && entries.find((e) => e.variant === text(grant.value))) ?? (entries.length === 1 ? entries[0] : undefined);
}

/** The earlier step whose output a variable is, if any. */
function earlierStep(requests: StepRequest[], index: number, variable: string | undefined): StepRequest | undefined {
  return variable ? requests.slice(0, index).find((r) => r.keeps.some((k) => k.variable === variable)) : undefined;
}

/** Where a credential must be and where its value must come from. */
function credentialProblems(id: CredentialId, sent: Sent | undefined, requests: StepRequest[], index: number, tokenEndpoints: string[]) {
  const credential = CREDENTIALS[id];
  if (!sent) return [`sends no ${credential.where.name} (the ${credential.scheme} credential the suite sends)`];
  const prefix = credential.where.in === 'header' ? (credential.where.prefix ?? '') : '';
  const head = sent.value[0];
  const rest = prefix ? (head && 'text' in head && head.text === prefix ? sent.value.slice(1) : undefined) : sent.value;
  if (!rest) return [`sends ${sent.name} without the "${prefix.trim()}" prefix the suite sends`];
  if (id === 'bearer') {
    const from = earlierStep(requests, index, variableOf(rest));
    return from && tokenEndpoints.includes(from.operationId)
      ? []
      : [`sends a bearer token that is not the output of an earlier token request (${text(sent.value)})`];
  }
  const expected = credential.variables[0]!;
  return variableOf(rest) === expected ? [] : [`sends ${sent.name} as ${text(rest)}, where the suite sends ${expected}`];
}

/** The differences of one step from the suite's valid request of its operation. */
function stepProblems(requests: StepRequest[], index: number, model: ModelEntry[], tokenEndpoints: string[]): string[] {
  const request = requests[index]!;
  const entry = entryOfStep(request, model);
  if (!entry) return [`calls ${request.operationId}, which the suite's model has no entry for`];
  const sent = sentBy(request, entry);
  const problems: string[] = [];
  const credentials = new Set([...entry.credentials, ...entry.optional]);
  for (const s of sent) {
    const parameter = entry.parameters.find((p) => same(p, asParameter(s)));
    if (!parameter) problems.push(`sends ${s.place} ${s.name}, which ${entry.operationId} does not document`);
    else if (parameter.credential && !credentials.has(parameter.credential))
      problems.push(`sends the ${parameter.credential} credential, which no security requirement of ${entry.operationId} carries`);
  }
  for (const parameter of entry.parameters) {
    const step = sent.find((s) => same(asParameter(s), parameter));
    if (parameter.credential) {
      if (entry.credentials.includes(parameter.credential) || step)
        problems.push(...credentialProblems(parameter.credential, step, requests, index, tokenEndpoints));
      continue;
    }
    const value = parameterValue(entry, parameter);
    if (!value) continue; // the suite's valid request leaves it out; a step may send it (checked above)
    if (!step) {
      problems.push(`leaves out ${parameter.in} ${parameter.name}, which the suite's valid request sends`);
      continue;
    }
    const variable = (value as Partial<VariableValue>).variable;
    if (variable && variableOf(step.value) !== variable)
      problems.push(`sends ${parameter.name} as ${text(step.value)}, where the suite sends ${variable}`);
    const from = (value as Partial<EarlierValue>).from;
    if (from && earlierStep(requests, index, variableOf(step.value))?.operationId !== from)
      problems.push(`takes ${parameter.name} from ${text(step.value)}, where the suite takes it from an earlier ${from}`);
    if (!variableOf(step.value) && !allows(parameter.schema, text(step.value)))
      problems.push(`sends ${parameter.name} as "${text(step.value)}", which its schema does not allow`);
  }
  return problems.map((problem) => `step ${request.stepId} (${request.operationId}): ${problem}`);
}

/** Every difference of a workflow's steps from the suite's valid requests, each naming the workflow and step. */
export function driftProblems(workflow: Workflow, requests: StepRequest[], model: ModelEntry[], tokenEndpoints: string[]): string[] {
  return requests.flatMap((_, index) => stepProblems(requests, index, model, tokenEndpoints)).map((p) => `${workflow.workflowId}, ${p}`);
}
