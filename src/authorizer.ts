// Authorizers put credentials on a request; authMiddleware applies one to every call of a client.
// The resend middleware applies the same authorizer again to each replayed request, so a renewed token is used.
import type { Middleware } from 'openapi-fetch';
import { SUBSCRIPTION_KEY_HEADER } from './headers.js';
import { originOf } from './replayable-request.js';
import type { Secrets } from './secrets.js';

/** @internal */
export interface RequestAuthorizer {
  authorize(request: Request): void | Promise<void>;
  /** Drop the credential `request` carried, after the server rejected it with 401; absent when nothing can be renewed. */
  renew?(request: Request): void;
}

/**
 * What a bearer authorizer needs of a token source; the token provider is one. Declared here, not imported, so that the
 * authorizers stay below the token provider (which builds on the clients that use them).
 * @internal
 */
export interface TokenSource {
  getToken(): Promise<string>;
  invalidate(token?: string): void;
  /** The cached token while it needs no renewal, else undefined: lets a call be authorized without waiting a turn. */
  peekToken?(): string | undefined;
}

/** @internal */
export function authMiddleware(authorizer: RequestAuthorizer): Middleware {
  return {
    onRequest({ request }) {
      const pending = authorizer.authorize(request);
      return pending ? pending.then(() => undefined) : undefined;
    },
  };
}

/**
 * `Authorization: Bearer <token>` from a token provider, plus the subscription key when one is configured.
 * @internal
 */
export function bearerTokenAuthorizer(tokens: TokenSource, secrets: Secrets, subscriptionKey?: string): RequestAuthorizer {
  const setCredentials = (request: Request, token: string) => {
    secrets.addToken(token);
    request.headers.set('Authorization', `Bearer ${token}`);
    if (subscriptionKey) request.headers.set(SUBSCRIPTION_KEY_HEADER, subscriptionKey);
  };
  return {
    // Not async: with a cached token (nearly every call) nothing is awaited.
    authorize(request) {
      const cached = tokens.peekToken?.();
      // Stryker disable next-line ConditionalExpression: getToken then gives the same cached token (see peekToken): the check only spares a wait
      if (cached !== undefined) return setCredentials(request, cached);
      // The caller's abort ends the wait for a token; the token request itself goes on for the other callers.
      const origin = originOf(request);
      return untilAborted(tokens.getToken(), origin ? origin.callerSignal : request.signal).then((token) => setCredentials(request, token));
    },
    renew(request) {
      // Stryker disable next-line StringLiteral: no header and a placeholder are both not a Bearer header
      const header = request.headers.get('Authorization') ?? '';
      tokens.invalidate(header.startsWith('Bearer ') ? header.slice(7) : undefined);
    },
  };
}

/** `pending`, or a rejection with the signal's reason as soon as it aborts. */
function untilAborted<T>(pending: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  // No caller signal: nothing to wait for besides the token.
  if (!signal) return pending;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Fixed credential headers, such as the fleet `API-Key`.
 * @internal
 */
export function staticHeaderAuthorizer(headers: Record<string, string>): RequestAuthorizer {
  const entries = Object.entries(headers);
  return {
    authorize(request) {
      for (const [name, value] of entries) request.headers.set(name, value);
    },
  };
}
