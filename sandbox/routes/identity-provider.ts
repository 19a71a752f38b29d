// {auth_url}/oauth2/default/v1/{authorize,token}: the identity provider. Authorize
// auto-approves a built-in test user; token serves both grants with RFC 6749 bodies and
// requires the subscription key.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { verifierMatchesChallenge } from '../authorization-codes.ts';
import { mutated, type SandboxContext } from '../context.ts';
import { isFormEncoded, refuseHttpBasic, sendApiError, sendHtmlError, sendOAuthError } from '../replies.ts';
import { sharedClientId, TOKEN_LIFETIME_SECONDS } from '../token-store.ts';

export const TEST_USER = 'sandbox.user@example.test';
const NEVER_SECONDS = 10 * 365 * 24 * 3600;

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

export function identityProviderRoutes(app: FastifyInstance, context: SandboxContext): void {
  const { credentials } = context;
  /** Repeated form fields stay arrays, which validation refuses (RFC 6749 3.2); the mutation keeps the first value. */
  const firstValues = (body: unknown) =>
    mutated(context, 'idp-repeated-parameter-accepted') && body && typeof body === 'object'
      ? Object.fromEntries(Object.entries(body).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value]))
      : body;
  const authorizeValidator = context.validators.operation('requestAuthorization');
  const clientCredentialsSchema = context.validators.component('token', 'ClientCredentialsGrantRequest');
  const authorizationCodeSchema = context.validators.component('token', 'AuthorizationCodeGrantRequest');

  /** Space-separated scopes that are all granted to the test client, or undefined. */
  // Granted scopes are few distinct strings: stored codes and tokens share one copy of each.
  const grantedScopes = new Map<string, string>();
  const grantableScope = (scope: unknown): string | undefined => {
    if (typeof scope !== 'string') return undefined;
    const requested = scope.split(' ').filter(Boolean);
    if (requested.length === 0 || !requested.every((name) => credentials.scopes.includes(name))) return undefined;
    const granted = requested.join(' ');
    const shared = grantedScopes.get(granted);
    if (shared !== undefined) return shared;
    if (grantedScopes.size < 256) grantedScopes.set(granted, granted);
    return granted;
  };

  app.get('/oauth2/default/v1/authorize', async (request, reply) => {
    const query = withoutEmptyValues(request.query);
    // Until client and redirect URI are trusted, errors are shown, never redirected (RFC 6749 section 4.1.2.1).
    if (query.client_id !== credentials.clientId) {
      if (
        mutated(context, 'authorize-unknown-client-redirects') &&
        typeof query.redirect_uri === 'string' &&
        URL.canParse(query.redirect_uri)
      ) {
        const back = new URL(query.redirect_uri);
        back.searchParams.set('error', 'unauthorized_client');
        return reply.code(302).header('location', back.href).send();
      }
      return sendHtmlError(reply, 400, 'Unknown client_id: no application with this client identifier is registered.');
    }
    const redirectUri = query.redirect_uri;
    const openRedirect =
      typeof redirectUri === 'string' &&
      URL.canParse(redirectUri) &&
      (mutated(context, 'authorize-open-redirect') ||
        (mutated(context, 'authorize-redirect-uri-prefix-match') && redirectUri.startsWith(credentials.redirectUri)));
    if (redirectUri !== credentials.redirectUri && !openRedirect) {
      return sendHtmlError(reply, 400, 'The redirect_uri is missing or is not registered for this client.');
    }
    const checked = authorizeValidator.validateQuery(query);
    // The state goes back exactly as sent, on an error redirect too (RFC 6749 4.1.2.1), even one over its length limit.
    const state = typeof query.state === 'string' ? query.state : undefined;
    const redirect = (params: Record<string, string>): FastifyReply => {
      const location = new URL(String(redirectUri));
      for (const [name, value] of Object.entries(params)) location.searchParams.set(name, value);
      if (state !== undefined && !mutated(context, 'authorize-drops-state')) {
        location.searchParams.set('state', mutated(context, 'authorize-changes-state') ? `${state}-changed` : state);
      }
      return reply.code(302).header('location', location.href).header('cache-control', 'no-store').send();
    };

    if (query.response_type !== 'code') {
      return redirect({ error: 'unsupported_response_type', error_description: 'response_type must be code.' });
    }
    if (!checked.ok) return redirect({ error: 'invalid_request', error_description: errorDescription(checked.problems.join('; ')) });
    const scope = grantableScope(query.scope);
    if (!scope) return redirect({ error: 'invalid_scope', error_description: 'The requested scope is not granted to this client.' });
    const challenge = typeof query.code_challenge === 'string' ? query.code_challenge : undefined;
    if (challenge !== undefined && query.code_challenge_method !== 'S256') {
      return redirect({ error: 'invalid_request', error_description: 'code_challenge_method must be S256.' });
    }
    if (challenge === undefined && query.code_challenge_method !== undefined) {
      return redirect({ error: 'invalid_request', error_description: 'code_challenge_method was sent without code_challenge.' });
    }
    // The built-in test user is signed in and consents automatically.
    const code = context.codes.issue(
      // The registered URI's own string when it is that one (always, but under the open-redirect mutation).
      {
        clientId: credentials.clientId,
        redirectUri: redirectUri === credentials.redirectUri ? credentials.redirectUri : String(redirectUri),
        scope,
        user: TEST_USER,
        codeChallenge: challenge,
      },
      mutated(context, 'idp-code-never-expires') ? NEVER_SECONDS : undefined,
    );
    if (typeof code !== 'string') {
      // Too many outstanding codes (a flood): RFC 6749 section 4.1.2.1's temporarily_unavailable, with when to retry.
      reply.header('retry-after', String(code.retryAfterSeconds));
      return redirect({ error: 'temporarily_unavailable', error_description: 'Too many outstanding authorization codes; retry later.' });
    }
    return redirect({ code });
  });

  app.post('/oauth2/default/v1/token', async (request, reply) => {
    const key = request.headers['ocp-apim-subscription-key'];
    // The mutation checks the key for one grant type only: the code exchange goes through without it.
    const codeGrantUnchecked =
      mutated(context, 'idp-code-grant-subscription-key-unchecked') &&
      (request.body as Record<string, unknown> | undefined)?.grant_type === 'authorization_code';
    if (key !== credentials.subscriptionKey && !mutated(context, 'idp-subscription-key-not-required') && !codeGrantUnchecked) {
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
    const body = withoutEmptyValues(firstValues(request.body));
    const basic = refuseHttpBasic(request.headers.authorization, body, reply);
    if (basic) return basic;
    if (mutated(context, 'idp-password-grant-accepted') && body.grant_type === 'password' && body.client_id === credentials.clientId) {
      const token = context.tokens.issue({
        clientId: credentials.clientId,
        scope: credentials.scopes.join(' '),
        lifetimeSeconds: TOKEN_LIFETIME_SECONDS,
      });
      return reply
        .header('cache-control', 'no-store')
        .header('pragma', 'no-cache')
        .send({ access_token: token, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_SECONDS });
    }
    const grantType = body.grant_type;
    if (grantType === undefined) return sendOAuthError(reply, 400, 'invalid_request', 'grant_type is missing.');
    if (grantType !== 'client_credentials' && grantType !== 'authorization_code') {
      return sendOAuthError(reply, 400, 'unsupported_grant_type', 'grant_type must be client_credentials or authorization_code.');
    }
    if (grantType === 'authorization_code' && body.redirect_uri === undefined && mutated(context, 'idp-code-redirect-uri-omitted-accepted'))
      body.redirect_uri = credentials.redirectUri;
    if (grantType === 'client_credentials' && mutated(context, 'idp-scope-not-required')) {
      body.scope = credentials.scopes.join(' ');
    }
    const checked = (grantType === 'client_credentials' ? clientCredentialsSchema : authorizationCodeSchema)(body);
    if (!checked.ok) return sendOAuthError(reply, 400, 'invalid_request', errorDescription(checked.problems.join('; ')));

    const authenticated = body.client_id === credentials.clientId && body.client_secret === credentials.clientSecret;
    if (!authenticated && !mutated(context, 'idp-wrong-secret-accepted')) {
      return sendOAuthError(reply, 401, 'invalid_client', 'Client authentication failed.');
    }

    let scope: string;
    let code: string | undefined;
    if (grantType === 'client_credentials') {
      const granted = grantableScope(body.scope);
      if (!granted) return sendOAuthError(reply, 400, 'invalid_scope', 'The requested scope is not granted to this client.');
      scope = granted;
    } else {
      code = String(body.code);
      const redemption = context.codes.redeem(code, mutated(context, 'idp-code-replayable'));
      if (!redemption.ok) {
        if (redemption.reason === 'replayed') context.tokens.revokeIssuedFromCode(code);
        const why = { unknown: 'is invalid', expired: 'has expired', replayed: 'was already used' }[redemption.reason];
        return sendOAuthError(reply, 400, 'invalid_grant', `The authorization code ${why}.`);
      }
      const { grant } = redemption;
      if (grant.clientId !== body.client_id) {
        return sendOAuthError(reply, 400, 'invalid_grant', 'The authorization code was issued to another client.');
      }
      if (grant.redirectUri !== body.redirect_uri && !mutated(context, 'idp-code-redirect-uri-unchecked')) {
        return sendOAuthError(reply, 400, 'invalid_grant', 'redirect_uri does not match the authorization request.');
      }
      const verifier = typeof body.code_verifier === 'string' ? body.code_verifier : undefined;
      if (!mutated(context, 'idp-pkce-unchecked')) {
        if (grant.codeChallenge !== undefined && (verifier === undefined || !verifierMatchesChallenge(verifier, grant.codeChallenge))) {
          return sendOAuthError(reply, 400, 'invalid_grant', 'PKCE verification failed: code_verifier does not match code_challenge.');
        }
        if (grant.codeChallenge === undefined && verifier !== undefined) {
          return sendOAuthError(reply, 400, 'invalid_grant', 'code_verifier was sent but the authorization request had no code_challenge.');
        }
      }
      scope = grant.scope;
    }

    const token = context.tokens.issue({
      clientId: sharedClientId(body.client_id, credentials.clientId),
      scope,
      lifetimeSeconds: TOKEN_LIFETIME_SECONDS,
      code,
    });
    const response: Record<string, unknown> = {
      access_token: token,
      token_type: mutated(context, 'idp-token-type-jwt') ? 'JWT' : 'Bearer',
      expires_in: TOKEN_LIFETIME_SECONDS,
      scope,
    };
    if (mutated(context, 'idp-missing-access-token')) delete response.access_token;
    return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(response);
  });
}
