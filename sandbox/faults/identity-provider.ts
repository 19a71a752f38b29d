// The faults of the identity provider ({auth_url}: authorize and token), keyed by their ids in sandbox/mutations.ts.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.ts';
import type { MutationId } from '../mutations.ts';
import { withoutEmptyValues } from '../routes/identity-provider.ts';
import { TOKEN_LIFETIME_SECONDS } from '../token-store.ts';
import { type Fault, jsonAnswerOf, replaceParserOf, replaceSeam, requestTo, answerOf, wrapStore } from './fault.ts';

const AUTHORIZE = 'GET /idp/oauth2/default/v1/authorize';
const TOKEN = 'POST /idp/oauth2/default/v1/token';
const NEVER_SECONDS = 10 * 365 * 24 * 3600;

/** The parsed body when it is an object (a form, or JSON the route then refuses), else undefined. */
function fields(request: FastifyRequest): Record<string, unknown> | undefined {
  return request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : undefined;
}

/** `body` with `name` set as the route would have set it after dropping empty values: in place, or last when absent. */
function withField(body: Record<string, unknown>, name: string, value: string): Record<string, unknown> {
  const { [name]: sent, ...rest } = body;
  return sent === undefined || sent === '' ? { ...rest, [name]: value } : { ...body, [name]: value };
}

/** The state of the redirect back, when the caller sent one: changed, or dropped (undefined). */
function redirectState(change: (state: string) => string | undefined) {
  return (payload: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const sent = withoutEmptyValues(request.query).state;
    const location = reply.getHeader('location');
    if (typeof sent !== 'string' || typeof location !== 'string') return payload;
    const back = new URL(location);
    const state = change(sent);
    if (state === undefined) back.searchParams.delete('state');
    else back.searchParams.set('state', state);
    reply.header('location', back.href);
    return payload;
  };
}

/** Authorize redirects to the redirect_uri the request gave (a parseable URL), with `error`, whenever `when` says so: what
 * RFC 6749 4.1.2.1 forbids for a redirect URI the client did not register. */
function errorToGivenUri(error: string, when: (query: Record<string, unknown>, context: SandboxContext) => boolean): Fault {
  return requestTo(AUTHORIZE, 'preHandler', (request, reply, context) => {
    const query = withoutEmptyValues(request.query);
    const uri = query.redirect_uri;
    if (typeof uri !== 'string' || !URL.canParse(uri) || !when(query, context)) return;
    const back = new URL(uri);
    back.searchParams.set('error', error);
    return reply.code(302).header('location', back.href).send();
  });
}

export const IDENTITY_PROVIDER_FAULTS = {
  'idp-token-type-jwt': jsonAnswerOf(TOKEN, 200, (body) => ({ ...body, token_type: 'JWT' })),
  'idp-missing-access-token': jsonAnswerOf(TOKEN, 200, ({ access_token: _token, ...body }) => body),
  'idp-wrong-secret-accepted': replaceSeam('identityProviderClient', () => () => true),
  'idp-scope-not-required': requestTo(TOKEN, 'preHandler', (request, _reply, { credentials }) => {
    const body = fields(request);
    if (body?.grant_type === 'client_credentials') request.body = withField(body, 'scope', credentials.scopes.join(' '));
  }),
  'idp-code-grant-subscription-key-unchecked': requestTo(TOKEN, 'preHandler', (request, _reply, { credentials }) => {
    if (fields(request)?.grant_type === 'authorization_code') request.headers['ocp-apim-subscription-key'] = credentials.subscriptionKey;
  }),
  'authorize-unknown-client-redirects': errorToGivenUri(
    'unauthorized_client',
    (query, { credentials }) => query.client_id !== credentials.clientId,
  ),
  'authorize-unsupported-type-to-unregistered-uri': errorToGivenUri(
    'unsupported_response_type',
    (query, { credentials }) => query.response_type !== 'code' && query.redirect_uri !== credentials.redirectUri,
  ),
  'idp-subscription-key-not-required': requestTo(TOKEN, 'onRequest', (request, _reply, { credentials }) => {
    request.headers['ocp-apim-subscription-key'] = credentials.subscriptionKey;
  }),
  // A used code is redeemed again (until it expires).
  'idp-code-replayable': wrapStore('codes', 'redeem', (honest, { clock }) => (code) => {
    const redemption = honest(code);
    if (redemption.ok || redemption.reason !== 'replayed') return redemption;
    const grant = redemption.grant!;
    return clock.now() >= grant.expiresAt ? { ok: false, reason: 'expired', grant } : { ok: true, grant };
  }),
  'idp-code-redirect-uri-unchecked': replaceSeam('codeRedirectUriMatches', () => () => true),
  'idp-code-never-expires': wrapStore('codes', 'issue', (honest) => (grant) => honest(grant, NEVER_SECONDS)),
  'idp-pkce-unchecked': replaceSeam('pkceRefusal', () => () => undefined),
  'authorize-open-redirect': replaceSeam(
    'redirectUriRegistered',
    (honest) => (redirectUri) => honest(redirectUri) || (typeof redirectUri === 'string' && URL.canParse(redirectUri)),
  ),
  'authorize-redirect-uri-prefix-match': replaceSeam(
    'redirectUriRegistered',
    (honest, { credentials }) =>
      (redirectUri) =>
        honest(redirectUri) ||
        (typeof redirectUri === 'string' && URL.canParse(redirectUri) && redirectUri.startsWith(credentials.redirectUri)),
  ),
  'authorize-drops-state': answerOf(
    AUTHORIZE,
    302,
    redirectState(() => undefined),
  ),
  'authorize-changes-state': answerOf(
    AUTHORIZE,
    302,
    redirectState((state) => `${state}-changed`),
  ),
  'idp-code-redirect-uri-omitted-accepted': requestTo(TOKEN, 'preHandler', (request, _reply, { credentials }) => {
    const body = fields(request);
    if (body?.grant_type === 'authorization_code' && (body.redirect_uri === undefined || body.redirect_uri === ''))
      request.body = withField(body, 'redirect_uri', credentials.redirectUri);
  }),
  'idp-repeated-parameter-accepted': requestTo(TOKEN, 'preHandler', (request) => {
    const body = fields(request);
    if (body)
      request.body = Object.fromEntries(Object.entries(body).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value]));
  }),
  // The refusal of grant_type=password (after the gateway's and the form's checks passed) becomes a token.
  'idp-password-grant-accepted': jsonAnswerOf(TOKEN, 400, (body, request, reply, { credentials, tokens }) => {
    const sent = fields(request);
    if (body.error !== 'unsupported_grant_type' || sent?.grant_type !== 'password' || sent.client_id !== credentials.clientId) return body;
    const token = tokens.issue({
      clientId: credentials.clientId,
      scope: credentials.scopes.join(' '),
      lifetimeSeconds: TOKEN_LIFETIME_SECONDS,
    });
    reply.code(200);
    return { access_token: token, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_SECONDS };
  }),
  'idp-malformed-form-500': replaceParserOf('application/x-www-form-urlencoded', (honest) => (request, body, done) => {
    if (!/%(?![0-9a-fA-F]{2})/.test(body)) return honest(request, body, done);
    done(Object.assign(new Error('malformed percent-encoding'), { statusCode: 500 }), undefined);
  }),
} satisfies Partial<Record<MutationId, Fault>>;
