// The Request class the clients give openapi-fetch: it remembers the string body and the caller's signal it was built
// with, so a request can be replayed (401, retries) and sent without cloning its body stream, which costs more per call
// than the rest of the middleware together.

interface Origin {
  body: string | null;
  callerSignal: AbortSignal | undefined;
}

const origins = new WeakMap<Request, Origin>();

/** @internal */
export class ReplayableRequest extends Request {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(input, init);
    const body = init?.body ?? null;
    if (body === null || typeof body === 'string') origins.set(this, { body, callerSignal: init?.signal ?? undefined });
  }

  // openapi-fetch checks middleware results with `instanceof` this class; any Request a middleware returns is fine.
  static override [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof Request;
  }
}

/**
 * How `request` was built, when it is a ReplayableRequest with a string (or no) body.
 * @internal
 */
export function originOf(request: Request): Origin | undefined {
  return origins.get(request);
}

/**
 * An unsent copy of `request`, or undefined when its body cannot be reproduced without a clone.
 * @internal
 */
export function replayOf(request: Request): Request | undefined {
  const origin = origins.get(request);
  if (!origin) return undefined;
  return new ReplayableRequest(request.url, {
    method: request.method,
    headers: request.headers,
    body: origin.body,
    redirect: request.redirect,
    ...(origin.callerSignal ? { signal: origin.callerSignal } : {}),
  });
}
