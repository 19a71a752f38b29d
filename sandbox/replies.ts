// The two error body shapes the specs define: RFC 6749 errors for token endpoints and the
// open Error object (statusCode, code, message) for everything else, plus the HTML error page.
import type { FastifyReply } from 'fastify';

export function sendOAuthError(reply: FastifyReply, status: number, error: string, description: string): FastifyReply {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .send({ error, error_description: description });
}

/**
 * The token endpoints authenticate clients by client_secret in the form (the seed's requests); HTTP Basic is not
 * supported. A request that tries it is refused as RFC 6749 asks: 400 invalid_request when it also sends the form's
 * secret (two methods, section 2.3), else 401 invalid_client with a Basic challenge (section 5.2). Undefined: go on.
 */
export function refuseHttpBasic(
  authorization: string | undefined,
  body: Record<string, unknown>,
  reply: FastifyReply,
): FastifyReply | undefined {
  if (!/^basic\s/i.test(authorization ?? '')) return undefined;
  if (body.client_secret !== undefined)
    return sendOAuthError(reply, 400, 'invalid_request', 'The client authenticated twice: with HTTP Basic and with client_secret.');
  reply.header('www-authenticate', 'Basic realm="token"');
  return sendOAuthError(
    reply,
    401,
    'invalid_client',
    'HTTP Basic client authentication is not supported: send client_id and client_secret in the form.',
  );
}

export function sendApiError(reply: FastifyReply, status: number, code: string, message: string): FastifyReply {
  return reply.code(status).send({ statusCode: status, code, message });
}

export function sendHtmlError(reply: FastifyReply, status: number, message: string): FastifyReply {
  const escaped = message.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(`<!doctype html><title>Bad request</title><h1>Bad request</h1><p>${escaped}</p>`);
}

/** True when the request body was sent form-encoded, as both token endpoints require. */
export function isFormEncoded(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}
