// What a workflow run found, step by step, from Respect's (already redacted) JSON log and the suite's verdicts on each
// answer (step-conformance.ts): a step passed (noting the x-assumptions its answer contradicted); failed, with the
// documented fact it broke (its promise), the checks that broke it, the request, the answer and a curl to repeat it;
// could not be judged (the target unreachable, a timeout, throttled, a precondition of the target unmet), with why; or
// was skipped, with why. The outcomes read like the contract suite's: a violation, a contradicted assumption (a
// failure only when strict), "could not judge", a skip.
import { seedSections } from '../../spec-core/seed-sections.ts';
import type { Workflow, WorkflowStep } from '../../spec-core/workflows.ts';
import type { TargetEnv } from '../../tools/targets.ts';
import { curlOf } from '../../tools/workflows/curl.ts';
import type { StepRequest } from '../../tools/workflows/step-request.ts';
import { namedByVariable } from './redaction.ts';
import type { RespectStep } from './respect.ts';
import type { StepConformance, StepContradiction } from './step-conformance.ts';

export interface StepRequestRecord {
  method: string;
  /** The base URL named by its LP_* variable (`$LP_BASE_URL/token`). */
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

export interface StepAnswer {
  status: number;
  contentType: string;
  /** The body as text, cut at 600 characters. */
  body: string;
}

interface StepBase {
  stepId: string;
  operationId: string;
}

export type StepResult = StepBase &
  (
    | { outcome: 'passed'; contradicted?: StepContradiction[]; answer?: StepAnswer }
    | {
        outcome: 'failed';
        promise: string;
        broken: string[];
        request: StepRequestRecord;
        answer: StepAnswer;
        curl: string;
        contradicted?: StepContradiction[];
      }
    | { outcome: 'unjudged'; reason: string; request?: StepRequestRecord; answer?: StepAnswer }
    | { outcome: 'skipped'; reason: string }
  );

export type StepOutcome = StepResult['outcome'];

/** Respect's checks that report an exchange it never got (no answer to judge). */
const NO_ANSWER = new Set(['failed network request', 'unexpected error', 'global timeout error', 'maximum steps reached']);

/** One line, at most `max` characters. */
const line = (text: string, max = 300) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
};

/** The documented fact a step states, in the words the suite's violations use. */
export function promiseOf(step: WorkflowStep): string {
  const title = step.section ? seedSections()[step.section]?.title : undefined;
  return step.section
    ? `Published documentation, section ${step.section}${title ? ` (${title})` : ''}: ${step.description}`
    : step.description;
}

/** Respect's message without the code frame it draws under a schema error. */
const withoutCodeFrame = (message: string) => message.split(/\n\s*>?\s*\d+ \|/)[0]!;

/** A failed check in one line: which check, and Respect's message or the criterion that did not hold. */
function brokenCheck(check: RespectStep['checks'][number]): string {
  if (check.name === 'success criteria check') return `success criterion does not hold: ${check.condition ?? line(check.message ?? '')}`;
  if (NO_ANSWER.has(check.name)) return `the workflow could not read the answer: ${line(check.message || check.name)}`;
  return `${check.name}: ${line(withoutCodeFrame(check.message || 'failed'))}`;
}

function requestOf(step: RespectStep, env: TargetEnv, server: string): StepRequestRecord | undefined {
  if (!step.request) return undefined;
  const { method, url, headers = {}, body } = step.request;
  return { method: method.toUpperCase(), url: namedByVariable(url, env, server), headers, ...(body === undefined ? {} : { body }) };
}

function answerOf(step: RespectStep): StepAnswer | undefined {
  if (!step.response) return undefined;
  const { statusCode, body, headers = {} } = step.response;
  const text = typeof body === 'string' ? body : JSON.stringify(body ?? '');
  return { status: statusCode, contentType: headers['content-type'] ?? '', body: text.length > 600 ? `${text.slice(0, 597)}...` : text };
}

/** Why a step with an answer could not be judged, or undefined: no answer, throttled, or (with no violation to
 * report) a precondition of the target unmet. */
function unjudgedReason(step: RespectStep, definition: WorkflowStep, failed: RespectStep['checks'], violated: boolean): string | undefined {
  // Respect records a request it got no answer to with status 0.
  if (!step.response?.statusCode) {
    const noAnswer = failed.find((check) => NO_ANSWER.has(check.name));
    return `no answer to judge: ${line(noAnswer?.message || noAnswer?.name || 'Respect recorded none')}`;
  }
  if (step.response.statusCode === 429) return 'throttled: the target answered 429 (Too Many Requests); try again later';
  if (violated) return undefined;
  // An unmet precondition of the target (an empty fleet) makes the rest of the step meaningless, not wrong.
  const preconditions = new Map(
    definition.successCriteria.filter((c) => c['x-precondition']).map((c) => [c.condition, c['x-precondition']!]),
  );
  const unmet = failed.find((check) => check.condition !== undefined && preconditions.has(check.condition));
  return unmet ? `a precondition of the target is unmet: ${preconditions.get(unmet.condition!)}` : undefined;
}

export interface StepContext {
  env: TargetEnv;
  request: StepRequest;
  /** What the redirect receiver noticed (for the authorize step), added to what broke. */
  notes: string[];
  /** The suite's verdicts on the step's answer; undefined when it got none, or the answer is not the target's. */
  conformance?: StepConformance;
  /** A strict run: a contradicted assumption fails the step, as it fails a check of the suite. */
  strict: boolean;
}

/** Respect's failed checks that count (the severities it was told to ignore do not). */
const failedChecks = (step: RespectStep) =>
  step.checks.filter((check) => !check.passed && check.severity !== 'warn' && check.severity !== 'off');

/** What broke: Respect's checks (the success criteria), the suite's violations, and in a strict run its contradictions. */
function brokenOf(failed: RespectStep['checks'], context: StepContext): string[] {
  const { violations = [], contradicted = [] } = context.conformance ?? {};
  const more = (n: number) => (n > 1 ? ` (and ${n - 1} more like it)` : '');
  const strictly = context.strict
    ? contradicted.map(
        (c) => `contradicted assumption (a strict run fails on it): ${line(c.what, 160)}: ${c.problems[0]}${more(c.problems.length)}`,
      )
    : [];
  return [...failed.map(brokenCheck), ...violations.map((violation) => `documented answer: ${violation}`), ...strictly];
}

/** The result of one step Respect ran. */
export function stepResult(step: RespectStep, definition: WorkflowStep, context: StepContext): StepResult {
  const base = { stepId: definition.stepId, operationId: definition.operation.operationId };
  const failed = failedChecks(step);
  const contradicted = context.conformance?.contradicted ?? [];
  const noted = contradicted.length > 0 ? { contradicted } : {};
  const broken = brokenOf(failed, context);
  const request = requestOf(step, context.env, context.request.server);
  const answer = answerOf(step);
  if (broken.length === 0) return { ...base, outcome: 'passed', ...noted, ...(contradicted.length > 0 && answer ? { answer } : {}) };
  const reason = unjudgedReason(step, definition, failed, (context.conformance?.violations.length ?? 0) > 0);
  if (reason || !request || !answer)
    return {
      ...base,
      outcome: 'unjudged',
      reason: reason ?? 'Respect recorded no exchange for this step',
      ...(request ? { request } : {}),
      ...(answer ? { answer } : {}),
    };
  const notes = context.request.redirects ? context.notes : [];
  const promise = promiseOf(definition);
  return { ...base, outcome: 'failed', promise, broken: [...broken, ...notes], request, answer, curl: curlOf(context.request), ...noted };
}

/** Every step of the workflow: those Respect ran, then those it did not reach, skipped with why. */
export function workflowSteps(workflow: Workflow, ran: RespectStep[], contexts: StepContext[]): StepResult[] {
  const results: StepResult[] = [];
  for (const [index, definition] of workflow.steps.entries()) {
    const step = ran.find((s) => s.stepId === definition.stepId);
    const before = results.find((r) => r.outcome !== 'passed');
    if (step) results.push(stepResult(step, definition, contexts[index]!));
    else
      results.push({
        stepId: definition.stepId,
        operationId: definition.operation.operationId,
        outcome: 'skipped',
        reason: before ? `not run: step ${before.stepId} before it did not pass` : 'not run: Respect ended the workflow before it',
      });
  }
  return results;
}

/** Every step skipped (or not judged) for one reason: a workflow that did not run. */
export const allSteps = (workflow: Workflow, outcome: 'skipped' | 'unjudged', reason: string): StepResult[] =>
  workflow.steps.map((step) => ({ stepId: step.stepId, operationId: step.operation.operationId, outcome, reason }));
