// The requests the clients give openapi-fetch. Each remembers the string body and the caller's signal it was built
// with, so that it can be replayed (401, retries) and sent as (url, init) without cloning a body stream.
// Until a caller adds a middleware of their own, a request is not even a Request: building one costs more than the rest
// of a call's overhead together (its headers list, its signal, a stream for its body), and fetch builds its own from
// (url, init) anyway. Only the client's own middlewares and transport see such a light request, and they read only its
// url, method, headers, signal and redirect mode, and its origin below.

interface Origin {
  body: string | null;
  callerSignal: AbortSignal | undefined;
}

// The origins of real Requests the client built; a light request carries its own.
const origins = new WeakMap<object, Origin>();

/** The signal of a request whose caller gave none: a Request always has one, and this one never aborts. */
const NEVER_ABORTED = new AbortController().signal;

/** A real Request that records its origin: what a caller's middleware gets. */
class ReplayableRequest extends Request {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(input, init);
    // Stryker disable next-line OptionalChaining: openapi-fetch passes its request init to every Request it builds
    const body = init?.body ?? null;
    // Stryker disable next-line OptionalChaining: openapi-fetch passes its request init to every Request it builds
    if (body === null || typeof body === 'string') origins.set(this, { body, callerSignal: init?.signal ?? undefined });
  }
}

/** The parts of a Request the client's own code reads; its body is in its origin. */
class LightRequest {
  readonly method: string;
  readonly headers: Headers;
  readonly signal: AbortSignal;
  readonly redirect: RequestRedirect;
  readonly body = null;

  /** `url`: already parsed and serialized, as a Request's url is. */
  constructor(
    readonly url: string,
    init: RequestInit,
    readonly origin: Origin,
  ) {
    // Stryker disable next-line StringLiteral: openapi-fetch and replayOf always give a method
    this.method = init.method ?? 'GET';
    // openapi-fetch hands over a Headers of its own for each call; a replay passes a copy.
    this.headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
    this.signal = init.signal ?? NEVER_ABORTED;
    // Stryker disable next-line StringLiteral,LogicalOperator: openapi-fetch and replayOf always give a redirect mode, and the transport sends every request with 'manual'
    this.redirect = init.redirect ?? 'follow';
  }
}

/**
 * Whether `init` can be carried by a light request: a string body (or none), nothing that only a Request could hold.
 * Anything else is built as a real Request.
 */
function fitsLight(init: RequestInit | undefined): init is RequestInit {
  // Stryker disable next-line ConditionalExpression,BooleanLiteral: openapi-fetch passes its request init to every Request it builds
  if (init === undefined) return false;
  return init.body === undefined || init.body === null || typeof init.body === 'string';
}

/**
 * The Request class of one client (openapi-fetch's `Request` option), and the switch to real Requests.
 * @internal
 */
export interface RequestMaker {
  Request: typeof Request;
  /** From now on every request is a real Request: a caller's middleware reads it (and may read its body). */
  useRealRequests(): void;
  /** Runs `build` with real Requests: a call that brings its own middleware. */
  whileReal<T>(build: () => T): T;
}

/** @internal */
export function requestMaker(): RequestMaker {
  let real = false;
  let realCalls = 0;
  // The last URL parsed and its serialization: calls of one client go to the same URL again and again (a URL holds no
  // more than a path and a query), and parsing it is the largest part of a light request.
  let lastInput = '';
  let lastUrl = '';
  // A constructor that returns the request it built: openapi-fetch calls `new Request(url, init)`.
  // biome-ignore lint/complexity/useArrowFunction: called with `new`, which an arrow function cannot be
  const ClientRequest = function (input: string, init?: RequestInit) {
    if (real || realCalls > 0 || typeof input !== 'string' || !fitsLight(init)) return new ReplayableRequest(input, init);
    if (input !== lastInput) {
      // As a Request would have it: a URL that does not parse fails here, with fetch's TypeError.
      lastUrl = new URL(input).href;
      lastInput = input;
    }
    const origin = { body: (init.body as string | null | undefined) ?? null, callerSignal: init.signal ?? undefined };
    return new LightRequest(lastUrl, init, origin);
  } as unknown as typeof Request;
  // openapi-fetch checks middleware results with `instanceof` this class; any Request a middleware returns is fine.
  Object.defineProperty(ClientRequest, Symbol.hasInstance, {
    value: (value: unknown) => value instanceof Request || value instanceof LightRequest,
  });
  return {
    Request: ClientRequest,
    useRealRequests: () => {
      real = true;
    },
    whileReal: (build) => {
      realCalls += 1;
      try {
        return build();
      } finally {
        realCalls -= 1;
      }
    },
  };
}

/**
 * How `request` was built, when the client built it with a string (or no) body.
 * @internal
 */
export function originOf(request: Request): Origin | undefined {
  return request instanceof LightRequest ? request.origin : origins.get(request);
}

// Requests sent with a body the client did not build from a string (a caller's middleware returned a Request of its
// own, or serialized the body to something else): an unread copy of each, taken as it goes out.
const unsent = new WeakMap<object, Request>();

/**
 * Keeps an unread copy of `request`, a Request without an origin about to be sent with a body: the last middleware to
 * return a Request may be a caller's, which runs after the client's own.
 * @internal
 */
export function keepUnsentCopy(request: Request): void {
  // Stryker disable next-line ConditionalExpression: a kept copy of a request without a body is sent the same as the new Request(request) made without one
  if (request.body !== null) unsent.set(request, request.clone());
}

/**
 * An unsent copy of `request`, or undefined when the client neither built it nor kept a copy of its body.
 * @internal
 */
export function replayOf(request: Request): Request | undefined {
  const origin = originOf(request);
  if (!origin) return unsent.get(request)?.clone();
  // Only the client's own code sees a replay (openapi-fetch runs no middleware for it): a light request does.
  const init: RequestInit = { method: request.method, headers: new Headers(request.headers), redirect: request.redirect };
  // Stryker disable next-line ConditionalExpression: no code reads a replay's own signal: the transport and the authorizer take the caller's from its origin
  if (origin.callerSignal) init.signal = origin.callerSignal;
  return new LightRequest(request.url, init, origin) as unknown as Request;
}
