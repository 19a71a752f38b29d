// POST {base_url}/token: the service token endpoint, client credentials only, answering
// with the published `expired_in` quirk and a 3600 s lifetime.
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { isFormEncoded, refuseHttpBasic, sendOAuthError } from '../replies.ts';
import { seam } from '../seams.ts';
import { sharedClientId, TOKEN_LIFETIME_SECONDS } from '../token-store.ts';
import { errorDescription, withoutEmptyValues } from './identity-provider.ts';

export function serviceTokenRoutes(app: FastifyInstance, context: SandboxContext): void {
  const validator = context.validators.operation('requestServiceToken');
  const { credentials } = context;
  const clientAuthenticated = seam(
    context,
    'serviceTokenClient',
    (body) => body.client_id === credentials.clientId && body.client_secret === credentials.clientSecret,
  );
  const lifetime = seam(context, 'serviceTokenLifetimeSeconds', TOKEN_LIFETIME_SECONDS);

  app.post('/token', async (request, reply) => {
    if (!isFormEncoded(request.headers['content-type'])) {
      return sendOAuthError(reply, 400, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded.');
    }
    const body = withoutEmptyValues(request.body);
    const basic = refuseHttpBasic(request.headers.authorization, body, reply);
    if (basic) return basic;
    if (body.grant_type !== undefined && body.grant_type !== 'client_credentials') {
      return sendOAuthError(reply, 400, 'unsupported_grant_type', 'grant_type must be client_credentials.');
    }
    const checked = validator.validateBody(body);
    if (!checked.ok) return sendOAuthError(reply, 400, 'invalid_request', errorDescription(checked.problems.join('; ')));
    if (!clientAuthenticated(body)) return sendOAuthError(reply, 401, 'invalid_client', 'Client authentication failed.');

    const token = context.tokens.issue({
      clientId: sharedClientId(body.client_id, credentials.clientId),
      scope: '',
      lifetimeSeconds: lifetime,
    });
    return reply
      .header('cache-control', 'no-store')
      .header('pragma', 'no-cache')
      .send({ access_token: token, token_type: 'Bearer', expired_in: lifetime });
  });
}
