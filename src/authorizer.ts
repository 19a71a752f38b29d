// Authorizers put credentials on a request; authMiddleware applies one to every call of a client.
// The resend middleware applies the same authorizer again to each replayed request, so a renewed token is used.
import type { Middleware } from 'openapi-fetch';
import type { TokenProvider } from './token-provider.js';
import type { Secrets } from './secrets.js';

export interface RequestAuthorizer {
  authorize(request: Request): void | Promise<void>;
  /** Drop the credential `request` carried, after the server rejected it with 401; absent when nothing can be renewed. */
  renew?(request: Request): void;
}

export const SUBSCRIPTION_KEY_HEADER = 'Ocp-Apim-Subscription-Key';
export const FLEET_API_KEY_HEADER = 'API-Key';

export function authMiddleware(authorizer: RequestAuthorizer): Middleware {
  return {
    onRequest({ request }) {
      const pending = authorizer.authorize(request);
      return pending ? pending.then(() => undefined) : undefined;
    },
  };
}

/** `Authorization: Bearer <token>` from a token provider, plus the subscription key when one is configured. */
export function bearerTokenAuthorizer(tokens: TokenProvider, secrets: Secrets, subscriptionKey?: string): RequestAuthorizer {
  return {
    async authorize(request) {
      const token = await tokens.getToken();
      secrets.add(token);
      request.headers.set('Authorization', `Bearer ${token}`);
      if (subscriptionKey) request.headers.set(SUBSCRIPTION_KEY_HEADER, subscriptionKey);
    },
    renew(request) {
      const header = request.headers.get('Authorization') ?? '';
      tokens.invalidate(header.startsWith('Bearer ') ? header.slice(7) : undefined);
    },
  };
}

/** Fixed credential headers, such as the fleet `API-Key`. */
export function staticHeaderAuthorizer(headers: Record<string, string>): RequestAuthorizer {
  const entries = Object.entries(headers);
  return {
    authorize(request) {
      for (const [name, value] of entries) request.headers.set(name, value);
    },
  };
}
