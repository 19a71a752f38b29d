// The kit's checks of the Arazzo workflows against the bundles, which Redocly's Arazzo rules do not make (`npm run
// lint` runs both): every operationId names an operation of the specs, every parameter and body field is one the
// operation defines (or a server variable of it, filled from the LP_* variable its description names), and every
// runtime expression points at something defined: a declared input, an earlier step's output, a documented answer's
// field or header, a documented status. Each problem names the file, line and column, as Redocly's lint does.
import { LineCounter, parseDocument } from 'yaml';
import type { ApiName } from './apis.ts';
import type { PathOperation } from './operations.ts';
import {
  documentsHeader,
  documentsStatus,
  mediaSchemas,
  parametersOf,
  schemaHasPointer,
  securityHeaders,
  serverVariables,
  successResponses,
} from './workflow-operations.ts';
import { findOperation, readWorkflow, stepOperation } from './workflows.ts';

type Json = Record<string, any>;
type Path = Array<string | number>;

export interface WorkflowProblem {
  file: string;
  line: number;
  column: number;
  rule: string;
  message: string;
}

/** Runtime expressions in a value: `$inputs.x`, `$steps.a.outputs.b`, `$response.body#/0/vin`, `$statusCode` ... */
const EXPRESSION =
  /\$(?:inputs|steps|response|request|statusCode|url|method|outputs|workflows|components|sourceDescriptions|faker)\b[\w.\-#/~]*/g;

/** Every string in a value, with its path below `at`. */
function strings(value: unknown, at: Path): Array<{ text: string; at: Path }> {
  if (typeof value === 'string') return [{ text: value, at }];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => strings(child, [...at, Array.isArray(value) ? Number(key) : key]));
}

interface StepScope {
  doc: Json;
  operation: PathOperation;
  inputs: Json;
  /** Outputs of the steps before this one, by stepId. */
  earlier: Map<string, Set<string>>;
}

/** Why an expression names nothing defined, or undefined when it is fine. */
function undefinedIn(expression: string, scope: StepScope): string | undefined {
  const [head, pointer] = expression.split('#');
  const parts = head!.split('.');
  if (parts[0] === '$inputs') {
    const declared = parts.slice(1).reduce<Json | undefined>((schema, name) => schema?.properties?.[name], scope.inputs);
    return declared ? undefined : `${expression}: no such input is declared in the workflow's inputs`;
  }
  if (parts[0] === '$steps') {
    const outputs = scope.earlier.get(parts[1]!);
    if (!outputs) return `${expression}: no earlier step "${parts[1]}" in this workflow`;
    return parts[2] === 'outputs' && outputs.has(parts[3]!) && parts.length === 4
      ? undefined
      : `${expression}: step "${parts[1]}" has no such output`;
  }
  if (head === '$response.body') return undefinedInBody(pointer ?? '', scope, expression);
  if (parts[0] === '$response' && parts[1] === 'header' && parts.length === 3)
    return documentsHeader(scope.doc, scope.operation, parts[2]!) ? undefined : `${expression}: no documented answer has this header`;
  if (['$statusCode', '$url', '$method'].includes(head!) || head!.startsWith('$request.')) return undefined;
  return `${expression}: not an expression the kit's workflows use ($inputs, $steps, $response, $request, $statusCode)`;
}

function undefinedInBody(pointer: string, { doc, operation }: StepScope, expression: string): string | undefined {
  const schemas = successResponses(doc, operation).flatMap((response) => [...mediaSchemas(doc, response).values()]);
  return schemas.some((schema) => schemaHasPointer(doc, schema, pointer))
    ? undefined
    : `${expression}: no documented success answer of ${operation.op.operationId} has ${pointer || 'a body'}`;
}

/** `$statusCode == 200` with a status the operation does not document. */
function undocumentedStatuses(text: string, operation: PathOperation): string[] {
  return [...text.matchAll(/\$statusCode\s*===?\s*(\d{3})/g)]
    .map((match) => match[1]!)
    .filter((status) => !documentsStatus(operation, status))
    .map((status) => `$statusCode == ${status}: ${operation.op.operationId} documents no ${status}`);
}

/** A step's parameters: each one the operation defines, or a header of its security schemes. */
function parameterProblems(step: Json, scope: StepScope): Array<{ at: Path; message: string }> {
  const defined = parametersOf(scope.doc, scope.operation);
  const headers = securityHeaders(scope.doc, scope.operation).map((name) => name.toLowerCase());
  return ((step.parameters ?? []) as Json[]).flatMap((parameter, index) => {
    const name = String(parameter.name);
    const known =
      defined.some((p) => p.name === name && p.in === parameter.in) || (parameter.in === 'header' && headers.includes(name.toLowerCase()));
    return known
      ? []
      : [
          {
            at: ['parameters', index, 'name'],
            message: `${parameter.in} parameter "${name}" is not defined by ${scope.operation.op.operationId}`,
          },
        ];
  });
}

/** A step's request body: a media type the operation takes, and only fields its schema defines. */
function bodyProblems(step: Json, scope: StepScope): Array<{ at: Path; message: string }> {
  if (!step.requestBody) return [];
  const schemas = mediaSchemas(scope.doc, scope.operation.op.requestBody);
  const type = String(step.requestBody.contentType ?? '');
  if (!schemas.has(type))
    return [{ at: ['requestBody', 'contentType'], message: `${scope.operation.op.operationId} takes no ${type} body` }];
  const payload = step.requestBody.payload;
  if (payload === null || typeof payload !== 'object') return [];
  return Object.keys(payload)
    .filter((field) => !schemaHasPointer(scope.doc, schemas.get(type), `/${field}`))
    .map((field) => ({
      at: ['requestBody', 'payload', field],
      message: `the ${type} body of ${scope.operation.op.operationId} has no field "${field}"`,
    }));
}

/** Every runtime expression of a step (parameters, body, criteria, outputs) and every status its criteria compare. */
function expressionProblems(step: Json, scope: StepScope): Array<{ at: Path; message: string }> {
  const places = ['parameters', 'requestBody', 'successCriteria', 'outputs'].flatMap((key) => strings(step[key], [key]));
  return places.flatMap(({ text, at }) => [
    ...[...text.matchAll(EXPRESSION)].flatMap((match) => {
      const why = undefinedIn(match[0], scope);
      return why ? [{ at, message: why }] : [];
    }),
    ...undocumentedStatuses(text, scope.operation).map((message) => ({ at, message })),
  ]);
}

export interface WorkflowLintInput {
  file: string;
  text: string;
}

/** Problems of one workflow file against the bundles. */
export function lintWorkflow({ file, text }: WorkflowLintInput, bundles: Record<ApiName, Json>): WorkflowProblem[] {
  const lines = new LineCounter();
  const source = parseDocument(text, { lineCounter: lines });
  const problem = (at: Path, rule: string, message: string): WorkflowProblem => {
    const node = source.getIn(at, true) as { range?: [number, number] } | undefined;
    const { line, col } = lines.linePos(node?.range?.[0] ?? 0);
    return { file, line, column: col, rule, message };
  };
  let model: ReturnType<typeof readWorkflow>;
  try {
    model = readWorkflow(text, file);
  } catch (error) {
    return [problem([], 'workflow-operation-defined', (error as Error).message)];
  }
  const workflow = model.document.workflows[0] as Json;
  return [
    ...sourceProblems(model.document).map(({ at, message }) => problem(at, 'workflow-sources', message)),
    ...stepProblems(workflow, bundles, (at, rule, message) => problem(['workflows', 0, ...at], rule, message)),
  ];
}

/** The three APIs of the kit, each by its name, from the source under openapi/. */
function sourceProblems(document: Json): Array<{ at: Path; message: string }> {
  return ((document.sourceDescriptions ?? []) as Json[]).flatMap((source, index) =>
    source.type === 'openapi' && source.url === `../${source.name}/openapi.yaml`
      ? []
      : [
          {
            at: ['sourceDescriptions', index, 'url'],
            message: `source "${source.name}" must be type openapi with url ../${source.name}/openapi.yaml`,
          },
        ],
  );
}

type Report = (at: Path, rule: string, message: string) => WorkflowProblem;

function stepProblems(workflow: Json, bundles: Record<ApiName, Json>, report: Report): WorkflowProblem[] {
  const earlier = new Map<string, Set<string>>();
  const problems: WorkflowProblem[] = [];
  const operations: Array<{ doc: Json; operation: PathOperation }> = [];
  for (const [index, step] of ((workflow.steps ?? []) as Json[]).entries()) {
    const at = (path: Path): Path => ['steps', index, ...path];
    const { api, operationId } = stepOperation(step.operationId, `step ${step.stepId}`);
    const operation = findOperation(bundles, { api, operationId });
    if (!operation)
      problems.push(report(at(['operationId']), 'workflow-operation-defined', `the ${api} API has no operation ${operationId}`));
    else {
      const scope: StepScope = { doc: bundles[api], operation, inputs: workflow.inputs ?? {}, earlier };
      operations.push(scope);
      for (const { at: path, message } of parameterProblems(step, scope))
        problems.push(report(at(path), 'workflow-parameter-defined', message));
      for (const { at: path, message } of bodyProblems(step, scope)) problems.push(report(at(path), 'workflow-parameter-defined', message));
      for (const { at: path, message } of expressionProblems(step, scope))
        problems.push(report(at(path), 'workflow-expression-defined', message));
    }
    earlier.set(String(step.stepId), new Set(Object.keys(step.outputs ?? {})));
  }
  return [...problems, ...serverVariableProblems(workflow, operations, report)];
}

/** Workflow-level parameters: each a server variable of a step's operation, filled from the LP_* variable it names. */
function serverVariableProblems(
  workflow: Json,
  operations: Array<{ doc: Json; operation: PathOperation }>,
  report: Report,
): WorkflowProblem[] {
  const variables = new Map<string, string | undefined>();
  for (const { doc, operation } of operations) for (const [name, lp] of serverVariables(doc, operation)) variables.set(name, lp);
  return ((workflow.parameters ?? []) as Json[]).flatMap((parameter, index) => {
    const lp = variables.get(String(parameter.name));
    if (parameter.in !== 'path' || !variables.has(String(parameter.name)))
      return [
        report(
          ['parameters', index, 'name'],
          'workflow-server-variable',
          `"${parameter.name}" is no server variable of the workflow's operations`,
        ),
      ];
    return parameter.value === `$inputs.env.${lp}`
      ? []
      : [
          report(
            ['parameters', index, 'value'],
            'workflow-server-variable',
            `{${parameter.name}} is filled from $inputs.env.${lp}, its description's variable`,
          ),
        ];
  });
}

/** One problem as a line of `npm run lint`'s output. */
export const formatProblem = (p: WorkflowProblem): string => `${p.file}:${p.line}:${p.column}  error  ${p.rule}  ${p.message}`;
