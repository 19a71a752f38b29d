// {auth_url}/oauth2/default/v1/{authorize,token}: the identity provider. Authorize
// auto-approves a built-in test user; token serves both grants with RFC 6749 bodies and
// requires the subscription key.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { verifierMatchesChallenge } from '../authorization-codes.ts';
import type { SandboxCredentials } from '../config.ts';
import type { SandboxContext } from '../context.ts';
import { isFormEncoded, refuseHttpBasic, sendApiError, sendHtmlError, sendOAuthError } from '../replies.ts';
import { seam } from '../seams.ts';
import type { ValidationResult } from '../spec-validation.ts';
import { sharedClientId, TOKEN_LIFETIME_SECONDS } from '../token-store.ts';

export const TEST_USER = 'sandbox.user@example.test';

/** RFC 6749 sections 3.1 and 3.2: a parameter sent without a value is treated as if it were omitted (before any
 * validation, so that e.g. an empty code_challenge or code_verifier is no challenge, not a too-short one). */
export function withoutEmptyValues(parameters: unknown): Record<string, unknown> {
  if (!parameters || typeof parameters !== 'object') return {};
  return Object.fromEntries(Object.entries(parameters).filter(([, value]) => value !== ''));
}

/** RFC 6749 sections 4.1.2.1 and 5.2: error_description holds only %x20-21 / %x23-5B / %x5D-7E (validation problems
 * quote values with double quotes, which it must not). */
export function errorDescription(text: string): string {
  return text.replace(/"/g, "'").replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, '?');
}

/** An RFC 6749 error, redirected (authorize) or answered (token). */
type Refusal = { error: string; error_description: string };
type Scopes = (scope: unknown) => string | undefined;

export function identityProviderRoutes(app: FastifyInstance, context: SandboxContext): void {
  const grantableScope = scopeGranter(context.credentials);
  app.get('/oauth2/default/v1/authorize', authorizeHandler(context, grantableScope));
  app.post('/oauth2/default/v1/token', tokenHandler(context, grantableScope));
}

/** Space-separated scopes that are all granted to the test client, or undefined. */
function scopeGranter(credentials: SandboxCredentials): Scopes {
  // Granted scopes are few distinct strings: stored codes and tokens share one copy of each.
  const grantedScopes = new Map<string, string>();
  return (scope) => {
    if (typeof scope !== 'string') return undefined;
    const requested = scope.split(' ').filter(Boolean);
    if (requested.length === 0 || !requested.every((name) => credentials.scopes.includes(name))) return undefined;
    const granted = requested.join(' ');
    const shared = grantedScopes.get(granted);
    if (shared !== undefined) return shared;
    if (grantedScopes.size < 256) grantedScopes.set(granted, granted);
    return granted;
  };
}

function authorizeHandler(context: SandboxContext, grantableScope: Scopes) {
  const { credentials } = context;
  const validator = context.validators.operation('requestAuthorization');
  const redirectUriRegistered = seam(context, 'redirectUriRegistered', (redirectUri) => redirectUri === credentials.redirectUri);

  return async (request: FastifyRequest, reply: FastifyReply) => {
    const query = withoutEmptyValues(request.query);
    // Until client and redirect URI are trusted, errors are shown, never redirected (RFC 6749 section 4.1.2.1).
    if (query.client_id !== credentials.clientId) {
      return sendHtmlError(reply, 400, 'Unknown client_id: no application with this client identifier is registered.');
    }
    const redirectUri = query.redirect_uri;
    if (!redirectUriRegistered(redirectUri)) {
      return sendHtmlError(reply, 400, 'The redirect_uri is missing or is not registered for this client.');
    }
    // The state goes back exactly as sent, on an error redirect too (RFC 6749 4.1.2.1), even one over its length limit.
    const state = typeof query.state === 'string' ? query.state : undefined;
    const redirect = (params: Record<string, string>): FastifyReply => {
      const location = new URL(String(redirectUri));
      for (const [name, value] of Object.entries(params)) location.searchParams.set(name, value);
      if (state !== undefined) location.searchParams.set('state', state);
      return reply.code(302).header('location', location.href).header('cache-control', 'no-store').send();
    };

    const outcome = authorization(query, validator.validateQuery(query), grantableScope);
    if ('error' in outcome) return redirect(outcome);
    // The built-in test user is signed in and consents automatically.
    const code = context.codes.issue({
      clientId: credentials.clientId,
      // The registered URI's own string when it is that one (always, unless a fault lets others through).
      redirectUri: redirectUri === credentials.redirectUri ? credentials.redirectUri : String(redirectUri),
      scope: outcome.scope,
      user: TEST_USER,
      codeChallenge: outcome.challenge,
    });
    if (typeof code !== 'string') {
      // Too many outstanding codes (a flood): RFC 6749 section 4.1.2.1's temporarily_unavailable, with when to retry.
      reply.header('retry-after', String(code.retryAfterSeconds));
      return redirect({ error: 'temporarily_unavailable', error_description: 'Too many outstanding authorization codes; retry later.' });
    }
    return redirect({ code });
  };
}

/** The authorization request of a trusted client and redirect URI: the refusal to redirect, or the grant. */
function authorization(
  query: Record<string, unknown>,
  checked: ValidationResult<unknown>,
  grantableScope: Scopes,
): Refusal | { scope: string; challenge: string | undefined } {
  const refuse = (error: string, description: string): Refusal => ({ error, error_description: description });
  if (query.response_type !== 'code') return refuse('unsupported_response_type', 'response_type must be code.');
  if (!checked.ok) return refuse('invalid_request', errorDescription(checked.problems.join('; ')));
  const scope = grantableScope(query.scope);
  if (!scope) return refuse('invalid_scope', 'The requested scope is not granted to this client.');
  const challenge = typeof query.code_challenge === 'string' ? query.code_challenge : undefined;
  if (challenge !== undefined && query.code_challenge_method !== 'S256') {
    return refuse('invalid_request', 'code_challenge_method must be S256.');
  }
  if (challenge === undefined && query.code_challenge_method !== undefined) {
    return refuse('invalid_request', 'code_challenge_method was sent without code_challenge.');
  }
  return { scope, challenge };
}

function tokenHandler(context: SandboxContext, grantableScope: Scopes) {
  const { credentials } = context;
  const clientCredentialsSchema = context.validators.component('token', 'ClientCredentialsGrantRequest');
  const authorizationCodeSchema = context.validators.component('token', 'AuthorizationCodeGrantRequest');
  const clientAuthenticated = seam(
    context,
    'identityProviderClient',
    (body) => body.client_id === credentials.clientId && body.client_secret === credentials.clientSecret,
  );
  const redeemCode = codeExchange(context);
  const clientCredentialsGrant = (requested: unknown): Refusal | { scope: string; code?: string } => {
    const scope = grantableScope(requested);
    return scope ? { scope } : { error: 'invalid_scope', error_description: 'The requested scope is not granted to this client.' };
  };

  return async (request: FastifyRequest, reply: FastifyReply) => {
    const key = request.headers['ocp-apim-subscription-key'];
    if (key !== credentials.subscriptionKey) {
      // The gateway answers before the identity provider, with its own body.
      return sendApiError(
        reply,
        401,
        'invalid_subscription_key',
        key === undefined ? 'Access denied due to missing subscription key.' : 'Access denied due to invalid subscription key.',
      );
    }
    if (!isFormEncoded(request.headers['content-type'])) {
      return sendOAuthError(reply, 400, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded.');
    }
    const body = withoutEmptyValues(request.body);
    const basic = refuseHttpBasic(request.headers.authorization, body, reply);
    if (basic) return basic;
    const grantType = body.grant_type;
    if (grantType === undefined) return sendOAuthError(reply, 400, 'invalid_request', 'grant_type is missing.');
    if (grantType !== 'client_credentials' && grantType !== 'authorization_code') {
      return sendOAuthError(reply, 400, 'unsupported_grant_type', 'grant_type must be client_credentials or authorization_code.');
    }
    const checked = (grantType === 'client_credentials' ? clientCredentialsSchema : authorizationCodeSchema)(body);
    if (!checked.ok) return sendOAuthError(reply, 400, 'invalid_request', errorDescription(checked.problems.join('; ')));
    if (!clientAuthenticated(body)) return sendOAuthError(reply, 401, 'invalid_client', 'Client authentication failed.');

    const granted = grantType === 'client_credentials' ? clientCredentialsGrant(body.scope) : redeemCode(body);
    if ('error' in granted) return sendOAuthError(reply, 400, granted.error, granted.error_description);
    const token = context.tokens.issue({
      clientId: sharedClientId(body.client_id, credentials.clientId),
      scope: granted.scope,
      lifetimeSeconds: TOKEN_LIFETIME_SECONDS,
      code: granted.code,
    });
    const response = { access_token: token, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_SECONDS, scope: granted.scope };
    return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(response);
  };
}

/** The code grant of a validated, authenticated exchange: the code's scope, or why it is refused (invalid_grant). */
function codeExchange(context: SandboxContext) {
  const redirectUriMatches = seam(context, 'codeRedirectUriMatches', (issuedFor, sent) => issuedFor === sent);
  const pkceRefusal = seam(context, 'pkceRefusal', (challenge, verifier) => {
    if (challenge !== undefined && (verifier === undefined || !verifierMatchesChallenge(verifier, challenge))) {
      return 'PKCE verification failed: code_verifier does not match code_challenge.';
    }
    if (challenge === undefined && verifier !== undefined)
      return 'code_verifier was sent but the authorization request had no code_challenge.';
    return undefined;
  });
  const invalidGrant = (description: string): Refusal => ({ error: 'invalid_grant', error_description: description });

  return (body: Record<string, unknown>): Refusal | { scope: string; code: string } => {
    const code = String(body.code);
    const redemption = context.codes.redeem(code);
    if (!redemption.ok) {
      if (redemption.reason === 'replayed') context.tokens.revokeIssuedFromCode(code);
      const why = { unknown: 'is invalid', expired: 'has expired', replayed: 'was already used' }[redemption.reason];
      return invalidGrant(`The authorization code ${why}.`);
    }
    const { grant } = redemption;
    if (grant.clientId !== body.client_id) return invalidGrant('The authorization code was issued to another client.');
    if (!redirectUriMatches(grant.redirectUri, body.redirect_uri)) {
      return invalidGrant('redirect_uri does not match the authorization request.');
    }
    const refusal = pkceRefusal(grant.codeChallenge, typeof body.code_verifier === 'string' ? body.code_verifier : undefined);
    return refusal ? invalidGrant(refusal) : { scope: grant.scope, code };
  };
}
