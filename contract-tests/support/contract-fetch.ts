// The fetch every request of the suite goes through (the typed client's and plain fetch's alike): it finds the
// operation, checks the response against the spec, records the exchange and learns issued tokens for redaction.
import { expect } from 'vitest';
import { checkResponse } from './conformance.ts';
import { record, reportProblems } from './ledger.ts';
import { redactorFor } from './redact.ts';
import { operations, type Operation } from './spec.ts';
import { target, type Target } from './target.ts';

export const redactor = redactorFor(target);

// Every exchange has a deadline, so a hanging target fails a check instead of the whole run.
const REQUEST_TIMEOUT_MS = 15_000;

export function findOperation(forTarget: Target, method: string, url: string): Operation | undefined {
  const { pathname } = new URL(url);
  return operations.find((op) => {
    if (op.method !== method.toUpperCase()) return false;
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

function learnCredentials(bodyText: string, location: string | null): void {
  try {
    const body = JSON.parse(bodyText) as Record<string, unknown>;
    for (const field of ['access_token', 'refresh_token', 'id_token']) {
      if (typeof body[field] === 'string') redactor.add(body[field]);
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
  problems: string[];
}

/** Sends a request, checks and records the answer; the returned response's body is still unread. */
export async function exchange(input: Request | string | URL, init?: RequestInit): Promise<Exchange> {
  const request = new Request(input, init);
  const signal = AbortSignal.any([request.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]);
  const response = await fetch(new Request(request, { signal }));
  const bodyText = await response.clone().text();
  learnCredentials(bodyText, response.headers.get('location'));
  const operation = findOperation(target, request.method, request.url);
  const path = new URL(request.url).pathname;
  const problems = operation
    ? checkResponse(operation, { status: response.status, headers: response.headers, bodyText })
    : [`${request.method} ${path} answered ${response.status}: no operation of the spec has this address`];
  const redacted = problems.map((problem) => redactor.redact(problem));
  reportProblems(redacted);
  record({
    kind: 'exchange',
    operationId: operation?.operationId ?? `${request.method} ${path}`,
    status: response.status,
    scheme: schemesOf(request.headers),
    problems: redacted,
    test: currentTest(),
  });
  return { response, operation, bodyText, problems: redacted };
}

/** A fetch-compatible function for the typed client and for plain requests. */
export const contractFetch = async (input: Request | string | URL, init?: RequestInit): Promise<Response> =>
  (await exchange(input, init)).response;
