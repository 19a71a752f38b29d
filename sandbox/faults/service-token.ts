// The faults of POST {base_url}/token, keyed by their ids in sandbox/mutations.ts.
import type { MutationId } from '../mutations.ts';
import { isFormEncoded } from '../replies.ts';
import { type Fault, jsonAnswerOf, answerOf, replaceSeam, requestTo } from './fault.ts';

const TOKEN = 'POST /svc/token';

/** The client id and secret of an HTTP Basic Authorization header (RFC 6749 2.3.1: form-urlencoded), or undefined. */
function basicPassword(authorization: string | undefined): { id: string; secret: string } | undefined {
  const match = /^basic\s+(\S+)$/i.exec(authorization ?? '');
  const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  const unform = (text: string) => {
    try {
      return decodeURIComponent(text.replace(/\+/g, ' '));
    } catch {
      return text;
    }
  };
  return colon > 0 ? { id: unform(decoded.slice(0, colon)), secret: unform(decoded.slice(colon + 1)) } : undefined;
}
const basicClientId = (authorization: string | undefined) => basicPassword(authorization)?.id;

export const SERVICE_TOKEN_FAULTS = {
  // HTTP Basic taken as the client password, its id and secret trimmed before they are compared.
  'service-token-basic-trimmed': requestTo(TOKEN, 'preHandler', (request) => {
    const basic = basicPassword(request.headers.authorization);
    if (!isFormEncoded(request.headers['content-type']) || !basic) return;
    request.body = { ...(request.body as object), client_id: basic.id.trim(), client_secret: basic.secret.trim() };
    delete request.headers.authorization;
  }),
  'service-token-expires-in': jsonAnswerOf(TOKEN, 200, ({ expired_in, ...body }) => ({ ...body, expires_in: expired_in })),
  'service-token-expired-in-string': jsonAnswerOf(TOKEN, 200, (body) => ({ ...body, expired_in: String(body.expired_in) })),
  'service-token-lifetime-7200': replaceSeam('serviceTokenLifetimeSeconds', () => 7200),
  'service-token-type-lowercase': jsonAnswerOf(TOKEN, 200, (body) => ({ ...body, token_type: 'bearer' })),
  'service-token-client-id-ignored': replaceSeam(
    'serviceTokenClient',
    (honest, { credentials }) =>
      (body) =>
        honest({ ...body, client_id: credentials.clientId }),
  ),
  'service-token-wrong-secret-accepted': replaceSeam('serviceTokenClient', () => () => true),
  'service-token-secret-trimmed': replaceSeam(
    'serviceTokenClient',
    (honest) => (body) => honest(typeof body.client_secret === 'string' ? { ...body, client_secret: body.client_secret.trim() } : body),
  ),
  // The refusal of the client's credentials (not of HTTP Basic) in the API's error shape, without no-store.
  'service-token-error-not-rfc6749': jsonAnswerOf(TOKEN, 401, (body, _request, reply) => {
    if (body.error !== 'invalid_client' || body.error_description !== 'Client authentication failed.') return body;
    reply.removeHeader('cache-control').removeHeader('pragma');
    return { statusCode: 401, code: 'unauthorized', message: 'Client authentication failed.' };
  }),
  // HTTP Basic naming the configured client becomes the form's client_id and the right client_secret.
  'service-token-basic-secret-unchecked': requestTo(TOKEN, 'preHandler', (request, _reply, { credentials }) => {
    if (!isFormEncoded(request.headers['content-type']) || basicClientId(request.headers.authorization) !== credentials.clientId) return;
    request.body = { ...(request.body as object), client_id: credentials.clientId, client_secret: credentials.clientSecret };
    delete request.headers.authorization;
  }),
  'service-token-cacheable': answerOf(TOKEN, 200, (payload, _request, reply) => {
    reply.removeHeader('cache-control').removeHeader('pragma');
    return payload;
  }),
} satisfies Partial<Record<MutationId, Fault>>;
