// Runs the documented flows (the Arazzo workflows published beside the bundles) against a target with Redocly Respect,
// one workflow at a time, and returns what each step did. The one call a contract run needs:
//   const run = await runWorkflows({ target: 'live', env: server.env, outputDir: join(out, 'workflows') });
// run.workflows holds per-workflow, per-step results (passed / failed with promise, request and answer / could not
// judge / skipped, with why; the x-assumptions each answer contradicted), run.exitCode the verdict (0 pass, 1
// violation, 2 could not judge); outputDir gets each workflow's Respect JSON log, a HAR built from it and Respect's
// console output, and workflows.json: all redacted.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { repoRoot } from '../../spec-core/apis.ts';
import { loadBundles } from '../../spec-core/bundles.ts';
import { loadWorkflows, publishedWorkflowPath, type Workflow } from '../../spec-core/workflows.ts';
import { integerVariable, strictByDefault, type TargetName } from '../../config/environment.ts';
import type { TargetEnv } from '../../tools/targets.ts';
import { stepRequests, type StepRequest } from '../../tools/workflows/step-request.ts';
import { harFromLog } from './har.ts';
import { type Approval, loopbackRedirectUri, probeApproval, type RedirectReceiver, startRedirectReceiver } from './redirect-receiver.ts';
import { harvestCredentials, workflowRedactor } from './redaction.ts';
import { type RespectLog, respectDeadlineMs, runRespect } from './respect.ts';
import { allSteps, type StepContext, type StepResult, workflowSteps } from './results.ts';
import { judgeStepAnswer, type StepConformance } from './step-conformance.ts';
import { summarize, type WorkflowOutcome, type WorkflowResult, type WorkflowsRun } from './workflow-verdict.ts';

export type { StepResult } from './results.ts';
export type { WorkflowOutcome, WorkflowResult, WorkflowsRun } from './workflow-verdict.ts';

export interface RunWorkflowsOptions {
  target: TargetName;
  /** The target's LP_* settings: what a started mock or sandbox printed, or the live environment's. */
  env: TargetEnv;
  /** Where the outputs go (emptied first): dist/contract/workflows/ for `npm run contract:workflows`. */
  outputDir: string;
  /** Only these workflowIds (default: every workflow). */
  only?: string[];
  /** Time one request may take; default LP_CONTRACT_TIMEOUT_MS (15 s), as in the contract suite. */
  requestTimeoutMs?: number;
  /** Told of each workflow as it ends (the console of contract:workflows). */
  onWorkflow?: (result: WorkflowResult) => void;
  /**
   * Whether a contradicted x-assumption fails its step, as `--strict-assumptions` makes it fail a check of the suite.
   * Default: as the suite's (strictByDefault, config/environment.ts): strict for every target but live, and for live
   * with LP_STRICT_ASSUMPTIONS=1.
   */
  strict?: boolean;
}

/** Operations that write: a workflow with one runs only behind the suite's write gate. */
const WRITE_OPERATIONS = new Set(['recordLoadMilestoneEvent']);

export const HAR_NOTE =
  "Built from Respect's JSON log: Respect's own HAR recorder sends every request on a connection of its own to the origin the step started at, so it neither follows a redirect to another origin (LP_REDIRECT_URI) nor goes through the proxy the environment names; the workflows run without it.";

/** Why a workflow cannot run against this target's settings, or undefined. */
function notRunnable(workflow: Workflow, env: TargetEnv): string | undefined {
  const missing = workflow.env.filter((input) => input.required && !env[input.name as keyof TargetEnv]).map((input) => input.name);
  if (missing.length > 0) return `needs ${missing.join(', ')} (not set)`;
  if (workflow.steps.some((step) => WRITE_OPERATIONS.has(step.operation.operationId)) && env.LP_ALLOW_WRITES !== '1')
    return 'records a milestone, which the kit does only with LP_ALLOW_WRITES=1 (for LP_TEST_LOAD_ID)';
  return undefined;
}

/** A request's URL with every variable filled in from the target's settings and the run's inputs. */
function urlOf(request: StepRequest, values: Record<string, string | undefined>): URL {
  const text = (parts: StepRequest['path']) => parts.map((p) => ('text' in p ? p.text : (values[p.variable] ?? ''))).join('');
  const url = new URL(`${values[request.server]?.replace(/\/$/, '')}${text(request.path)}`);
  for (const field of request.query) url.searchParams.append(field.name, text(field.value));
  return url;
}

interface Receiving {
  receiver?: RedirectReceiver;
  /** Why the workflow does not run (skipped), or could not be judged. */
  stop?: Approval & { approves: false };
}

/** For a workflow whose step redirects: whether the target approves unattended, and the receiver at the redirect URI. */
async function receiveRedirects(
  request: StepRequest,
  env: TargetEnv,
  state: string,
  timeoutMs: number,
  codes: string[],
): Promise<Receiving> {
  const redirectUri = loopbackRedirectUri(env.LP_REDIRECT_URI);
  if (!redirectUri)
    return {
      stop: {
        approves: false,
        reason:
          'LP_REDIRECT_URI is not a loopback http address with a port: Respect follows the redirect there, and only a redirect URI on this machine can be received by the run',
      },
    };
  const approval = await probeApproval(urlOf(request, { ...env, STATE: randomBytes(16).toString('hex') }), redirectUri, timeoutMs);
  if (!approval.approves) return { stop: approval };
  try {
    return { receiver: await startRedirectReceiver(redirectUri, state, (code) => codes.push(code)) };
  } catch (error) {
    return {
      stop: {
        approves: false,
        unjudged: true,
        reason: `could not listen at LP_REDIRECT_URI (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      },
    };
  }
}

interface RunContext {
  env: TargetEnv;
  outputDir: string;
  timeoutMs: number;
  eventTime: string;
  bundles: ReturnType<typeof loadBundles>;
  strict: boolean;
}

/**
 * The suite's verdicts on each step's answer, judged on Respect's log before the kit's redactor rewrites it (a redacted
 * value may not keep its shape), then redacted. None for a step without an answer to judge, a throttled one, one whose
 * body Respect did not keep (it keeps none when the step's outputs cannot be read: the step failed on that already),
 * or the step that follows a redirect: its answer is the page of the partner's application (the runner's receiver).
 */
function judgeAnswers(log: RespectLog | undefined, requests: StepRequest[], redact: (value: StepConformance) => StepConformance) {
  const ran = log ? stepsOf(log) : [];
  return requests.map((request) => {
    const response = ran.find((step) => step.stepId === request.stepId)?.response;
    if (!response?.statusCode || response.statusCode === 429 || request.redirects) return undefined;
    if (response.body === undefined && response.size !== 0) return undefined;
    return redact(judgeStepAnswer(request.operationId, response));
  });
}

/** Writes a workflow's redacted outputs (those it has) and returns their names, relative to `dir`. */
function writeOutputs(workflow: Workflow, dir: string, outputs: { log?: RespectLog; har?: object; console: string }) {
  const name = (ext: string) => `${workflow.workflowId}.${ext}`;
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  writeFileSync(join(dir, name('log')), outputs.console);
  if (outputs.log) writeFileSync(join(dir, name('json')), json(outputs.log));
  if (outputs.har) writeFileSync(join(dir, name('har')), json(outputs.har));
  return { log: name('log'), ...(outputs.log ? { json: name('json') } : {}), ...(outputs.har ? { har: name('har') } : {}) };
}

interface Prepared {
  file: string;
  requests: StepRequest[];
  state: string;
  /** The codes the redirect receiver got, to redact. */
  codes: string[];
  receiver: RedirectReceiver | undefined;
}

/** Respect on one workflow in a private directory; its outputs redacted into the output directory; its steps judged. */
async function respectRun(workflow: Workflow, context: RunContext, prepared: Prepared) {
  const { file, requests, state, codes, receiver } = prepared;
  const rawDir = mkdtempSync(join(tmpdir(), 'lp-workflow-'));
  try {
    const inputs = { eventTime: context.eventTime, state };
    const run = await runRespect({ file, rawDir, env: context.env, inputs, requestTimeoutMs: context.timeoutMs });
    const redactor = workflowRedactor(context.env, [...codes, ...harvestCredentials(run.log)]);
    const judged = judgeAnswers(run.log, requests, (value) => redactor.redactValue(value));
    const log = run.log ? redactor.redactValue(run.log) : undefined;
    const har = log ? harFromLog(log, HAR_NOTE, new Date()) : undefined;
    const files = writeOutputs(workflow, context.outputDir, { log, har, console: redactor.redact(run.output) });
    const contexts: StepContext[] = requests.map((request, i) => ({
      env: context.env,
      request,
      notes: receiver?.notes ?? [],
      ...(judged[i] ? { conformance: judged[i] } : {}),
      strict: context.strict,
    }));
    const steps = log
      ? workflowSteps(workflow, stepsOf(log), contexts)
      : allSteps(workflow, 'unjudged', respectFailure(run, context.timeoutMs, redactor.redact(run.output)));
    return { files, ...(har ? { harNote: HAR_NOTE } : {}), outcome: outcomeOf(steps), steps };
  } finally {
    rmSync(rawDir, { recursive: true, force: true });
  }
}

/** One workflow: skipped when the settings cannot run it; else the redirect receiver (if it needs one) and Respect. */
async function runOne(workflow: Workflow, context: RunContext): Promise<Omit<WorkflowResult, 'seconds'>> {
  const file = publishedWorkflowPath(workflow.name);
  const base = { workflowId: workflow.workflowId, title: workflow.title, file: relative(repoRoot, file), files: {} };
  const skip = notRunnable(workflow, context.env);
  if (skip) return { ...base, outcome: 'skipped', reason: skip, steps: allSteps(workflow, 'skipped', skip) };
  const requests = stepRequests(workflow, context.bundles);
  const redirecting = requests.find((request) => request.redirects);
  const state = randomBytes(16).toString('hex');
  const codes: string[] = [];
  const receiving = redirecting ? await receiveRedirects(redirecting, context.env, state, context.timeoutMs, codes) : {};
  if (receiving.stop) {
    const outcome = receiving.stop.unjudged ? 'unjudged' : 'skipped';
    return { ...base, outcome, reason: receiving.stop.reason, steps: allSteps(workflow, outcome, receiving.stop.reason) };
  }
  try {
    return {
      ...base,
      ...(await respectRun(workflow, context, { file, requests, state, codes, receiver: receiving.receiver })),
    };
  } finally {
    await receiving.receiver?.close();
  }
}

const stepsOf = (log: RespectLog) => Object.values(log.files).flatMap((f) => f.executedWorkflows.flatMap((w) => w.executedSteps));

/** Why Respect left no log: stopped, or its last words. */
function respectFailure(run: { timedOut: boolean; code: number | null }, timeoutMs: number, output: string): string {
  if (run.timedOut) return `Respect did not finish within ${respectDeadlineMs(timeoutMs) / 1000} s`;
  const last = output.trim().split('\n').filter(Boolean).at(-1) ?? '';
  return `Respect ended without a result (exit code ${run.code})${last ? `: ${last.trim().slice(0, 300)}` : ''}`;
}

/** A workflow's outcome from its steps: any violation fails it; else anything unjudged; else passed (or all skipped). */
export function outcomeOf(steps: StepResult[]): WorkflowOutcome {
  if (steps.some((s) => s.outcome === 'failed')) return 'failed';
  if (steps.some((s) => s.outcome === 'unjudged')) return 'unjudged';
  return steps.every((s) => s.outcome === 'skipped') ? 'skipped' : 'passed';
}

/** Runs the workflows against the target described by `env` (see the file's comment). */
export async function runWorkflows(options: RunWorkflowsOptions): Promise<WorkflowsRun> {
  const started = performance.now();
  rmSync(options.outputDir, { recursive: true, force: true });
  mkdirSync(options.outputDir, { recursive: true });
  const context: RunContext = {
    env: options.env,
    outputDir: options.outputDir,
    timeoutMs: options.requestTimeoutMs ?? integerVariable('LP_CONTRACT_TIMEOUT_MS', 15_000, 1),
    eventTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    bundles: loadBundles(),
    strict: options.strict ?? strictByDefault(options.target),
  };
  const results: WorkflowResult[] = [];
  for (const workflow of loadWorkflows().filter((w) => !options.only || options.only.includes(w.workflowId))) {
    const begin = performance.now();
    const result = { ...(await runOne(workflow, context)), seconds: (performance.now() - begin) / 1000 };
    results.push(result);
    options.onWorkflow?.(result);
  }
  const run = summarize(options.target, results, (performance.now() - started) / 1000, context.strict);
  writeFileSync(join(options.outputDir, 'workflows.json'), `${JSON.stringify(workflowRedactor(options.env).redactValue(run), null, 2)}\n`);
  return run;
}
