// The fetch every request of the suite goes through (the typed client's and plain fetch's alike): it finds the
// operation, checks the response against the spec, sorts what broke into violations and contradicted assumptions,
// records the exchange and the assumptions it confirmed or contradicted, and learns issued tokens for redaction.
import { expect } from 'vitest';
import { capabilityOf } from './capabilities.ts';
import { inspectResponse, mediaTypeOf } from '../judge/conformance.ts';
import { record, reportContradictions, reportProblems, type Observed } from './ledger.ts';
import { redactorFor } from './redact.ts';
import { operations, type Operation } from './spec.ts';
import { target, type Target } from './target.ts';
import { disclosures, learnAccepted } from '../judge/disclosure.ts';
import { type Evidence, evidenceOf } from './evidence.ts';
import { promiseOf } from '../judge/promises.ts';
import { CouldNotJudge, readTransportSettings, Transport, type TransportStats } from './transport.ts';
import { verdictOf, type Contradiction } from '../judge/verdicts.ts';

export const redactor = redactorFor(target);

/**
 * The one transport of this worker: every attempt has a deadline, throttling and transient faults are waited out or
 * end as "could not judge", and the requests in flight are bounded (config/environment.ts: LP_CONTRACT_*).
 */
const settings = readTransportSettings();
// Only a live run has several workers (contract-tests/vitest.config.ts); each takes its share of the bounds.
export const transport = new Transport({ ...settings, workers: target.name === 'live' ? settings.workers : 1 });

export function findOperation(forTarget: Target, method: string | undefined, url: string): Operation | undefined {
  const { pathname } = new URL(url);
  return operations.find((op) => {
    if (method !== undefined && op.method !== method.toUpperCase()) return false;
    const base = forTarget.env[op.baseVariable];
    if (!base) return false;
    const prefix = new URL(base).pathname.replace(/\/+$/, '');
    if (new URL(base).origin !== new URL(url).origin || !pathname.startsWith(prefix)) return false;
    return op.pathPattern.test(pathname.slice(prefix.length));
  });
}

/** The security schemes whose credentials a request carries, e.g. "OAuth2+SubscriptionKey", or "none". */
export function schemesOf(headers: Headers): string {
  const used: string[] = [];
  if (/^bearer\s/i.test(headers.get('authorization') ?? '')) used.push('OAuth2');
  if (headers.has('api-key')) used.push('FleetApiKey');
  if (headers.has('ocp-apim-subscription-key')) used.push('SubscriptionKey');
  return used.length ? used.join('+') : 'none';
}

/** Tokens the run obtained: redacted everywhere, and `$LP_ACCESS_TOKEN` in a reproduction. */
const learnedTokens = new Set<string>();

function learnCredentials(bodyText: string, location: string | null): void {
  try {
    const body = JSON.parse(bodyText) as Record<string, unknown>;
    for (const field of ['access_token', 'refresh_token', 'id_token']) {
      if (typeof body[field] === 'string') {
        redactor.add(body[field]);
        learnedTokens.add(body[field]);
      }
    }
  } catch {
    // not JSON: nothing to learn
  }
  if (location && URL.canParse(location)) redactor.add(new URL(location).searchParams.get('code') ?? undefined);
}

const currentTest = () => expect.getState().currentTestName ?? '(outside a test)';

export interface Exchange {
  response: Response;
  operation: Operation | undefined;
  bodyText: string;
  /** Contract violations of this response (redacted): they fail the check. */
  problems: string[];
  /** Assumptions of the specs this response differs from: reported, failing only in strict runs. */
  contradictions: Contradiction[];
  /** What the server did, redacted, for the reports' evidence. */
  observed: Observed;
}

const BODY_EXCERPT = 200;

/** Method, path, status, content type and the start of the body, redacted: what a report may show of an exchange. */
function observedOf(request: Request, response: Response, bodyText: string): Observed {
  const url = new URL(request.url);
  // Query values may carry a state or a challenge; the names are enough to tell the requests apart.
  const query = [...new Set(url.searchParams.keys())].join('&');
  return {
    request: redactor.redact(`${request.method} ${url.pathname}${query ? `?${query}` : ''}`),
    status: response.status,
    contentType: mediaTypeOf(response.headers.get('content-type')) || '(none)',
    // Redacted whole before it is cut, so that no cut leaves part of a credential behind.
    body: redactor.redact(bodyText).replace(/\s+/g, ' ').slice(0, BODY_EXCERPT),
  };
}

/** The stats worth recording: only what differs from one plain attempt. */
function transportNote(stats: TransportStats): Partial<TransportStats> | undefined {
  const note: Partial<TransportStats> = {};
  for (const [key, value] of Object.entries(stats) as [keyof TransportStats, number][])
    if (value && !(key === 'requests' || (key === 'attempts' && value === 1))) note[key] = Math.round(value);
  return Object.keys(note).length ? note : undefined;
}

/**
 * Sends through the transport; a request that ends without an answer to judge is recorded, then thrown on. Exported
 * for probes of addresses no operation documents, whose answers are not checked against the spec.
 */
export async function sendOrRecord(request: Request) {
  try {
    return await transport.send(request);
  } catch (error) {
    if (error instanceof CouldNotJudge) {
      const message = redactor.redact(error.message);
      record({
        kind: 'unjudged',
        request: redactor.redact(`${request.method} ${new URL(request.url).pathname}`),
        reason: error.kind,
        message,
        test: currentTest(),
        ...(error.stats ? { transport: transportNote(error.stats) } : {}),
      });
      throw new CouldNotJudge(error.kind, message);
    }
    throw error;
  }
}

/** The raw last exchange of each running check, turned into evidence only when the check fails. */
type RawExchange = {
  request: { method: string; url: string; headers: Headers; body: string };
  answer: { status: number; contentType: string; body: string };
  /** The operation the request addressed, when the specs have one at its address. */
  operationId?: string;
};
/** The recent exchanges of each running check (the last 30), so that a failed check can show the one that broke it. */
const recentExchanges = new Map<string, RawExchange[]>();
const RECENT = 30;

const evidenceOfRaw = (raw: RawExchange): Evidence => evidenceOf(raw.request, raw.answer, learnedTokens, (text) => redactor.redact(text));

/** Forgets a check's recent exchanges (it ended without a failure to show them for). */
export function forgetExchanges(test: string): void {
  recentExchanges.delete(test);
}

/** What a failed check says of the answer that broke it, to pick that exchange as its example. */
export interface ExampleHint {
  /** The failure's first line: a value it quotes ('V-000002') is looked for in the answers. */
  message: string;
  /** Values whose presence in an accepted answer is the broken promise (another lessee's vehicle or customer number). */
  shown?: string[];
}

/**
 * The example of a failed check and its operation (and forgets the check's exchanges): the latest exchange whose
 * answer shows a value the failure quotes, else the latest accepted answer showing one of `hint.shown`, else the last
 * exchange (with concurrent requests, not necessarily the one that failed).
 */
export function takeExample(test: string, hint?: ExampleHint): { evidence: Evidence; operationId?: string } | undefined {
  const recent = recentExchanges.get(test) ?? [];
  forgetExchanges(test);
  const quoted = [...(hint?.message ?? '').matchAll(/'([^'\n]{3,})'|"([^"\n]{3,})"/g)].map((m) => m[1] ?? m[2]!);
  const latest = (match: (raw: RawExchange) => boolean) => recent.findLast(match);
  const raw =
    (quoted.length ? latest((r) => quoted.some((value) => r.answer.body.includes(value))) : undefined) ??
    (hint?.shown?.length
      ? latest((r) => r.answer.status < 300 && hint.shown!.some((value) => value && r.answer.body.includes(value)))
      : undefined) ??
    recent.at(-1);
  return raw && { evidence: evidenceOfRaw(raw), ...(raw.operationId ? { operationId: raw.operationId } : {}) };
}

/** What the request carried that an answer may name back: its URL (decoded too) and its body. */
function requestText(request: Request, body: string): string {
  const url = request.url;
  let decoded = url;
  try {
    decoded = decodeURIComponent(url);
  } catch {
    // a malformed percent-encoding: the raw URL is all there is
  }
  return `${url}\n${decoded}\n${body}\n${[...request.headers.values()].join('\n')}`;
}

/** Sends a request, checks and records the answer; the returned response's body is still unread. */
/** The negative-space dimensions a request can be part of, for the coverage report (operation × dimension). */
export type Dimension = 'authentication' | 'content types' | 'methods' | 'unicode' | 'combinations';

export async function exchange(input: Request | string | URL, init?: RequestInit, meta: { dimension?: Dimension } = {}): Promise<Exchange> {
  const request = new Request(input, init);
  const { response, stats } = await sendOrRecord(request);
  const bodyText = await response.clone().text();
  // Read once: the disclosure check and a violation's evidence both need what the request carried.
  const requestBody = request.body ? await request.clone().text() : '';
  learnCredentials(bodyText, response.headers.get('location'));
  const operation = findOperation(target, request.method, request.url);
  const path = new URL(request.url).pathname;
  // A method the path does not document has no answer in the spec to match: only "no 5xx" holds for it (a 405 or
  // any other 4xx is the server's to choose). An address no path of the spec has is a violation in itself.
  const pathOnly = operation ? undefined : findOperation(target, undefined, request.url);
  const verdict = operation
    ? verdictOf(operation.api, inspectResponse(operation, { status: response.status, headers: response.headers, bodyText }))
    : {
        violations: pathOnly
          ? response.status >= 500
            ? [`${request.method} ${path} (a method the path does not document) answered ${response.status}: a server error`]
            : []
          : [`${request.method} ${path} answered ${response.status}: no operation of the spec has this address`],
        contradictions: [],
        confirmed: [],
      };
  // Refusals disclose nothing (support/disclosure.ts): judged against what the run's accepted answers showed.
  if (operation && response.status < 400) learnAccepted(operation.operationId, bodyText, response.headers.get('location'));
  if (operation && response.status >= 400 && response.status < 500)
    verdict.violations.push(...disclosures(operation, requestText(request, requestBody), response.status, bodyText));
  const problems = verdict.violations.map((problem) => redactor.redact(problem));
  const raw: RawExchange = {
    request: { method: request.method, url: request.url, headers: request.headers, body: requestBody },
    answer: { status: response.status, contentType: mediaTypeOf(response.headers.get('content-type')) || '(none)', body: bodyText },
    ...((operation ?? pathOnly) ? { operationId: (operation ?? pathOnly)!.operationId } : {}),
  };
  const recent = recentExchanges.get(currentTest()) ?? [];
  recent.push(raw);
  if (recent.length > RECENT) recent.shift();
  recentExchanges.set(currentTest(), recent);
  // Each broken promise of the answer, with what shows it (grouped by promise in violations.json).
  if (problems.length) {
    const evidence = evidenceOfRaw(raw);
    for (const problem of problems)
      record({
        kind: 'violation',
        test: currentTest(),
        promise: promiseOf(problem.replace(/^(\S+) answered \d+: /, '$1: '), 'answer', raw.operationId),
        from: 'answer',
        message: problem,
        evidence,
      });
  }
  const contradictions = verdict.contradictions.map((c) => ({ ...c, problems: c.problems.map((p) => redactor.redact(p)) }));
  const observed = observedOf(request, response, bodyText);
  reportProblems(problems);
  reportContradictions(
    contradictions.map((c) => `${c.problems.join('; ')} (assumed at ${c.assumption.api}#${c.assumption.pointer}: ${c.assumption.what})`),
  );
  const test = currentTest();
  record({
    kind: 'exchange',
    operationId: operation?.operationId ?? (pathOnly ? `${pathOnly.operationId} (${request.method})` : `${request.method} ${path}`),
    status: response.status,
    scheme: schemesOf(request.headers),
    problems,
    test,
    transport: transportNote(stats),
    ...(meta.dimension ? { dimension: meta.dimension } : {}),
  });
  // The Prism mock answers from the spec itself: what it sends confirms or contradicts nothing.
  if (capabilityOf(target.name).hasDataSemantics) {
    for (const { assumption, problems: broken } of contradictions) {
      record({
        kind: 'assumption',
        api: assumption.api,
        pointer: assumption.pointer,
        match: assumption.what,
        outcome: 'contradicted',
        evidence: broken.join('; '),
        observed,
        test,
      });
    }
    for (const assumption of verdict.confirmed) {
      record({
        kind: 'assumption',
        api: assumption.api,
        pointer: assumption.pointer,
        match: assumption.what,
        outcome: 'confirmed',
        evidence: `${observed.request} answered ${observed.status} ${observed.contentType} as assumed`,
        observed,
        test,
      });
    }
  }
  return { response, operation, bodyText, problems, contradictions, observed };
}

/** A fetch-compatible function for the typed client and for plain requests. */
export const contractFetch = async (input: Request | string | URL, init?: RequestInit): Promise<Response> =>
  (await exchange(input, init)).response;
