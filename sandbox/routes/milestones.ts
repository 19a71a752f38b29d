// POST {base_url}/v1/load-milestone-events: bearer-protected recording of load milestones.
// The token is checked before the body is parsed, so a bad token never reveals body errors.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { mutated, type SandboxContext } from '../context.ts';
import { sendApiError } from '../replies.ts';
import { TOKEN_LIFETIME_SECONDS } from '../token-store.ts';

function bearerToken(request: FastifyRequest): string | undefined {
  return /^Bearer +(\S+) *$/i.exec(request.headers.authorization ?? '')?.[1];
}

export function milestoneRoutes(app: FastifyInstance, context: SandboxContext): void {
  const validator = context.validators.operation('recordLoadMilestoneEvent');

  const withoutChallenge = mutated(context, 'milestone-401-without-challenge');
  const refuse = (reply: FastifyReply, error: string, message: string) =>
    sendApiError(withoutChallenge ? reply : reply.header('www-authenticate', `Bearer error="${error}"`), 401, 'unauthorized', message);
  const refusedEarly = (token: string) =>
    mutated(context, 'token-refused-early') && (context.tokens.ageMs(token, TOKEN_LIFETIME_SECONDS) ?? 0) > 1000;

  /** Returns the calling client, or undefined after answering 401. */
  const authenticate = async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearerToken(request);
    if (token === undefined) {
      if (mutated(context, 'milestone-no-token-accepted')) return;
      return refuse(reply, 'invalid_request', 'Unauthorized. Access token is missing: send Authorization: Bearer <token>.');
    }
    const status = context.tokens.check(token);
    if (status === 'unknown' && !mutated(context, 'milestone-garbage-token-accepted')) {
      return refuse(reply, 'invalid_token', 'Unauthorized. The access token is invalid.');
    }
    if ((status === 'expired' && !mutated(context, 'milestone-expired-token-accepted')) || (status === 'valid' && refusedEarly(token))) {
      return refuse(reply, 'invalid_token', 'Unauthorized. The access token has expired.');
    }
    // The subscription key is optional here; a wrong one is still refused by the gateway.
    const key = request.headers['ocp-apim-subscription-key'];
    if (key !== undefined && key !== context.credentials.subscriptionKey) {
      return sendApiError(reply, 401, 'invalid_subscription_key', 'Access denied due to invalid subscription key.');
    }
  };

  /** The mutations that answer 500 to a leap second, a field of another JSON type, or a field the schema lacks. */
  const failsOnOddBody = (body: unknown): boolean => {
    if (!body || typeof body !== 'object') return false;
    const fields = body as Record<string, unknown>;
    if (mutated(context, 'milestone-leap-second-500') && /T\d\d:\d\d:60/.test(String(fields.event_time))) return true;
    if (mutated(context, 'milestone-non-string-500') && Object.values(fields).some((v) => typeof v !== 'string')) return true;
    const known = ['load_id', 'milestone_type', 'event_time'];
    return mutated(context, 'milestone-unknown-field-500') && Object.keys(fields).some((name) => !known.includes(name));
  };

  app.post('/v1/load-milestone-events', { onRequest: authenticate }, async (request, reply) => {
    const contentType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (contentType !== 'application/json') {
      if (mutated(context, 'milestone-other-content-type-500')) return sendApiError(reply, 500, 'internal_error', 'Internal server error.');
      return sendApiError(reply, 400, 'invalid_request', 'Content-Type must be application/json.');
    }
    let body = request.body;
    if (failsOnOddBody(body)) return sendApiError(reply, 500, 'internal_error', 'Internal server error.');
    if (mutated(context, 'milestone-missing-field-accepted') && body && typeof body === 'object') {
      body = { milestone_type: 'UNSPECIFIED', ...body };
    }
    if (mutated(context, 'milestone-non-utc-accepted') && body && typeof body === 'object') {
      const time = Date.parse(String((body as Record<string, unknown>).event_time));
      if (!Number.isNaN(time)) body = { ...body, event_time: new Date(time).toISOString() };
    }
    const checked = validator.validateBody(body);
    if (!checked.ok) {
      const problems = checked.problems.map((problem) =>
        problem.startsWith('body event_time') ? 'body event_time must be an ISO 8601 timestamp in UTC (ending in Z or +00:00)' : problem,
      );
      return sendApiError(reply, 400, 'invalid_request', [...new Set(problems)].join('; '));
    }
    const event = checked.value;
    try {
      // Acknowledged only once stored (written and synced with --data); a failed write stores nothing.
      await context.events.record({
        load_id: String(event.load_id),
        milestone_type: String(event.milestone_type),
        event_time: String(event.event_time),
        received_at: new Date(context.clock.now()).toISOString(),
        client_id: context.tokens.clientOf(bearerToken(request) ?? '') ?? 'unknown',
      });
    } catch (error) {
      request.log.error(
        { reqId: request.id, code: (error as NodeJS.ErrnoException).code ?? null },
        'milestone not stored: the data file write failed',
      );
      return sendApiError(reply, 500, 'internal_error', 'The event could not be stored and was not recorded; send it again.');
    }
    request.log.info({ reqId: request.id, load_id: event.load_id, milestone_type: event.milestone_type }, 'milestone recorded');
    if (mutated(context, 'milestone-text-plain')) return reply.type('text/plain').send('Load milestone event recorded.');
    if (mutated(context, 'milestone-confirmation-without-message')) return reply.send({ status: 'recorded' });
    return reply.send({ message: 'Load milestone event recorded.' });
  });
}
