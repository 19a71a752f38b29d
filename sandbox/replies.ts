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
