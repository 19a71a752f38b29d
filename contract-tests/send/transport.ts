// How the suite's one fetch reaches a real environment: a gate bounds the requests in flight and their rate, each
// origin is paced by what its answers say of its limit (send/origin-pace.ts), a throttled (429) answer pauses every
// request to its origin for as long as the target asks, a "not now" (503 with Retry-After) the one request, and
// a request that records nothing (every GET, the authorize redirect, the token endpoints) is sent again after a dropped
// connection, a timeout, 502, 503 or 504, a bounded number of times with backoff and jitter. A transient answer is never
// handed on as the target's behaviour: either a later try gets a real answer, or the request ends in `CouldNotJudge`
// (the third outcome of a run: neither a violation nor a pass). A write (the milestone POST, a code exchange) is sent
// again only where the answer proves it was not processed (429, or 503 with Retry-After), or once, on a new connection,
// when a kept-alive connection turned out closed before any byte of the answer (the server never saw it); after
// anything else its outcome is unknown, and the run says so.
//
// Connections: through the proxy HTTPS_PROXY, HTTP_PROXY and NO_PROXY name (src/connections.ts, as the published client
// does), an idle one reused only for what the server announced or 1 s. A TLS failure (a certificate Node refuses, a
// scheme that does not match the port) is tried once and named with its fix. Requests in flight adapt to the round trip
// (the Gate), under --concurrency and --rate-limit; each origin keeps its own pace, the identity provider's under
// --idp-rate-limit. Each request notes its round trip, when it went, how many answers it waited for and the API it went
// to (RequestPace), from which the run's report states the bound the round trip sets (paceOf) and the requests per origin.
//
// No vitest here: the runner's preflight uses the same transport before the suite starts.
import { isIP } from 'node:net';
import { connect as connectTls } from 'node:tls';
import {
  type Connections,
  connections,
  displayProxy,
  isStaleConnection,
  type ProxySettings,
  proxyFor,
  proxySettings,
  trackReusedConnections,
} from '../../src/connections.ts';
import { errorCode, isTlsFailure, networkHint, proxyRefusal } from '../../src/network-hints.ts';
import { baseUrlOf } from './base-urls.ts';
import { bodyBytes, type Deadline, deadline, directFetch } from './direct-fetch.ts';
import { Gate } from './gate.ts';
import { offeredFlightPool } from './flight-pool.ts';
import { OriginPace, type Reserved } from './origin-pace.ts';
import { type PaceBoard, sharedBoard } from './pace-board.ts';
import { type RateLimitNote, readRateLimit } from './rate-limit-headers.ts';
import { CouldNotJudge, TLS_ONCE_TEXT, UNKNOWN_OUTCOME_TEXT } from './could-not-judge.ts';
import { isReplayable } from './replayable.ts';
import { API_VARIABLES, emptyStats, type RequestPace, type TransportStats } from './transport-stats.ts';
import { INITIAL_IN_FLIGHT, KEEP_ALIVE_MS, type TransportSettings } from './transport-settings.ts';

export { CouldNotJudge, couldNotJudgeOf, UNKNOWN_OUTCOME, type UnjudgedKind } from './could-not-judge.ts';
export { Gate } from './gate.ts';
export { retryAfterMs } from './rate-limit-headers.ts';
export { isReplayable } from './replayable.ts';
export {
  DEFAULT_TRANSPORT,
  INITIAL_IN_FLIGHT,
  KEEP_ALIVE_MS,
  readTransportSettings,
  type TransportSettings,
  workersFor,
} from './transport-settings.ts';
export {
  API_VARIABLES,
  addStats,
  emptyStats,
  paceLine,
  paceOf,
  type RequestPace,
  type RunPace,
  type TransportStats,
} from './transport-stats.ts';

/** The deadline of an attempt through fetch, whose body is read after it resolves: the signal outlives the attempt. */
function fetchDeadline(ms: number, outer: AbortSignal): Deadline & { signal: AbortSignal } {
  const timeout = AbortSignal.timeout(ms);
  return { signal: AbortSignal.any([outer, timeout]), timedOut: () => timeout.aborted, done: () => {} };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Exponential backoff with full jitter: up to 250 ms, 500 ms, 1 s, ... capped at 5 s. */
const backoffMs = (retry: number, random: () => number) => random() * Math.min(5000, 250 * 2 ** retry);

export interface Sent {
  response: Response;
  /** What this request met (one request's share of the stats), and how it went (its pace). */
  stats: TransportStats & RequestPace;
}

const describe = (request: Request) => `${request.method} ${new URL(request.url).pathname}`;

/** A network failure as one line: the cause's code where undici gives one (ECONNREFUSED, ENOTFOUND, UND_ERR_SOCKET). */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

/** Codes of a connection that never opened: the request was not sent. */
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);
/** Codes of a connection that closed before any answer. */
const CLOSED_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET']);
/** The API a request goes to: its base URL variable, its place in API_VARIABLES (from 1), and its address. */
export interface ApiAddress {
  variable: (typeof API_VARIABLES)[number];
  api: number;
  /** The base URL's origin and path prefix: what the API's pace is kept under. */
  address: string;
}

/** The API whose base URL `url` is under (the longest that matches), or undefined. */
export function apiOf(url: URL, env: Readonly<Record<string, string | undefined>>): ApiAddress | undefined {
  let found: ApiAddress | undefined;
  API_VARIABLES.forEach((variable, index) => {
    const base = env[variable]?.trim();
    const parsed = base ? baseUrlOf(base) : undefined;
    if (!parsed) return;
    const { origin, prefix } = parsed;
    if (origin !== url.origin || !url.pathname.startsWith(prefix) || (found && found.address.length >= origin.length + prefix.length))
      return;
    found = { variable, api: index + 1, address: `${origin}${prefix}` };
  });
  return found;
}

/** The LP_* variable whose base URL `url` is under, for the words of a hint. */
const variableFor = (url: URL, env: Readonly<Record<string, string | undefined>>) => apiOf(url, env)?.variable ?? 'the base URL';

/**
 * Whether host:port completes a TLS handshake. It sends no request and checks no certificate: it asks only which
 * protocol is spoken there, when an http:// request's new connection was closed at once (what a TLS server does).
 */
function speaksTls(url: URL, timeoutMs = 3_000): Promise<boolean> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket = connectTls({
      host,
      port: Number(url.port) || 80,
      rejectUnauthorized: false,
      ...(isIP(host) ? {} : { servername: host }),
    });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.once('secureConnect', () => done(true));
    socket.once('error', () => done(false));
    socket.setTimeout(timeoutMs, () => done(false));
  });
}

/**
 * How the transport connects: the proxy settings (default: the environment's) and CAs to trust besides Node's (tests);
 * and how it paces: the board of the origins' pace (default: the one the process's threads share) and the variables
 * that name the APIs' base URLs (default: the environment).
 */
export interface NetworkOptions {
  proxies?: ProxySettings;
  ca?: string[];
  board?: PaceBoard;
  env?: NodeJS.ProcessEnv;
}

/** Where a request's pace is kept: its API's address (two APIs may share an origin, as the sandbox's do), else its origin. */
interface Scope {
  key: string;
  api: number;
}

type Next = 'retry' | 'new connection';

export class Transport {
  readonly gate: Gate;
  /** Each origin's pace (each API's, where APIs share an origin). */
  readonly pace: OriginPace;
  private readonly env: NodeJS.ProcessEnv;
  private readonly proxies: ProxySettings;
  private readonly connections: Connections;
  /** The longest chain of awaited answers so far (RequestPace.depth). */
  private chain = 0;
  /** Told of a wait of a second or more as it starts (when it ends, epoch ms, and why): the run's progress line. */
  waitListener: ((until: number, why: string) => void) | undefined;
  private lastToldUntil = 0;
  private readonly tlsProbes = new Map<string, Promise<boolean>>();

  constructor(
    readonly settings: TransportSettings,
    private readonly fetchImpl: typeof fetch = fetch,
    private readonly random: () => number = Math.random,
    network: NetworkOptions = {},
  ) {
    // The suite's workers each have a transport. Where the runner offered them one pool of the ceiling (flight-pool.ts),
    // each takes what the others leave; otherwise each keeps its share, rounded down, so together they keep within the
    // bounds (128 among 3 workers is 42 each, never 43). The rate is a share either way. Each worker starts at
    // INITIAL_IN_FLIGHT: a far run has more workers, so more requests at once while the first round trips come in. A
    // queue brings each worker back to its share of INITIAL_IN_FLIGHT, so all of them together to INITIAL_IN_FLIGHT.
    const share = (total: number) => Math.max(1, Math.floor(total / Math.max(1, settings.workers)));
    const rate = settings.rateLimit && settings.rateLimit / Math.max(1, settings.workers);
    const pool = settings.workers > 1 ? offeredFlightPool() : undefined;
    const least = share(INITIAL_IN_FLIGHT);
    this.gate =
      pool?.ceiling === settings.concurrency
        ? new Gate(settings.concurrency, rate, INITIAL_IN_FLIGHT, { pool, share: share(settings.concurrency) }, least)
        : new Gate(share(settings.concurrency), rate, INITIAL_IN_FLIGHT, undefined, least);
    // The run's settings, given by whoever makes the transport (send/run.ts, the runner's preflight): none, no API.
    this.env = network.env ?? {};
    // The identity provider's cap holds for all workers together: they pace it on one board.
    const idp = this.env.LP_AUTH_URL && URL.canParse(this.env.LP_AUTH_URL) ? this.scopeOf(this.env.LP_AUTH_URL).key : undefined;
    const caps = new Map(idp && settings.idpRateLimit ? [[idp, settings.idpRateLimit]] : []);
    const board = network.board;
    this.pace = new OriginPace(board ? () => board : sharedBoard, { caps, learnsFrom429: settings.rateLimit === undefined });
    this.proxies = network.proxies ?? proxySettings();
    trackReusedConnections();
    this.connections = connections({ keepAliveMs: KEEP_ALIVE_MS, ...(network.ca ? { ca: network.ca } : {}) }, this.proxies);
  }

  /** The proxy a request to `url` goes through (its credentials never shown), or undefined: direct. */
  proxyOf(url: string): string | undefined {
    const proxy = proxyFor(url, this.proxies);
    return proxy && displayProxy(proxy);
  }

  /** Where the pace of a request to `url` is kept. */
  scopeOf(url: string): Scope {
    const parsed = new URL(url);
    const api = apiOf(parsed, this.env);
    return api ? { key: api.address, api: api.api } : { key: parsed.origin, api: 0 };
  }

  /**
   * Sends the request until it gets an answer to judge; throws CouldNotJudge when it cannot. `body`: the request's body,
   * when the caller has it as bytes already (the one fetch does), so that it is not read from the request again.
   * `bodyStream` false: the caller reads the answer's body with `bufferedBody` (send/direct-fetch.ts) where the transport
   * sends the request itself, and the Response has no body of its own there.
   */
  async send(request: Request, body?: Uint8Array, bodyStream = true): Promise<Sent> {
    const stats = emptyStats();
    stats.requests = 1;
    const scope = this.scopeOf(request.url);
    const pace: RequestPace = { sentAt: 0, roundTripMs: 0, depth: this.chain + 1, api: scope.api };
    try {
      return { response: await this.attempt(request, body, stats, pace, scope, bodyStream), stats: Object.assign(stats, pace) };
    } catch (error) {
      if (error instanceof CouldNotJudge) {
        stats.unjudged = 1;
        error.stats = Object.assign(stats, { api: scope.api });
      }
      throw error;
    } finally {
      this.chain = Math.max(this.chain, pace.depth);
    }
  }

  private async attempt(
    request: Request,
    given: Uint8Array | undefined,
    stats: TransportStats,
    pace: RequestPace,
    scope: Scope,
    bodyStream: boolean,
  ): Promise<Response> {
    const replayable = await isReplayable(request, given);
    // The suite's own requests (redirect: manual, no fetch injected) go out on undici's request (send/direct-fetch.ts),
    // their body read once for every attempt.
    const direct = this.fetchImpl === fetch && request.redirect === 'manual';
    // A body given as bytes may be kept out of the Request (send/fetch.ts): the bytes are the body.
    const body = direct ? (given ?? (await bodyBytes(request))) : undefined;
    let reconnect = false;
    let reconnected = false;
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= this.settings.tries;
      const number = await this.admit(scope.key, stats);
      stats.attempts++;
      let response: Response;
      // fetch's body is read after it resolves, still under its signal; directFetch reads the whole answer.
      const viaFetch = direct ? undefined : fetchDeadline(this.settings.timeoutMs, request.signal);
      const timeout = viaFetch ?? deadline(this.settings.timeoutMs, request.signal);
      const sentAt = performance.now();
      try {
        const dispatcher = reconnect ? this.connections.fresh : this.connections.pooled;
        response = viaFetch
          ? await this.fetchImpl(
              new Request(request.clone(), {
                signal: viaFetch.signal,
                ...(given && !request.body ? { body: given as Uint8Array<ArrayBuffer> } : {}),
              }),
              {
                dispatcher,
              } as RequestInit,
            )
          : await directFetch(request, body, timeout.signal, dispatcher, bodyStream);
      } catch (error) {
        timeout.done();
        this.gate.release();
        if (request.signal.aborted) throw error;
        const state = { replayable, last, attempt, reconnected };
        reconnect = (await this.afterFailure(request, error, timeout.timedOut(), state, stats)) === 'new connection';
        // The one re-send on a new connection is not a try: the server never saw the request.
        if (reconnect) {
          reconnected = true;
          attempt--;
        }
        continue;
      }
      timeout.done();
      reconnect = false;
      this.gate.release();
      pace.sentAt = performance.timeOrigin + sentAt;
      pace.roundTripMs = performance.now() - sentAt;
      const note = readRateLimit(response.headers);
      const asked = note.retryAfterMs;
      // 429, and 503 with Retry-After: the target says it did not process the request now; any request may go again.
      const throttled = response.status === 429 || (response.status === 503 && asked !== undefined);
      const transient = !throttled && replayable && [502, 503, 504].includes(response.status);
      this.pace.observe(scope.key, number, note, !throttled && !transient);
      if (!throttled && !transient) {
        this.gate.accept(pace.roundTripMs);
        return response;
      }
      if (throttled) stats.throttled++;
      if (response.status === 429) stats.limited++;
      // A 5xx that persists after the tries is the target's answer, judged like any other (a violation); a 429 that
      // persists is the gateway's, and says nothing about the contract.
      if (last) {
        if (response.status !== 429) return response;
        await response.body?.cancel();
        throw new CouldNotJudge(
          'throttled',
          `${describe(request)}: still answered 429 (throttled) after ${attempt} tries (LP_CONTRACT_TRIES, --tries; or cap the rate with --rate-limit, or the identity provider's with --idp-rate-limit)`,
        );
      }
      await response.body?.cancel();
      stats.retried++;
      await this.waitBeforeNext(request, response.status, throttled ? note : {}, { attempt, scope: scope.key }, stats);
    }
  }

  /**
   * Waits for a slot of the gate and the origin's consent (its pause, its budget, its rate's next slot), which is asked
   * holding the slot so the request goes the moment it is given; the slot is handed back while the origin makes it
   * wait, so requests to a limited origin never keep the others' from going. Resolves to the request's number there.
   */
  private async admit(key: string, stats: TransportStats): Promise<number> {
    let reserved: Reserved | undefined;
    for (;;) {
      stats.waitedMs += await this.gate.acquire();
      const decision = this.pace.take(key, reserved);
      if (decision.go) return decision.number;
      this.gate.release();
      reserved = decision.reserved;
      this.tellWait(decision.until, `${key} paced (its rate-limit headers, a 429, or a cap)`);
      stats.waitedMs += await this.pace.sleepUntil(decision.until);
    }
  }

  /**
   * Waits before the next try: a 429 pauses every request to its origin (for its Retry-After, else until the reset its
   * quota headers name), a 503's Retry-After only this request, a 5xx backs off.
   */
  private async waitBeforeNext(
    request: Request,
    status: number,
    note: RateLimitNote,
    { attempt, scope }: { attempt: number; scope: string },
    stats: TransportStats,
  ) {
    const asked = note.retryAfterMs;
    if (status !== 429 && !(status === 503 && asked !== undefined)) {
      stats.waitedMs += await this.pause(backoffMs(attempt - 1, this.random));
      return;
    }
    const untilReset = note.resetAt === undefined ? undefined : Math.max(0, note.resetAt - Date.now()) + backoffMs(0, this.random);
    const wait = asked ?? untilReset ?? backoffMs(attempt, this.random) + 1000;
    const { maxWaitMs } = this.settings;
    if (wait > maxWaitMs) {
      const seconds = Math.ceil(wait / 1000);
      const said = asked === undefined ? `a reset ${seconds} s away` : `Retry-After ${seconds} s`;
      throw new CouldNotJudge(
        'throttled',
        `${describe(request)}: answered ${status} with ${said}, longer than the suite waits (LP_CONTRACT_MAX_WAIT_S, --max-wait ${Math.round(maxWaitMs / 1000)} s)`,
      );
    }
    // A 429 is the origin's limit, shared by every request to it: all of them pause, and its rate drops (the next
    // acquire sits out the pause and counts it). A 503 is this request's: it alone waits.
    if (status === 429) this.pace.throttle(scope, wait);
    else {
      this.tellWait(Date.now() + wait, `${scope} asked to wait (503 with Retry-After)`);
      stats.waitedMs += await this.pause(wait);
    }
  }

  /** After an attempt that got no answer: throws CouldNotJudge, or says how the next try goes. */
  private async afterFailure(
    request: Request,
    error: unknown,
    timedOut: boolean,
    state: { replayable: boolean; last: boolean; attempt: number; reconnected: boolean },
    stats: TransportStats,
  ): Promise<Next> {
    if (timedOut) stats.timedOut++;
    else stats.dropped++;
    const url = new URL(request.url);
    const cause = (error as { cause?: unknown }).cause ?? error;
    const proxy = proxyFor(url, this.proxies);
    if (!timedOut) {
      const tls = await this.tlsProblem(url, error, cause, proxy);
      if (tls) throw new CouldNotJudge('tls', `${describe(request)}: ${tls} ${TLS_ONCE_TEXT}`);
      if (!state.reconnected && isStaleConnection(error)) {
        stats.reconnected++;
        return 'new connection';
      }
    }
    const hint = timedOut ? undefined : networkHint(cause, request.url, variableFor(url, this.env), proxy);
    const what = timedOut
      ? `no answer within ${this.settings.timeoutMs} ms (LP_CONTRACT_TIMEOUT_MS, --timeout)`
      : `the connection failed (${causeOf(error)})`;
    // A connection that never opened (refused, a name that does not resolve, a proxy's refusal) carried no request.
    const refused = proxy !== undefined && proxyRefusal(cause) !== undefined;
    if (!state.replayable && !refused && !NEVER_SENT_CODES.has(errorCode(cause) ?? ''))
      throw new CouldNotJudge('outcome-unknown', `${describe(request)}: ${what}; ${UNKNOWN_OUTCOME_TEXT}`);
    // A proxy that refuses the tunnel (403, 407) refuses it again.
    if (state.last || refused)
      throw new CouldNotJudge(
        timedOut ? 'timeout' : 'unreachable',
        `${describe(request)}: ${what}, ${state.attempt} ${state.attempt === 1 ? 'try' : 'tries'} (LP_CONTRACT_TRIES, --tries)${hint ? `: ${hint}` : ''}`,
      );
    stats.retried++;
    stats.waitedMs += await this.pause(backoffMs(state.attempt - 1, this.random));
    return 'retry';
  }

  /**
   * The TLS failure behind a failed connection, as what to do about it; undefined when it was not one. An http:// URL
   * whose new, direct connection was closed at once is probed (once per origin): a port that speaks TLS is a scheme
   * that does not match.
   */
  private async tlsProblem(url: URL, error: unknown, cause: unknown, proxy: string | undefined): Promise<string | undefined> {
    const code = errorCode(cause);
    const variable = variableFor(url, this.env);
    if (isTlsFailure(code)) return networkHint(cause, url.href, variable, proxy);
    if (url.protocol !== 'http:' || proxy || !CLOSED_CODES.has(code ?? '') || isStaleConnection(error)) return undefined;
    let probe = this.tlsProbes.get(url.origin);
    if (!probe) {
      probe = speaksTls(url);
      this.tlsProbes.set(url.origin, probe);
    }
    if (!(await probe)) return undefined;
    return `${url.host} speaks https, not plain http: it closed the connection as soon as the request went out. Use an https:// URL in "${variable}".`;
  }

  /** Tells the listener of a wait of a second or more that ends later than the last one told. */
  private tellWait(until: number, why: string): void {
    if (!this.waitListener || until - Date.now() < 1000 || until <= this.lastToldUntil + 500) return;
    this.lastToldUntil = until;
    this.waitListener(until, why);
  }

  private async pause(ms: number): Promise<number> {
    await sleep(ms);
    return ms;
  }
}

/** Maps the items concurrently, keeping their order (the gate bounds what is in flight); once all have settled, rejects
 * with the first failure, preferring a check's own failure to a request that could not be judged. */
export async function mapConcurrently<T, R>(items: Iterable<T>, each: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = await Promise.allSettled([...items].map((item, index) => each(item, index)));
  const failures = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  if (failures.length) throw failures.find((f) => !(f instanceof CouldNotJudge)) ?? failures[0];
  return results.map((r) => (r as PromiseFulfilledResult<R>).value);
}

/** Runs `each` over the items concurrently, as `mapConcurrently` does. */
export async function forEachConcurrently<T>(items: Iterable<T>, each: (item: T, index: number) => Promise<void>): Promise<void> {
  await mapConcurrently(items, each);
}
