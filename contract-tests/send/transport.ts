// How the suite's one fetch reaches a real environment: a gate bounds the requests in flight and their rate, a
// throttled (429) or "not now" (503 with Retry-After) answer pauses every request for as long as the target asks, and
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
// (the Gate), under --concurrency and --rate-limit; each request notes its round trip, when it went and how many
// answers it waited for (RequestPace), from which the run's report states the bound the round trip sets (paceOf).
//
// No vitest here: the runner's preflight uses the same transport before the suite starts.
import { availableParallelism } from 'node:os';
import { isIP } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { integerVariable, readVariable } from '../../config/environment.ts';
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
import { directFetch } from './direct-fetch.ts';

/** What ended a request without an answer the suite can judge; the kind decides the words, never the verdict. */
export type UnjudgedKind = 'unreachable' | 'tls' | 'timeout' | 'throttled' | 'outcome-unknown';

/** A request that got no answer the suite may judge: reported as "could not judge", never as a violation or a pass. */
export class CouldNotJudge extends Error {
  override readonly name = 'CouldNotJudge';
  /** What the request met before it gave up (set by the transport). */
  stats?: TransportStats;

  constructor(
    readonly kind: UnjudgedKind,
    message: string,
  ) {
    super(message);
    // The stack would point into this file: the failure is the target's (or the network's), not the suite's.
    this.stack = `${this.name}: ${message}`;
  }
}

/**
 * The CouldNotJudge behind an error: itself, or the published client's ApiError that wrapped it (a network failure
 * whose detail is "CouldNotJudge: ..."), so a check through the client is never judged on the transport's failure.
 */
export function couldNotJudgeOf(error: unknown): CouldNotJudge | undefined {
  if (error instanceof CouldNotJudge) return error;
  if (!(error instanceof Error) || error.name !== 'ApiError') return undefined;
  // ApiError's message: "<operation> <outcome>: CouldNotJudge: <message> [<url>]".
  const text = /CouldNotJudge: (.*?)(?: \[[^\]]*\])?$/s.exec(error.message)?.[1];
  if (text === undefined) return undefined;
  const kind: UnjudgedKind = /throttled/.test(text)
    ? 'throttled'
    : UNKNOWN_OUTCOME.test(text)
      ? 'outcome-unknown'
      : /no answer within/.test(text)
        ? 'timeout'
        : TLS_ONCE.test(text)
          ? 'tls'
          : 'unreachable';
  return new CouldNotJudge(kind, text.trim());
}

export interface TransportSettings {
  /** Per attempt, in ms. */
  timeoutMs: number;
  /** Attempts per request, the first included. */
  tries: number;
  /** The longest single wait for a Retry-After, in ms; a target that asks for longer is "could not judge". */
  maxWaitMs: number;
  /** Requests per second at most (a gateway's known quota); undefined: adapt to the 429s met. */
  rateLimit: number | undefined;
  /**
   * Requests in flight at most, over all workers: the ceiling. Below it the number adapts: it starts at 8, grows while
   * requests wait and the round trip holds, and shrinks when the round trip rises or a 429 comes.
   */
  concurrency: number;
  /** Worker threads of a live run (each has its own transport, with its share of the concurrency and the rate). */
  workers: number;
}

export const DEFAULT_TRANSPORT: TransportSettings = {
  timeoutMs: 15_000,
  tries: 6,
  maxWaitMs: 60_000,
  rateLimit: undefined,
  concurrency: 128,
  workers: 3,
};

/** Requests in flight at the start, all workers together, before the round trip says how many the target takes. */
export const INITIAL_IN_FLIGHT = 8;
/** An idle connection is reused for at most this long when the server announced no keep-alive timeout. */
export const KEEP_ALIVE_MS = 1_000;

/** The settings from LP_CONTRACT_* variables (the runner sets them from its options); an invalid value is an error naming it. */
export function readTransportSettings(source: NodeJS.ProcessEnv = process.env): TransportSettings {
  const rawRate = readVariable('LP_CONTRACT_RATE_LIMIT', source);
  const rateLimit = rawRate === undefined ? undefined : Number(rawRate);
  if (rateLimit !== undefined && !(Number.isFinite(rateLimit) && rateLimit > 0))
    throw new Error(`LP_CONTRACT_RATE_LIMIT must be a number of requests per second above 0, got "${rawRate}"`);
  return {
    workers: integerVariable('LP_CONTRACT_WORKERS', DEFAULT_TRANSPORT.workers, 1, source),
    timeoutMs: integerVariable('LP_CONTRACT_TIMEOUT_MS', DEFAULT_TRANSPORT.timeoutMs, 100, source),
    tries: integerVariable('LP_CONTRACT_TRIES', DEFAULT_TRANSPORT.tries, 1, source),
    maxWaitMs: integerVariable('LP_CONTRACT_MAX_WAIT_S', DEFAULT_TRANSPORT.maxWaitMs / 1000, 0, source) * 1000,
    rateLimit,
    concurrency: integerVariable('LP_CONTRACT_CONCURRENCY', DEFAULT_TRANSPORT.concurrency, 1, source),
  };
}

/** What the transport met: the run reports the sums. */
export interface TransportStats {
  /** Requests the suite asked to send (a retry is not a new one). */
  requests: number;
  /** Attempts that went out, retries included. */
  attempts: number;
  /** Answers 429 (and 503 with Retry-After) that paused the run. */
  throttled: number;
  /** Attempts sent again after a transient fault. */
  retried: number;
  /** Attempts that timed out. */
  timedOut: number;
  /** Attempts whose connection failed or was dropped before an answer. */
  dropped: number;
  /** Time requests spent waiting for a Retry-After, the rate limit or a backoff, summed over requests (they wait side by side), in ms. */
  waitedMs: number;
  /** Requests sent once more on a new connection: their kept-alive one had been closed before any byte of the answer. */
  reconnected: number;
  /** Requests that ended without an answer to judge. */
  unjudged: number;
}

/**
 * When and how one request went, for the run's pace (paceOf). Not summed: the stats carry it beside their counts, and
 * the ledger keeps it with each exchange.
 */
export interface RequestPace {
  /** When its last attempt went out, in ms since the epoch. */
  sentAt: number;
  /** From its last attempt going out to its answer (the headers through fetch; the whole answer, read at once, through
   * send/direct-fetch.ts), in ms. */
  roundTripMs: number;
  /**
   * Answers its worker had waited for before it was asked for, plus one: the length of the chain it ends, counting as
   * dependent every request sent after another was answered (an estimate from above: it cannot see which it needed).
   */
  depth: number;
}

export const emptyStats = (): TransportStats => ({
  requests: 0,
  attempts: 0,
  throttled: 0,
  retried: 0,
  timedOut: 0,
  dropped: 0,
  waitedMs: 0,
  reconnected: 0,
  unjudged: 0,
});

export function addStats(into: TransportStats, from: Partial<TransportStats>): TransportStats {
  for (const key of Object.keys(into) as (keyof TransportStats)[]) into[key] += from[key] ?? 0;
  return into;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Round trips against the least one seen. More requests may go out while the quickest of the latest answers came
 * within 1.5 times the least (the path holds none back: their time is distance); fewer go out once the median of the
 * latest passes twice the least (requests wait in a queue, the target's, or the suite's own busy worker's). The quickest
 * says the path is free, the median that a queue is: a worker busy with its own checks, a cold start or a new
 * connection delays some answers, never most of them.
 */
const ON_THE_WAY = 1.5;
const QUEUED = 2;
/** How many of the latest round trips the gate looks at; a queue is judged from half of them at least. */
const LATEST = 16;

/**
 * Bounds the requests in flight and their rate. The number in flight adapts between 1 and `ceiling` to the round trip:
 * while requests wait for a slot and the path holds none back, it grows by one per answer (doubling every round trip),
 * and after its first cut by one per round trip; once they queue, it takes a quarter off, once per round trip, never
 * below `initial`; a 429 halves it. A far target's round trip is distance, which more requests at once do not lengthen,
 * so it gets many; a near or busy one's is queueing, so it keeps the few it answers as fast. Without a configured rate
 * the gate also learns one from the 429s it meets: the answers accepted in the last second before a 429 (less a
 * margin) become the rate, which then creeps up again.
 */
export class Gate {
  private inFlight = 0;
  private limit: number;
  private readonly floor: number;
  private growing = true;
  private least = Number.POSITIVE_INFINITY;
  private readonly latest: number[] = [];
  private lastCut = Number.NEGATIVE_INFINITY;
  private most = 0;
  private readonly waiting: (() => void)[] = [];
  private pausedUntil = 0;
  private nextSlot = 0;
  private learnedRate: number | undefined;
  private readonly accepted: number[] = [];

  constructor(
    readonly ceiling: number,
    private readonly rateLimit?: number,
    initial = ceiling,
  ) {
    this.floor = Math.max(1, Math.min(ceiling, initial));
    this.limit = this.floor;
  }

  /** The rate in force: the configured one, or the learned one (undefined: unlimited). */
  get rate(): number | undefined {
    return this.rateLimit ?? this.learnedRate;
  }

  /** Requests allowed in flight now. */
  get concurrency(): number {
    return Math.floor(this.limit);
  }

  /** The most requests that were in flight at once. */
  get reached(): number {
    return this.most;
  }

  /** The least round trip of an answer so far, in ms (Infinity before the first). */
  get leastRoundTrip(): number {
    return this.least;
  }

  /**
   * Waits for a free slot, the end of a pause and the rate's next slot; resolves to the ms waited for the target's
   * sake (a pause or the rate), not for a slot among the suite's own requests.
   */
  async acquire(): Promise<number> {
    if (this.inFlight < this.concurrency) this.most = Math.max(this.most, ++this.inFlight);
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    const start = performance.now();
    for (;;) {
      const pause = this.pausedUntil - performance.now();
      if (pause <= 0) break;
      await sleep(pause);
    }
    const rate = this.rate;
    if (rate) {
      const now = performance.now();
      const slot = Math.max(this.nextSlot, now);
      this.nextSlot = slot + 1000 / rate;
      if (slot > now) await sleep(slot - now);
    }
    return performance.now() - start;
  }

  /** Frees the slot (handed straight to the next waiter, if the limit allows). */
  release(): void {
    this.inFlight--;
    this.admit();
  }

  private admit(): void {
    while (this.waiting.length > 0 && this.inFlight < this.concurrency) {
      this.inFlight++;
      this.waiting.shift()!();
    }
    this.most = Math.max(this.most, this.inFlight);
  }

  /** An answer that was not a throttle, `roundTripMs` after its attempt went out: counts toward the learned rate and the limit. */
  accept(roundTripMs?: number): void {
    const now = performance.now();
    this.accepted.push(now);
    while (this.accepted.length && this.accepted[0]! < now - 1000) this.accepted.shift();
    // Creeps up again: 1% per answer (at 20 a second, a fifth faster after a second without a 429).
    if (this.learnedRate !== undefined && this.rateLimit === undefined) this.learnedRate *= 1.01;
    if (roundTripMs !== undefined) this.adapt(roundTripMs, now);
  }

  private adapt(roundTripMs: number, now: number): void {
    this.least = Math.min(this.least, roundTripMs);
    this.latest.push(roundTripMs);
    if (this.latest.length > LATEST) this.latest.shift();
    const sorted = [...this.latest].sort((a, b) => a - b);
    const typical = sorted[Math.floor(sorted.length / 2)]!;
    // A loopback answer may take no measurable time: a millisecond is the least that counts.
    const least = Math.max(this.least, 1);
    if (this.latest.length >= LATEST / 2 && typical > QUEUED * least) {
      // The answers of one burst are one sign: one cut per round trip.
      if (now - this.lastCut > typical && this.limit > this.floor) {
        this.lastCut = now;
        this.growing = false;
        this.limit = Math.max(this.floor, this.limit * 0.75);
      }
      return;
    }
    // Not held back by the gate, or the path holds some back already: no reason to allow more.
    if (this.waiting.length === 0 || sorted[0]! > ON_THE_WAY * least) return;
    this.limit = Math.min(this.ceiling, this.limit + (this.growing ? 1 : 1 / this.limit));
    this.admit();
  }

  /** A 429 (or a 503 with Retry-After): every request waits `waitMs`, and the learned rate drops below what was let through. */
  throttle(waitMs: number): void {
    const now = performance.now();
    // The requests already in flight when the first 429 came are answered 429 too: one pause, one cut of the rate.
    const sameEpisode = now < this.pausedUntil;
    this.pausedUntil = Math.max(this.pausedUntil, now + waitMs);
    this.nextSlot = Math.max(this.nextSlot, this.pausedUntil);
    if (sameEpisode) return;
    this.growing = false;
    this.limit = Math.max(1, this.limit / 2);
    if (this.rateLimit !== undefined) return;
    const recent = this.accepted.length;
    const proposal = Math.max(1, Math.floor(recent * 0.8));
    this.learnedRate = this.learnedRate === undefined ? proposal : Math.max(1, Math.min(this.learnedRate / 2, proposal) || 1);
    this.accepted.length = 0;
  }
}

/** Seconds or an HTTP date, in ms; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with full jitter: up to 250 ms, 500 ms, 1 s, ... capped at 5 s. */
const backoffMs = (retry: number, random: () => number) => random() * Math.min(5000, 250 * 2 ** retry);

/** Grants whose token request spends something: an authorization code is single-use, a refresh token may rotate. */
const SPENDING_GRANTS = new Set(['authorization_code', 'refresh_token']);
/** `{base_url}/token` and `{auth_url}/oauth2/default/v1/token`; no other operation's path ends so. */
const TOKEN_PATH = /\/token\/?$/;

/**
 * Whether the request records nothing, so that sending it again is harmless when the first try's outcome is unknown:
 * every GET (the authorize redirect included), HEAD and OPTIONS, and a POST to a token endpoint, which issues a token or
 * refuses, unless it spends a code or a refresh token. Anything else (a milestone) is a write.
 */
export async function isReplayable(request: Request): Promise<boolean> {
  if (['GET', 'HEAD', 'OPTIONS'].includes(request.method)) return true;
  if (request.method !== 'POST' || !TOKEN_PATH.test(new URL(request.url).pathname)) return false;
  return !spendsSomething(await request.clone().text());
}

/** A form or JSON body that carries a code or a refresh token, or asks for a grant that spends one. */
function spendsSomething(body: string): boolean {
  const form = new URLSearchParams(body);
  let json: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object') json = parsed as Record<string, unknown>;
  } catch {
    // a form, or no body: the form fields say it
  }
  const grants = [...form.getAll('grant_type'), json.grant_type];
  return (
    grants.some((grant) => typeof grant === 'string' && SPENDING_GRANTS.has(grant)) ||
    ['code', 'refresh_token'].some((field) => form.has(field) || field in json)
  );
}

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

/** What a write's line with an unknown outcome ends with: couldNotJudgeOf and vitest's retry (vitest.config.ts) know it by it. */
const UNKNOWN_OUTCOME_TEXT = 'it is not sent again, since a second write could record twice, so whether the target processed it is unknown';
export const UNKNOWN_OUTCOME = /it is not sent again, since a second write could record twice/;
/** What a TLS failure's line ends with; couldNotJudgeOf knows a TLS failure by it. */
const TLS_ONCE_TEXT = '(tried once: no second try mends TLS)';
const TLS_ONCE = /no second try mends TLS/;
/** Codes of a connection that never opened: the request was not sent. */
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);
/** Codes of a connection that closed before any answer. */
const CLOSED_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET']);
const BASE_VARIABLES = ['LP_BASE_URL', 'LP_AUTH_URL', 'LP_FLEET_BASE_URL'] as const;

/** The LP_* variable whose base URL `url` is under (the longest that matches), for the words of a hint. */
function variableFor(url: URL, env: NodeJS.ProcessEnv = process.env): string {
  let found: { name: string; length: number } | undefined;
  for (const name of BASE_VARIABLES) {
    const base = env[name]?.trim();
    if (!base || !URL.canParse(base)) continue;
    const { origin, pathname } = new URL(base);
    const prefix = pathname.replace(/\/+$/, '');
    if (origin !== url.origin || !url.pathname.startsWith(prefix) || (found && found.length >= prefix.length)) continue;
    found = { name, length: prefix.length };
  }
  return found?.name ?? 'the base URL';
}

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

/** How the transport connects: the proxy settings (default: the environment's) and CAs to trust besides Node's (tests). */
export interface NetworkOptions {
  proxies?: ProxySettings;
  ca?: string[];
}

type Next = 'retry' | 'new connection';

export class Transport {
  readonly gate: Gate;
  private readonly proxies: ProxySettings;
  private readonly connections: Connections;
  /** The longest chain of awaited answers so far (RequestPace.depth). */
  private chain = 0;
  private readonly tlsProbes = new Map<string, Promise<boolean>>();

  constructor(
    readonly settings: TransportSettings,
    private readonly fetchImpl: typeof fetch = fetch,
    private readonly random: () => number = Math.random,
    network: NetworkOptions = {},
  ) {
    // The suite's workers each have a transport: each takes its share, rounded down, so together they keep within the
    // bounds (128 among 3 workers is 42 each, never 43).
    const share = (total: number) => Math.max(1, Math.floor(total / Math.max(1, settings.workers)));
    const rate = settings.rateLimit && settings.rateLimit / Math.max(1, settings.workers);
    this.gate = new Gate(share(settings.concurrency), rate, share(INITIAL_IN_FLIGHT));
    this.proxies = network.proxies ?? proxySettings();
    trackReusedConnections();
    this.connections = connections({ keepAliveMs: KEEP_ALIVE_MS, ...(network.ca ? { ca: network.ca } : {}) }, this.proxies);
  }

  /** The proxy a request to `url` goes through (its credentials never shown), or undefined: direct. */
  proxyOf(url: string): string | undefined {
    const proxy = proxyFor(url, this.proxies);
    return proxy && displayProxy(proxy);
  }

  /** Sends the request until it gets an answer to judge; throws CouldNotJudge when it cannot. */
  async send(request: Request): Promise<Sent> {
    const stats = emptyStats();
    stats.requests = 1;
    const pace: RequestPace = { sentAt: 0, roundTripMs: 0, depth: this.chain + 1 };
    try {
      return { response: await this.attempt(request, stats, pace), stats: Object.assign(stats, pace) };
    } catch (error) {
      if (error instanceof CouldNotJudge) {
        stats.unjudged = 1;
        error.stats = stats;
      }
      throw error;
    } finally {
      this.chain = Math.max(this.chain, pace.depth);
    }
  }

  private async attempt(request: Request, stats: TransportStats, pace: RequestPace): Promise<Response> {
    const replayable = await isReplayable(request);
    // The suite's own requests (redirect: manual, no fetch injected) go out on undici's request (send/direct-fetch.ts),
    // their body read once for every attempt.
    const direct = this.fetchImpl === fetch && request.redirect === 'manual';
    const body = direct && request.body ? new Uint8Array(await request.clone().arrayBuffer()) : undefined;
    let reconnect = false;
    let reconnected = false;
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= this.settings.tries;
      stats.waitedMs += await this.gate.acquire();
      stats.attempts++;
      let response: Response;
      const timeout = AbortSignal.timeout(this.settings.timeoutMs);
      const sentAt = performance.now();
      try {
        const dispatcher = reconnect ? this.connections.fresh : this.connections.pooled;
        const signal = AbortSignal.any([request.signal, timeout]);
        response = direct
          ? await directFetch(request, body, signal, dispatcher)
          : await this.fetchImpl(new Request(request.clone(), { signal }), { dispatcher } as RequestInit);
      } catch (error) {
        this.gate.release();
        if (request.signal.aborted) throw error;
        const state = { replayable, last, attempt, reconnected };
        reconnect = (await this.afterFailure(request, error, timeout.aborted, state, stats)) === 'new connection';
        // The one re-send on a new connection is not a try: the server never saw the request.
        if (reconnect) {
          reconnected = true;
          attempt--;
        }
        continue;
      }
      reconnect = false;
      this.gate.release();
      pace.sentAt = performance.timeOrigin + sentAt;
      pace.roundTripMs = performance.now() - sentAt;
      const asked = retryAfterMs(response.headers.get('retry-after'));
      // 429, and 503 with Retry-After: the target says it did not process the request now; any request may go again.
      const throttled = response.status === 429 || (response.status === 503 && asked !== undefined);
      const transient = !throttled && replayable && [502, 503, 504].includes(response.status);
      if (!throttled && !transient) {
        this.gate.accept(pace.roundTripMs);
        return response;
      }
      if (throttled) stats.throttled++;
      // A 5xx that persists after the tries is the target's answer, judged like any other (a violation); a 429 that
      // persists is the gateway's, and says nothing about the contract.
      if (last) {
        if (response.status !== 429) return response;
        await response.body?.cancel();
        throw new CouldNotJudge(
          'throttled',
          `${describe(request)}: still answered 429 (throttled) after ${attempt} tries (LP_CONTRACT_TRIES, --tries; or cap the rate with --rate-limit)`,
        );
      }
      await response.body?.cancel();
      stats.retried++;
      await this.waitBeforeNext(request, response.status, throttled ? asked : undefined, attempt, stats);
    }
  }

  /** Waits before the next try: a 429's Retry-After pauses every request, a 503's only this one, a 5xx backs off. */
  private async waitBeforeNext(request: Request, status: number, asked: number | undefined, attempt: number, stats: TransportStats) {
    if (status !== 429 && !(status === 503 && asked !== undefined)) {
      stats.waitedMs += await this.pause(backoffMs(attempt - 1, this.random));
      return;
    }
    const wait = asked ?? backoffMs(attempt, this.random) + 1000;
    const { maxWaitMs } = this.settings;
    if (wait > maxWaitMs)
      throw new CouldNotJudge(
        'throttled',
        `${describe(request)}: answered ${status} with Retry-After ${Math.ceil(wait / 1000)} s, longer than the suite waits (LP_CONTRACT_MAX_WAIT_S, --max-wait ${Math.round(maxWaitMs / 1000)} s)`,
      );
    // A 429 is the gateway's quota, shared by every request: all of them pause, and the rate drops (the next acquire
    // sits out the pause and counts it). A 503 is this request's: it alone waits.
    if (status === 429) this.gate.throttle(wait);
    else stats.waitedMs += await this.pause(wait);
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
    const hint = timedOut ? undefined : networkHint(cause, request.url, variableFor(url), proxy);
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
    const variable = variableFor(url);
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

  private async pause(ms: number): Promise<number> {
    await sleep(ms);
    return ms;
  }
}

/** The pace of a run, from the notes its requests left (RequestPace): what transport.json and the console report. */
export interface RunPace {
  /** The median round trip of the requests, in ms. */
  roundTripMs: number;
  /** From the first request out to the last answer, in ms. */
  spanMs: number;
  /** The most requests in flight at once (all workers together), and the mean while the run sent (round trips ÷ span). */
  mostInFlight: number;
  meanInFlight: number;
  /** The ceiling of requests in flight (--concurrency). */
  ceiling: number;
  /** The longest chain of requests each sent after an answer its worker awaited (over all the files the worker ran). */
  chain: number;
  /**
   * The least time these requests take at this round trip: the chain at one round trip a step, or all the requests at
   * the ceiling in flight, whichever is longer. The rest of the span is the suite's and the target's own work, and the
   * order vitest runs the checks in.
   */
  boundMs: number;
  /** spanMs ÷ boundMs: 1 is as fast as the round trip allows. */
  ratio: number;
}

/** The run's pace from its requests' notes; undefined when none carries one. */
export function paceOf(notes: Partial<RequestPace>[], ceiling: number): RunPace | undefined {
  const sent = notes.filter((n): n is Partial<RequestPace> & { sentAt: number } => typeof n.sentAt === 'number' && n.sentAt > 0);
  if (sent.length === 0) return undefined;
  const trips = sent.map((n) => n.roundTripMs ?? 0).sort((a, b) => a - b);
  const roundTripMs = trips[Math.floor(trips.length / 2)]!;
  const edges = sent.flatMap((n) => [
    [n.sentAt, 1],
    [n.sentAt + (n.roundTripMs ?? 0), -1],
  ]);
  edges.sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
  let inFlight = 0;
  let mostInFlight = 0;
  for (const [, step] of edges) {
    inFlight += step!;
    mostInFlight = Math.max(mostInFlight, inFlight);
  }
  // The workers' gates keep within the ceiling; the notes' times come from each worker thread's own clock, which may
  // differ from another's by a millisecond, so an overlap counted across workers is capped at the ceiling.
  mostInFlight = Math.min(mostInFlight, ceiling);
  const spanMs = Math.max(1, edges.at(-1)![0]! - edges[0]![0]!);
  const chain = Math.max(...sent.map((n) => n.depth ?? 1));
  const boundMs = Math.max(chain * roundTripMs, (sent.length * roundTripMs) / ceiling, 1);
  const meanInFlight = trips.reduce((sum, trip) => sum + trip, 0) / spanMs;
  return { roundTripMs, spanMs, mostInFlight, meanInFlight, ceiling, chain, boundMs, ratio: spanMs / boundMs };
}

/** The pace as one clause of the console's `contract: requests:` line. */
export function paceLine(pace: RunPace): string {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return (
    `round trip ${Math.round(pace.roundTripMs)} ms (median), up to ${pace.mostInFlight} in flight (${pace.meanInFlight.toFixed(1)} on average, ceiling ${pace.ceiling}); ` +
    `the longest chain of awaited answers is ${pace.chain}, so these requests need at least ${seconds(pace.boundMs)} at this round trip: ` +
    `they took ${seconds(pace.spanMs)}, ${pace.ratio.toFixed(2)}x that bound`
  );
}

/**
 * Test files a live run runs side by side, from the least round trip the preflight met: each file's checks run one
 * after another, so a far target is faster with more files at once (3 near, one more per 25 ms, at most 8), but each
 * is a worker thread that loads the suite and judges every answer, so at most two per core: on 2 cores 200 ms away,
 * 8 workers took 30 to 34 s and 4 or 5 took 22 to 24 s (measured side by side, 2,366 requests).
 */
export function workersFor(roundTripMs: number, cores: number = availableParallelism()): number {
  return Math.min(8, 2 * Math.max(2, cores), Math.max(DEFAULT_TRANSPORT.workers, Math.ceil(roundTripMs / 25)));
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
