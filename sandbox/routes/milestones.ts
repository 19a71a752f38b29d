// POST {base_url}/v1/load-milestone-events: bearer-protected recording of load milestones.
// The token is checked before the body is parsed, so a bad token never reveals body errors.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { sendApiError } from '../replies.ts';
import { seam } from '../seams.ts';

export function bearerToken(request: FastifyRequest): string | undefined {
  return /^Bearer +(\S+) *$/i.exec(request.headers.authorization ?? '')?.[1];
}

/** The media type of the request body, lower-cased, without parameters. */
export function bodyMediaType(request: FastifyRequest): string {
  return (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

export function milestoneRoutes(app: FastifyInstance, context: SandboxContext): void {
  const validator = context.validators.operation('recordLoadMilestoneEvent');
  const refuse = (reply: FastifyReply, error: string, message: string) =>
    sendApiError(reply.header('www-authenticate', `Bearer error="${error}"`), 401, 'unauthorized', message);

  /** Returns after answering 401, or with nothing when the request may go on. */
  const authenticate = seam(context, 'bearerAuthentication', async (request, reply) => {
    const token = bearerToken(request);
    if (token === undefined) {
      return refuse(reply, 'invalid_request', 'Unauthorized. Access token is missing: send Authorization: Bearer <token>.');
    }
    const status = context.tokens.check(token);
    if (status === 'unknown') return refuse(reply, 'invalid_token', 'Unauthorized. The access token is invalid.');
    if (status === 'expired') return refuse(reply, 'invalid_token', 'Unauthorized. The access token has expired.');
    // The subscription key is optional here; a wrong one is still refused by the gateway.
    const key = request.headers['ocp-apim-subscription-key'];
    if (key !== undefined && key !== context.credentials.subscriptionKey) {
      return sendApiError(reply, 401, 'invalid_subscription_key', 'Access denied due to invalid subscription key.');
    }
  });

  app.post('/v1/load-milestone-events', { onRequest: authenticate }, async (request, reply) => {
    if (bodyMediaType(request) !== 'application/json') {
      return sendApiError(reply, 400, 'invalid_request', 'Content-Type must be application/json.');
    }
    const checked = validator.validateBody(request.body);
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
    return reply.send({ message: 'Load milestone event recorded.' });
  });
}
