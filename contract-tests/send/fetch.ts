// The one fetch every request of the suite goes through, whoever sends it: the published client, the model's
// `request()`, the raw sender. It sends through the transport, finds the operation at the request's address, learns the
// tokens and codes the target issues (so that they are redacted everywhere), and hands the exchange to every listener
// that subscribed before it returns. The fetch judges nothing itself: the suite's setup subscribes the judge
// (judge/judge-exchange.ts), which runs every applicable exchange check on every exchange and adds its findings; the
// fetch then records the exchange for the coverage and keeps it as evidence for a failed check.
import { currentTest } from './test-scope.ts';
import { baseUrlOf } from './base-urls.ts';
import { bodyBytes, bufferedBody } from './direct-fetch.ts';
import { type Evidence, evidenceOf } from './evidence.ts';
import type { Finding } from '../model/findings.ts';
import type { Observed } from './ledger.ts';
import { mediaTypeOf } from '../model/media-types.ts';
import { redactionWindow } from '../../src/redact.ts';
import { refusesBody } from '../../spec-core/http-methods.ts';
import { specOperations, type Operation } from '../model/spec.ts';
import { perRun } from './per-run.ts';
import type { Run } from './run.ts';
import type { Target } from './target.ts';
import { CouldNotJudge, type TransportStats } from './transport.ts';

export function findOperation(
  forTarget: Target,
  method: string | undefined,
  url: string | URL,
  within: Operation[] = specOperations(),
): Operation | undefined {
  const { pathname, origin } = typeof url === 'string' ? new URL(url) : url;
  const upper = method?.toUpperCase();
  return within.find((op) => {
    if (upper !== undefined && op.method !== upper) return false;
    const base = forTarget.env[op.baseVariable];
    if (!base) return false;
    // A base URL that does not parse is the settings' error (targetOf refuses one).
    const parsedBase = baseUrlOf(base);
    if (!parsedBase) throw new TypeError(`${op.baseVariable} is not an absolute URL: "${base}"`);
    if (parsedBase.origin !== origin || !pathname.startsWith(parsedBase.prefix)) return false;
    return op.pathPattern.test(pathname.slice(parsedBase.prefix.length));
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

/** Tokens each run obtained: redacted everywhere, and `$LP_ACCESS_TOKEN` in a reproduction. */
const learnedTokens = perRun(() => new Set<string>());

/** A body that may name a token field: one spelled out, or behind a JSON escape. The others are not parsed here. */
const MAY_NAME_A_TOKEN = /_token|\\u/;

function learnCredentials(run: Run, bodyText: string, location: string | null): void {
  const { redactor } = run;
  if (MAY_NAME_A_TOKEN.test(bodyText))
    try {
      const body = JSON.parse(bodyText) as Record<string, unknown>;
      for (const field of ['access_token', 'refresh_token', 'id_token']) {
        if (typeof body[field] === 'string') {
          redactor.add(body[field]);
          learnedTokens(run).add(body[field]);
        }
      }
    } catch {
      // not JSON: nothing to learn
    }
  if (location && URL.canParse(location, 'http://x')) redactor.add(new URL(location, 'http://x').searchParams.get('code') ?? undefined);
}

export { currentTest };

/** What sent a request and why, for the judge and the coverage. */
export interface ExchangeMeta {
  /** The operation a model or raw request was built for (its address may be damaged on purpose). */
  operationId?: string;
  /** The negative-space dimension the request belongs to (the coverage's operation × dimension table). */
  dimension?: string;
  /** The operator that made the request, and the parameter it changed (operators/). */
  operator?: { id: string; parameter?: string };
  /** Sent by the published client (a positive flow), whose refreshes, replays and retries are evidence too. */
  client?: true;
}

export interface Exchange {
  /** The run that sent it: its target, redactor and ledger, for whoever judges and records the exchange. */
  run: Run;
  request: { method: string; url: string; headers: Headers; body: string };
  /** The answer. Its body is read from it only in the published client's exchanges (`meta.client`), which hand it on to
   * the client; every other reader has it as `bodyText`. */
  response: Response;
  bodyText: string;
  /** The operation at the request's address and method. */
  operation: Operation | undefined;
  /** An operation at the request's address with another method (the request's method is undocumented there). */
  pathOnly: Operation | undefined;
  meta: ExchangeMeta;
  /** Local time the request left and its answer came (ms since the epoch). */
  sentAt: number;
  answeredAt: number;
  test: string;
  /** What the listeners (the judge) found: typed, redacted. */
  findings: Finding[];
  /** The violations among the findings, as text (redacted). */
  problems: string[];
  /** What the server did, redacted, for the reports' evidence. */
  observed: Observed;
}

export type ExchangeListener = (exchange: Exchange) => void | Promise<void>;
const listeners: ExchangeListener[] = [];

/** Every exchange is handed to `listener` (in the order they subscribed) before `exchange()` returns it. */
export function onExchange(listener: ExchangeListener): void {
  if (!listeners.includes(listener)) listeners.push(listener);
}

const BODY_EXCERPT = 200;

/** The answer's media type as a report shows it. */
export const contentTypeOf = (response: Response) => mediaTypeOf(response.headers.get('content-type')) || '(none)';

/** The method, path and the query's names of a request, redacted: how a report names it. */
export function requestLineOf({ redactor }: Run, request: { method: string; url: string }): string {
  const url = new URL(request.url);
  // Query values may carry a state or a challenge; the names are enough to tell the requests apart.
  const query = [...new Set(url.searchParams.keys())].join('&');
  return redactor.redact(`${request.method} ${url.pathname}${query ? `?${query}` : ''}`);
}

/** Method, path, status, content type and the start of the body, redacted: what a report may show of an exchange. */
function observedOf(run: Run, request: Request, response: Response, bodyText: string): Observed {
  const { redactor } = run;
  return {
    request: requestLineOf(run, request),
    status: response.status,
    contentType: contentTypeOf(response),
    // Redacted before it is cut, over the client's window (the excerpt and a margin), so that no cut leaves part of a
    // credential behind: redacting a whole vehicle list for 200 characters of it cost a live run about 2 CPU-seconds.
    body: redactor.redact(redactionWindow(bodyText, BODY_EXCERPT)).replace(/\s+/g, ' ').slice(0, BODY_EXCERPT),
  };
}

/** The stats worth recording: only what differs from one plain attempt. */
function transportNote(stats: TransportStats): Partial<TransportStats> | undefined {
  const note: Partial<TransportStats> = {};
  for (const [key, value] of Object.entries(stats) as [keyof TransportStats, number][])
    if (value && !(key === 'requests' || (key === 'attempts' && value === 1))) note[key] = Math.round(value);
  return Object.keys(note).length ? note : undefined;
}

/** Sends through the transport (`body`: the request's, already read; `bodyStream`: see Transport.send); a request that
 * ends without an answer to judge is recorded, then thrown on. */
export async function sendOrRecord({ transport, redactor, ledger }: Run, request: Request, body?: Uint8Array, bodyStream = true) {
  try {
    return await transport.send(request, body, bodyStream);
  } catch (error) {
    if (error instanceof CouldNotJudge) {
      const message = redactor.redact(error.message);
      ledger.record({
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

/** The raw recent exchanges of each running check (the last 30), turned into evidence only when the check fails. */
type RawExchange = Pick<Exchange, 'request'> & {
  answer: { status: number; contentType: string; body: string };
  operationId?: string;
};
const recentExchanges = new Map<string, RawExchange[]>();
const RECENT = 30;

const evidenceOfRaw = (run: Run, raw: RawExchange): Evidence =>
  evidenceOf(run.target, raw.request, raw.answer, learnedTokens(run), (text) => run.redactor.redact(text));

/** The evidence of one exchange: its request and answer, every credential named by its LP_* variable. */
export const evidenceOfExchange = (seen: Exchange): Evidence => evidenceOfRaw(seen.run, rawOf(seen));

const rawOf = (seen: Exchange): RawExchange => ({
  request: seen.request,
  answer: { status: seen.response.status, contentType: contentTypeOf(seen.response), body: seen.bodyText },
  ...((seen.operation ?? seen.pathOnly) ? { operationId: (seen.operation ?? seen.pathOnly)!.operationId } : {}),
});

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
export function takeExample(run: Run, test: string, hint?: ExampleHint): { evidence: Evidence; operationId?: string } | undefined {
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
  return raw && { evidence: evidenceOfRaw(run, raw), ...(raw.operationId ? { operationId: raw.operationId } : {}) };
}

function remember(test: string, seen: Exchange): void {
  const recent = recentExchanges.get(test) ?? [];
  recent.push(rawOf(seen));
  if (recent.length > RECENT) recent.shift();
  recentExchanges.set(test, recent);
}

const utf8 = new TextDecoder();

/**
 * The Request to send, and its body as bytes when `init` gives it as text or bytes: then kept out of the Request, whose
 * body would be a web stream no one reads (half the cost of making the Request, in a live run's thousands), with the
 * Content-Type fetch gives a text body that has none. The transport sends the bytes. Any other body stays in the Request.
 */
export function outgoing(input: Request | string | URL, init: RequestInit | undefined): { request: Request; bytes?: Uint8Array } {
  const body = init?.body;
  const apart = !(input instanceof Request) && (typeof body === 'string' || body instanceof Uint8Array);
  if (!apart || refusesBody(init?.method ?? 'GET')) return { request: new Request(input, init) };
  const headers = new Headers(init?.headers);
  if (typeof body === 'string' && !headers.has('content-type')) headers.set('content-type', 'text/plain;charset=UTF-8');
  return {
    request: new Request(input, { ...init, headers, body: null }),
    bytes: typeof body === 'string' ? new TextEncoder().encode(body) : body,
  };
}

/** Sends a request through the run, hands the exchange to the listeners and records it; the returned response's body
 * (the published client's exchanges only: see Exchange) is still unread. */
export async function exchange(run: Run, input: Request | string | URL, init?: RequestInit, meta: ExchangeMeta = {}): Promise<Exchange> {
  const { request, bytes } = outgoing(input, init);
  const sentAt = Date.now();
  const requestBytes = bytes ?? (await bodyBytes(request));
  // Only the published client reads the answer's body from the Response (send/clients.ts).
  const { response, stats } = await sendOrRecord(run, request, requestBytes, meta.client === true);
  // The answer's bytes as the transport read them; only a body it could not decode is read from a copy (and fails as
  // reading it would).
  const answerBytes = bufferedBody(response);
  const bodyText = answerBytes ? utf8.decode(answerBytes) : await response.clone().text();
  const requestBody = requestBytes ? utf8.decode(requestBytes) : '';
  learnCredentials(run, bodyText, response.headers.get('location'));
  // Parsed once for the operation, the path-only match and the ledger's path.
  const address = new URL(request.url);
  const operation = findOperation(run.target, request.method, address);
  const test = currentTest();
  let observed: Observed | undefined;
  const seen: Exchange = {
    run,
    request: { method: request.method, url: request.url, headers: request.headers, body: requestBody },
    response,
    bodyText,
    operation,
    pathOnly: operation ? undefined : findOperation(run.target, undefined, address),
    meta,
    sentAt,
    answeredAt: Date.now(),
    test,
    findings: [],
    problems: [],
    // Made when a report needs it (an assumption's outcome), not for every exchange: it redacts the body's start.
    get observed() {
      observed ??= observedOf(run, request, response, bodyText);
      return observed;
    },
  };
  for (const listener of listeners) await listener(seen);
  seen.problems = seen.findings.filter((f) => f.verdict === 'violation').map((f) => f.message);
  remember(test, seen);
  const path = address.pathname;
  run.ledger.record({
    kind: 'exchange',
    operationId:
      operation?.operationId ??
      (seen.pathOnly ? `${seen.pathOnly.operationId} (${request.method})` : (meta.operationId ?? `${request.method} ${path}`)),
    status: response.status,
    scheme: schemesOf(request.headers),
    problems: seen.problems,
    test,
    transport: transportNote(stats),
    ...(meta.dimension ? { dimension: meta.dimension } : {}),
    ...(meta.operator ? { operator: meta.operator.id, ...(meta.operator.parameter ? { parameter: meta.operator.parameter } : {}) } : {}),
  });
  return seen;
}
