// Sandbox-only routes under /_sandbox/: health, the recorded milestone events and the
// clock. They are not part of the API and no real environment has them.
import type { FastifyInstance } from 'fastify';
import { MAX_OFFSET_SECONDS } from '../clock.ts';
import type { SandboxContext } from '../context.ts';
import { sendApiError } from '../replies.ts';

export function inspectionRoutes(app: FastifyInstance, context: SandboxContext): void {
  app.get('/health', async () => ({
    status: 'ok',
    vehicles: context.fleet.vehicles.length,
    mutation: context.mutation ?? null,
    clockOffsetSeconds: context.clock.offsetSeconds,
  }));

  app.get('/load-milestone-events', async (request) => {
    const { load_id: loadId } = request.query as { load_id?: unknown };
    const events = context.events.list();
    return typeof loadId === 'string' ? events.filter((event) => event.load_id === loadId) : events;
  });

  const clockState = () => ({ now: new Date(context.clock.now()).toISOString(), offsetSeconds: context.clock.offsetSeconds });
  app.get('/clock', async () => clockState());

  /** Body: {"advanceSeconds": n} moves the clock forward; {"offsetSeconds": n} sets the offset from real time. */
  app.post('/clock', async (request, reply) => {
    const body = request.body as Record<string, unknown> | undefined;
    const advance = body?.advanceSeconds;
    const offset = body?.offsetSeconds;
    const isSeconds = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
    const moved =
      isSeconds(advance) && offset === undefined ? context.clock.advance(advance)
      : isSeconds(offset) && advance === undefined ? context.clock.setOffset(offset)
      : undefined;
    if (moved === undefined) {
      return sendApiError(reply, 400, 'invalid_request', 'Send a JSON body with exactly one of advanceSeconds or offsetSeconds (a number of seconds).');
    }
    if (!moved) return sendApiError(reply, 400, 'invalid_request', `The clock offset must stay within +/- ${MAX_OFFSET_SECONDS} seconds.`);
    return clockState();
  });
}
