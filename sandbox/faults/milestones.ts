// The faults of POST {base_url}/v1/load-milestone-events and its bearer tokens, keyed by their ids in sandbox/mutations.ts.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MutationId } from '../mutations.ts';
import { sendApiError } from '../replies.ts';
import { bearerToken, bodyMediaType } from '../routes/milestones.ts';
import { TOKEN_LIFETIME_SECONDS } from '../token-store.ts';
import { answerOf, type Fault, jsonAnswerOf, replaceParserOf, replaceSeam, requestTo, wrapStore } from './fault.ts';

const MILESTONES = 'POST /svc/v1/load-milestone-events';

/** The milestone the route will validate: the JSON body when it is an object (the route refuses other media types first). */
function milestone(request: FastifyRequest): Record<string, unknown> | undefined {
  const { body } = request;
  return bodyMediaType(request) === 'application/json' && body && typeof body === 'object' ? (body as Record<string, unknown>) : undefined;
}

/** Answers 500 to the milestones `chokes` on, as a server that breaks on them would. */
function failsOn(chokes: (fields: Record<string, unknown>) => boolean): Fault {
  return requestTo(MILESTONES, 'preHandler', (request, reply) => {
    const fields = milestone(request);
    return fields && chokes(fields) ? internalError(reply) : undefined;
  });
}

const internalError = (reply: FastifyReply) => sendApiError(reply, 500, 'internal_error', 'Internal server error.');
const KNOWN_FIELDS = ['load_id', 'milestone_type', 'event_time'];

export const MILESTONE_FAULTS = {
  'milestone-no-token-accepted': replaceSeam(
    'bearerAuthentication',
    (honest) => async (request, reply) => (bearerToken(request) === undefined ? undefined : honest(request, reply)),
  ),
  'milestone-garbage-token-accepted': wrapStore('tokens', 'check', (honest) => (token) => {
    const status = honest(token);
    return status === 'unknown' ? 'valid' : status;
  }),
  'milestone-expired-token-accepted': wrapStore('tokens', 'check', (honest) => (token) => {
    const status = honest(token);
    return status === 'expired' ? 'valid' : status;
  }),
  'milestone-malformed-json-500': replaceParserOf('application/json', (honest) => (request, body, done) => {
    honest(request, body, (error, value) =>
      error ? done(Object.assign(new Error('malformed JSON'), { statusCode: 500 }), undefined) : done(null, value),
    );
  }),
  'milestone-non-utc-accepted': requestTo(MILESTONES, 'preHandler', (request) => {
    const fields = milestone(request);
    const time = Date.parse(String(fields?.event_time));
    if (fields && !Number.isNaN(time)) request.body = { ...fields, event_time: new Date(time).toISOString() };
  }),
  'milestone-missing-field-accepted': requestTo(MILESTONES, 'preHandler', (request) => {
    const fields = milestone(request);
    if (fields) request.body = { milestone_type: 'UNSPECIFIED', ...fields };
  }),
  'milestone-confirmation-without-message': jsonAnswerOf(MILESTONES, 200, () => ({ status: 'recorded' })),
  'milestone-text-plain': answerOf(MILESTONES, 200, (_payload, _request, reply) => {
    reply.type('text/plain');
    return 'Load milestone event recorded.';
  }),
  'milestone-other-content-type-500': requestTo(MILESTONES, 'preHandler', (request, reply) =>
    bodyMediaType(request) === 'application/json' ? undefined : internalError(reply),
  ),
  'milestone-blank-load-id-500': failsOn(
    (fields) => typeof fields.load_id === 'string' && fields.load_id !== '' && fields.load_id.trim() === '',
  ),
  // A server that reads a field of the parsed body before it checks the body is an object.
  'milestone-null-body-500': requestTo(MILESTONES, 'preHandler', (request, reply) =>
    bodyMediaType(request) === 'application/json' && request.body === null ? internalError(reply) : undefined,
  ),
  'milestone-leap-second-500': failsOn((fields) => /T\d\d:\d\d:60/.test(String(fields.event_time))),
  'milestone-non-string-500': failsOn((fields) => Object.values(fields).some((value) => typeof value !== 'string')),
  'milestone-unknown-field-500': failsOn((fields) => Object.keys(fields).some((name) => !KNOWN_FIELDS.includes(name))),
  'milestone-401-without-challenge': answerOf(MILESTONES, 401, (payload, _request, reply) => {
    reply.removeHeader('www-authenticate');
    return payload;
  }),
  // A valid token more than a second old is refused as expired.
  'token-refused-early': wrapStore('tokens', 'check', (honest, { tokens }) => (token) => {
    const status = honest(token);
    return status === 'valid' && (tokens.ageMs(token, TOKEN_LIFETIME_SECONDS) ?? 0) > 1000 ? 'expired' : status;
  }),
} satisfies Partial<Record<MutationId, Fault>>;
