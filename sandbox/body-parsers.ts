// The sandbox's request body parsers that faults may wrap: Fastify's own for JSON, and the form parser of the
// token endpoints, which keeps repeated fields as arrays so validation refuses them (RFC 6749 section 3.2).
import type { FastifyInstance, FastifyRequest } from 'fastify';

export type BodyParser = (request: FastifyRequest, body: string, done: (error: Error | null, body?: unknown) => void) => void;
export type ParsedMediaType = 'application/json' | 'application/x-www-form-urlencoded';

export const parseForm: BodyParser = (_request, body, done) => {
  const fields: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(body)) {
    const previous = fields[name];
    fields[name] = previous === undefined ? value : ([] as string[]).concat(previous, value);
  }
  done(null, fields);
};

/** The parser `app` uses for `mediaType` when no fault replaced it. */
export function honestParser(app: FastifyInstance, mediaType: ParsedMediaType): BodyParser {
  // Fastify's defaults: prototype and constructor poisoning are refused.
  return mediaType === 'application/json' ? (app.getDefaultJsonParser('error', 'error') as BodyParser) : parseForm;
}

/** Puts `parser` in place of the one `app` has for `mediaType` (both read the body as a string). */
export function replaceParser(app: FastifyInstance, mediaType: ParsedMediaType, parser: BodyParser): void {
  if (app.hasContentTypeParser(mediaType)) app.removeContentTypeParser(mediaType);
  app.addContentTypeParser(mediaType, { parseAs: 'string' }, parser);
}
