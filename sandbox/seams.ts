// The few decisions of the honest routes that an injected fault (sandbox/faults/) may replace: a route asks for each
// once, when it is registered, with its honest implementation, and gets that or the active fault's replacement.
import type { FastifyReply, FastifyRequest } from 'fastify';

export type Seams = {
  /** POST {base_url}/token: whether the form's client_id and client_secret authenticate the client. */
  serviceTokenClient: (body: Record<string, unknown>) => boolean;
  /** POST {base_url}/token: the lifetime of the tokens it issues, which its answer names in expired_in. */
  serviceTokenLifetimeSeconds: number;
  /** The identity provider's token endpoint: whether the form's client_id and client_secret authenticate the client. */
  identityProviderClient: (body: Record<string, unknown>) => boolean;
  /** Authorize: whether redirect_uri is registered for the client, so that it may be redirected to. */
  redirectUriRegistered: (redirectUri: unknown) => boolean;
  /** Code exchange: whether the redirect_uri sent matches the one the code was issued for (RFC 6749 4.1.3). */
  codeRedirectUriMatches: (issuedFor: string, sent: unknown) => boolean;
  /** Code exchange: why the code_verifier does not fit the code's PKCE challenge, or undefined when it does. */
  pkceRefusal: (challenge: string | undefined, verifier: string | undefined) => string | undefined;
  /** Milestones: the onRequest hook that answers 401 unless the bearer token (and a subscription key sent) is good. */
  bearerAuthentication: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
};

export type SeamName = keyof Seams;

/** What the active fault put in place of a seam, given the honest implementation. */
export type SeamReplacements = { [K in SeamName]?: (honest: Seams[K]) => Seams[K] };

/** The seam `name` as this sandbox runs it: `honest`, unless the active fault replaced it. */
export function seam<K extends SeamName>(context: { seams: SeamReplacements }, name: K, honest: Seams[K]): Seams[K] {
  const replace = context.seams[name] as ((honest: Seams[K]) => Seams[K]) | undefined;
  return replace ? replace(honest) : honest;
}
