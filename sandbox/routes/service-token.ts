// POST {base_url}/token: the service token endpoint, client credentials only, answering
// with the published `expired_in` quirk and a 3600 s lifetime.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { mutated, type SandboxContext } from '../context.ts';
import { isFormEncoded, refuseHttpBasic, sendApiError, sendOAuthError } from '../replies.ts';
import { sharedClientId, TOKEN_LIFETIME_SECONDS } from '../token-store.ts';
import { errorDescription, withoutEmptyValues } from './identity-provider.ts';

/** The client id of an HTTP Basic Authorization header (RFC 6749 2.3.1: form-urlencoded), or undefined. */
function basicClientId(authorization: string | undefined): string | undefined {
  const match = /^basic\s+(\S+)$/i.exec(authorization ?? '');
  const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  return colon > 0 ? decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')) : undefined;
}

export function serviceTokenRoutes(app: FastifyInstance, context: SandboxContext): void {
  const validator = context.validators.operation('requestServiceToken');

  app.post('/token', async (request, reply) => {
    if (!isFormEncoded(request.headers['content-type'])) {
      return sendOAuthError(reply, 400, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded.');
    }
    const body = withoutEmptyValues(request.body);
    // The mutation takes any secret in HTTP Basic for the configured client (RFC 6749 2.3.1, 3.2.1 unchecked).
    if (
      mutated(context, 'service-token-basic-secret-unchecked') &&
      basicClientId(request.headers.authorization) === context.credentials.clientId
    )
      return issue({ ...body, client_id: context.credentials.clientId, client_secret: context.credentials.clientSecret }, reply);
    const basic = refuseHttpBasic(request.headers.authorization, body, reply);
    if (basic) return basic;
    return issue(body, reply);
  });

  async function issue(body: Record<string, unknown>, reply: FastifyReply) {
    if (body.grant_type !== undefined && body.grant_type !== 'client_credentials') {
      return sendOAuthError(reply, 400, 'unsupported_grant_type', 'grant_type must be client_credentials.');
    }
    const checked = validator.validateBody(body);
    if (!checked.ok) return sendOAuthError(reply, 400, 'invalid_request', errorDescription(checked.problems.join('; ')));

    const { credentials } = context;
    const secret =
      mutated(context, 'service-token-secret-trimmed') && typeof body.client_secret === 'string'
        ? body.client_secret.trim()
        : body.client_secret;
    const clientMatches = body.client_id === credentials.clientId || mutated(context, 'service-token-client-id-ignored');
    const authenticated = clientMatches && secret === credentials.clientSecret;
    if (!authenticated && !mutated(context, 'service-token-wrong-secret-accepted')) {
      if (mutated(context, 'service-token-error-not-rfc6749')) {
        return sendApiError(reply, 401, 'unauthorized', 'Client authentication failed.');
      }
      return sendOAuthError(reply, 401, 'invalid_client', 'Client authentication failed.');
    }

    const lifetime = mutated(context, 'service-token-lifetime-7200') ? 7200 : TOKEN_LIFETIME_SECONDS;
    const token = context.tokens.issue({
      clientId: sharedClientId(body.client_id, credentials.clientId),
      scope: '',
      lifetimeSeconds: lifetime,
    });
    const response: Record<string, unknown> = {
      access_token: token,
      token_type: mutated(context, 'service-token-type-lowercase') ? 'bearer' : 'Bearer',
      expired_in: mutated(context, 'service-token-expired-in-string') ? String(lifetime) : lifetime,
    };
    if (mutated(context, 'service-token-expires-in')) {
      response.expires_in = response.expired_in;
      delete response.expired_in;
    }
    if (mutated(context, 'service-token-cacheable')) return reply.send(response);
    return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(response);
  }
}
