// A workflow step as the request a partner sends by hand: method, the server's LP_* variable, path, query, headers and
// body, each value either literal text or a named variable (an LP_* setting, a workflow input, an earlier step's
// output). The curl of the docs and of a failed step, and the Postman folders, are written from this one reading.
import { loadBundles } from '../../spec-core/bundles.ts';
import type { PathOperation } from '../../spec-core/operations.ts';
import { serverVariables } from '../../spec-core/workflow-operations.ts';
import { findOperation, type Workflow, type WorkflowStep } from '../../spec-core/workflows.ts';

type Json = Record<string, any>;

/** A piece of a value: literal text, or a variable (`LP_CLIENT_ID`, `EVENT_TIME`, `ACCESS_TOKEN`). */
export type Part = { text: string } | { variable: string };
export type Field = { name: string; value: Part[] };

export interface StepRequest {
  stepId: string;
  operationId: string;
  method: string;
  /** The LP_* variable of the operation's server (its base URL). */
  server: string;
  path: Part[];
  query: Field[];
  headers: Field[];
  body: { kind: 'form' | 'json'; contentType: string; fields: Field[] } | undefined;
  /** The operation answers with a redirect (3xx) that the partner's redirect URI receives. */
  redirects: boolean;
  /** Outputs later requests of the workflow use: the variable's name and where it comes from (`/access_token`, or '' for the whole body). */
  keeps: Array<{ variable: string; pointer: string }>;
}

/** `accessToken` -> `ACCESS_TOKEN`, the shell spelling of a name. */
export const shellName = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();

/** The variable a runtime expression stands for, or undefined when it is not one a request can carry. */
export function variableOf(expression: string): string | undefined {
  const env = /^\$inputs\.env\.(LP_\w+)$/.exec(expression);
  if (env) return env[1];
  const input = /^\$inputs\.(\w+)$/.exec(expression);
  if (input) return shellName(input[1]!);
  const output = /^\$steps\.[\w-]+\.outputs\.(\w+)$/.exec(expression);
  return output ? shellName(output[1]!) : undefined;
}

/** A step's value (a literal, a runtime expression, or text with `{$...}` embedded) as parts. */
export function partsOf(value: unknown): Part[] {
  const text = String(value);
  if (text.startsWith('$')) return [{ variable: variableOf(text) ?? text }];
  return text
    .split(/(\{\$[^{}]+\})/)
    .filter(Boolean)
    .map((piece) => (piece.startsWith('{$') ? { variable: variableOf(piece.slice(1, -1)) ?? piece } : { text: piece }));
}

const fields = (parameters: WorkflowStep['parameters'], where: string): Field[] =>
  parameters.filter((p) => p.in === where).map((p) => ({ name: p.name, value: partsOf(p.value) }));

function pathParts(path: string, parameters: WorkflowStep['parameters']): Part[] {
  return path
    .split(/(\{\w+\})/)
    .filter(Boolean)
    .flatMap((piece) => {
      const parameter = parameters.find((p) => p.in === 'path' && `{${p.name}}` === piece);
      return parameter ? partsOf(parameter.value) : [{ text: piece }];
    });
}

function bodyOf(step: WorkflowStep): StepRequest['body'] {
  if (!step.requestBody) return undefined;
  const { contentType, payload } = step.requestBody;
  const entries = Object.entries((payload ?? {}) as Json).map(([name, value]) => ({ name, value: partsOf(value) }));
  return { kind: contentType === 'application/json' ? 'json' : 'form', contentType, fields: entries };
}

/** The outputs of `step` that a later step's request (not only its checks) uses. */
function kept(workflow: Workflow, index: number): StepRequest['keeps'] {
  const later = JSON.stringify(workflow.steps.slice(index + 1).map((s) => [s.parameters, s.requestBody]));
  const step = workflow.steps[index]!;
  return Object.entries(step.outputs)
    .filter(([name]) => later.includes(`$steps.${step.stepId}.outputs.${name}`))
    .map(([name, expression]) => ({ variable: shellName(name), pointer: expression.split('#')[1] ?? '' }));
}

/** Each step of a workflow as the request it sends. */
export function stepRequests(workflow: Workflow, bundles: Record<string, Json> = loadBundles()): StepRequest[] {
  return workflow.steps.map((step, index) => {
    const found = findOperation(bundles as never, step.operation) as PathOperation | undefined;
    if (!found) throw new Error(`${workflow.file}: step ${step.stepId} calls ${step.operation.operationId}, which the specs lack`);
    const [server] = [...serverVariables(bundles[step.operation.api]!, found).values()];
    return {
      stepId: step.stepId,
      operationId: step.operation.operationId,
      method: found.method.toUpperCase(),
      server: server ?? 'LP_BASE_URL',
      path: pathParts(found.path, step.parameters),
      query: fields(step.parameters, 'query'),
      headers: fields(step.parameters, 'header'),
      body: bodyOf(step),
      redirects: Object.keys(found.op.responses ?? {}).some((status) => status.startsWith('3')),
      keeps: kept(workflow, index),
    };
  });
}
