// The documented flows as Arazzo 1.0.1 workflows (openapi/workflows/*.arazzo.yaml): which files there are and in which
// order, each read into a model that the runner, the lint, the docs and the Postman collection share (its steps with
// the operation each one calls, the LP_* variables it reads), and the published copy of each file, which sits beside
// the bundles in dist/openapi/ and names them as its sources.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { parseYaml } from './yaml.ts';
import { API_NAMES, bundleDir, repoRoot, type ApiName } from './apis.ts';
import { operationsOf, type PathOperation } from './operations.ts';

type Json = Record<string, any>;

export const WORKFLOWS_DIR = join(repoRoot, 'openapi', 'workflows');

/** The workflow files in the order partners read them (docs, Postman): the 5.2 flows, then the fleet's. */
export const WORKFLOW_FILES = [
  'record-milestone-with-service-token.arazzo.yaml',
  'record-milestone-with-identity-provider-token.arazzo.yaml',
  'record-milestone-with-authorization-code.arazzo.yaml',
  'look-up-vehicle-from-list.arazzo.yaml',
] as const;

/** The operation a step calls, `$sourceDescriptions.<api>.<operationId>`, split into its parts. */
export interface StepOperation {
  api: ApiName;
  operationId: string;
}

export interface WorkflowStep {
  stepId: string;
  description: string;
  /** The section of the published documentation the step's facts come from (`x-documentation-section`). */
  section: string | undefined;
  operation: StepOperation;
  parameters: Array<{ name: string; in: string; value: unknown }>;
  requestBody: { contentType: string; payload: unknown } | undefined;
  successCriteria: Array<{ condition: string; context?: string; type?: string; 'x-precondition'?: string }>;
  outputs: Record<string, string>;
}

/** An LP_* variable a workflow reads (`inputs.properties.env`): Respect fills these from the environment. */
export interface EnvInput {
  name: string;
  required: boolean;
  /** `format: password`: Respect masks it in its output. */
  secret: boolean;
}

export interface Workflow {
  /** The source file, relative to the repository root. */
  file: string;
  /** The file's name, also the name of its published copy. */
  name: string;
  workflowId: string;
  title: string;
  summary: string;
  description: string;
  section: string | undefined;
  env: EnvInput[];
  /** The inputs other than `env` (a milestone's time, a state), which the runner passes on the command line. */
  inputs: string[];
  steps: WorkflowStep[];
  /** The parsed document, for readers that need more than the model. */
  document: Json;
}

const QUALIFIED = /^\$sourceDescriptions\.([\w-]+)\.([\w-]+)$/;

/** The API and operationId a step names; throws naming the step when it is not `$sourceDescriptions.<api>.<id>`. */
export function stepOperation(operationId: unknown, where: string): StepOperation {
  const match = QUALIFIED.exec(String(operationId ?? ''));
  if (!match || !(API_NAMES as readonly string[]).includes(match[1]!))
    throw new Error(`${where}: operationId must be $sourceDescriptions.<${API_NAMES.join('|')}>.<operationId>, got "${operationId}"`);
  return { api: match[1] as ApiName, operationId: match[2]! };
}

function readStep(step: Json, where: string): WorkflowStep {
  return {
    stepId: String(step.stepId),
    description: String(step.description ?? '').trim(),
    section: step['x-documentation-section'],
    operation: stepOperation(step.operationId, `${where} step ${step.stepId}`),
    parameters: step.parameters ?? [],
    requestBody: step.requestBody,
    successCriteria: step.successCriteria ?? [],
    outputs: step.outputs ?? {},
  };
}

function envInputs(inputs: Json | undefined): EnvInput[] {
  const env: Json = inputs?.properties?.env ?? {};
  const required = new Set<string>(env.required ?? []);
  return Object.entries<Json>(env.properties ?? {}).map(([name, schema]) => ({
    name,
    required: required.has(name),
    secret: schema.format === 'password',
  }));
}

/** One Arazzo document with one workflow, as the model; `file` names it in errors. */
export function readWorkflow(text: string, file: string): Workflow {
  const document = parseYaml(text) as Json;
  const [workflow, ...more] = (document.workflows ?? []) as Json[];
  if (!workflow || more.length > 0) throw new Error(`${file}: expected exactly one workflow`);
  const where = `${file} ${workflow.workflowId}`;
  return {
    file,
    name: basename(file),
    workflowId: String(workflow.workflowId),
    title: String(document.info?.title ?? ''),
    summary: String(workflow.summary ?? ''),
    description: String(workflow.description ?? '').trim(),
    section: workflow['x-documentation-section'],
    env: envInputs(workflow.inputs),
    inputs: Object.keys(workflow.inputs?.properties ?? {}).filter((name) => name !== 'env'),
    steps: ((workflow.steps ?? []) as Json[]).map((step) => readStep(step, where)),
    document,
  };
}

let cached: Workflow[] | undefined;

/** Every workflow of WORKFLOW_FILES, read once per process. */
export function loadWorkflows(): Workflow[] {
  cached ??= WORKFLOW_FILES.map((name) => {
    const path = join(WORKFLOWS_DIR, name);
    return readWorkflow(readFileSync(path, 'utf8'), relative(repoRoot, path));
  });
  return cached;
}

/** The operation a step calls, found in its API's bundle; undefined when the bundle has no such operationId. */
export function findOperation(bundles: Record<ApiName, Json>, { api, operationId }: StepOperation): PathOperation | undefined {
  return operationsOf(bundles[api]).find(({ op }) => op.operationId === operationId);
}

/** Where the published copy of a workflow file goes: beside the bundles it names. */
export const publishedWorkflowPath = (name: string, dir = bundleDir): string => join(dir, name);

/** The source's text for publication: each source description names the bundle beside it (`token.yaml`), not openapi/. */
export function publishedWorkflowText(text: string, file = 'workflow'): string {
  // The lines are rewritten in place, so the copy keeps the source's comments and layout.
  const published = text.replace(/^(\s+url:\s*)\.\.\/([\w-]+)\/openapi\.yaml[ \t]*$/gm, '$1$2.yaml');
  const urls = ((parseYaml(published) as Json).sourceDescriptions ?? []).map((source: Json) => String(source.url));
  const stray = urls.filter((url: string) => !API_NAMES.some((api) => url === `${api}.yaml`));
  if (stray.length > 0) throw new Error(`${file}: a source description names no API of the kit: ${stray.join(', ')}`);
  return published;
}

/** Writes the published copy of every workflow into `dir` (dist/openapi/ by default); returns the files written. */
export function writePublishedWorkflows(dir = bundleDir): string[] {
  mkdirSync(dir, { recursive: true });
  return WORKFLOW_FILES.map((name) => {
    const path = publishedWorkflowPath(name, dir);
    writeFileSync(path, publishedWorkflowText(readFileSync(join(WORKFLOWS_DIR, name), 'utf8'), name));
    return path;
  });
}
