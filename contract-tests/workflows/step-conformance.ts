// Each step's answer judged as the contract suite judges every answer, by the suite's own code: judge/conformance.ts
// finds where the answer departs from the specs (status, content type, headers, and the body against its schema, open
// where the schema does not close it, as JSON Schema says) and judge/verdicts.ts sorts each departure into a contract
// violation or a contradicted x-assumption. Respect's checks of the same things are switched off (respect.ts), so the
// suite and the workflows share one definition of "conforms"; the success criteria stay Respect's.
import { type AssumptionSource, sourceOf } from '../../spec-core/assumptions.ts';
import { inspectResponse, type ObservedResponse } from '../judge/conformance.ts';
import { verdictOf } from '../judge/verdicts.ts';
import { operationById } from '../model/spec.ts';
import type { RespectStep } from './respect.ts';

/** An x-assumption a step's answer differs from, as the suite reports one. */
export interface StepContradiction {
  /** The assumption's words, and the section of the published documentation that leaves the point open. */
  what: string;
  seed: string;
  /** Where the answer differs, in the checker's words. */
  problems: string[];
  /** The spec file and pointer to change if the server is right. */
  spec?: AssumptionSource;
  /** Where it sits in the bundle: `<api>#<pointer>`. */
  bundle: string;
}

export interface StepConformance {
  /** Departures no x-assumption covers (and any 5xx): contract violations. */
  violations: string[];
  contradicted: StepContradiction[];
}

/** The media types Respect parses as JSON (and so records parsed); with no Content-Type it parses as JSON too. */
const RESPECT_PARSES_AS_JSON = /^application\/([a-z0-9.-]+\+)?json$/;

/**
 * The answer Respect recorded, as the checker reads an answer: the body as the text it came as. Respect records a JSON
 * body parsed and an empty one as `{}` (its size says 0); it replaces a secret inside a string with asterisks, which
 * keeps every value's type (tokens are the only values it masks, and the specs constrain them by type alone).
 */
export function observedAnswer(response: NonNullable<RespectStep['response']>): ObservedResponse {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers ?? {})) headers.append(name, value);
  const type = (headers.get('content-type') ?? '').split(';')[0]!;
  const { body } = response;
  const bodyText =
    response.size === 0 || body === undefined
      ? ''
      : RESPECT_PARSES_AS_JSON.test(type || 'application/json') || typeof body !== 'string'
        ? JSON.stringify(body)
        : body;
  return { status: response.statusCode, headers, bodyText };
}

/** The verdicts on one step's answer to `operationId`, from the specs alone. */
export function judgeStepAnswer(operationId: string, response: NonNullable<RespectStep['response']>): StepConformance {
  const operation = operationById(operationId);
  const verdict = verdictOf(operation.api, inspectResponse(operation, observedAnswer(response)));
  return {
    violations: verdict.violations,
    contradicted: verdict.contradictions.map(({ assumption, problems }) => {
      const spec = sourceOf(assumption);
      return {
        what: assumption.what.trim(),
        seed: assumption.seed,
        problems,
        ...(spec ? { spec } : {}),
        bundle: `${assumption.api}#${assumption.pointer}`,
      };
    }),
  };
}
