// Sandbox-only routes under /_sandbox/: health, the recorded milestone events and the
// clock. They are not part of the API and no real environment has them.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_OFFSET_SECONDS } from '../clock.ts';
import type { SandboxContext } from '../context.ts';
import { sendApiError } from '../replies.ts';

/** Events per page of /_sandbox/load-milestone-events, by default and at most. */
const DEFAULT_PAGE_EVENTS = 1000;
/** A page stops growing beyond this much JSON, so no stored value can make one too large to build. */
const PAGE_BYTES = 4 * 1024 * 1024;

/** An integer query value within [min, max]; the fallback when absent; undefined when invalid. */
function pagingNumber(raw: unknown, fallback: number, min: number, max: number): number | undefined {
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !/^\d{1,16}$/.test(raw)) return undefined;
  const value = Number(raw);
  return value >= min && value <= max ? value : undefined;
}

const MIB = 1024 * 1024;

/**
 * The process's memory in MiB. Started with --expose-gc (as the memory tests start it), the sandbox first runs a full
 * collection, so what is left is what it keeps: a leak shows without the swing of a heap between collections.
 */
function memoryState() {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc === 'function') gc();
  const usage = process.memoryUsage();
  const mib = (bytes: number) => Math.round((bytes / MIB) * 100) / 100;
  return { collected: typeof gc === 'function', heapUsed: mib(usage.heapUsed), external: mib(usage.external), rss: mib(usage.rss) };
}

export function inspectionRoutes(app: FastifyInstance, context: SandboxContext): void {
  app.get('/health', async () => ({
    status: 'ok',
    vehicles: context.fleet.vehicles.length,
    mutation: context.mutation ?? null,
    clockOffsetSeconds: context.clock.offsetSeconds,
    // What the bounded stores hold now, for soak tests and capacity checks.
    stored: { codes: context.codes.size, tokens: context.tokens.size, events: context.events.size },
  }));

  app.get('/memory', async () => memoryState());

  app.get('/load-milestone-events', eventPageHandler(context));

  const clockState = () => ({ now: new Date(context.clock.now()).toISOString(), offsetSeconds: context.clock.offsetSeconds });
  app.get('/clock', async () => clockState());

  /** Body: {"advanceSeconds": n} moves the clock forward; {"offsetSeconds": n} sets the offset from real time. */
  app.post('/clock', async (request, reply) => {
    const body = request.body as Record<string, unknown> | undefined;
    const advance = body?.advanceSeconds;
    const offset = body?.offsetSeconds;
    const isSeconds = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
    const moved =
      isSeconds(advance) && offset === undefined
        ? context.clock.advance(advance)
        : isSeconds(offset) && advance === undefined
          ? context.clock.setOffset(offset)
          : undefined;
    if (moved === undefined) {
      return sendApiError(
        reply,
        400,
        'invalid_request',
        'Send a JSON body with exactly one of advanceSeconds or offsetSeconds (a number of seconds).',
      );
    }
    if (!moved) return sendApiError(reply, 400, 'invalid_request', `The clock offset must stay within +/- ${MAX_OFFSET_SECONDS} seconds.`);
    return clockState();
  });
}

/**
 * One page of the recorded events, oldest first: `?limit` (default and most 1000) after the
 * event with seq `?after`. A `Link: <...>; rel="next"` header points to the next page.
 */
function eventPageHandler(context: SandboxContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const query = request.query as Record<string, unknown>;
    const loadId = typeof query.load_id === 'string' ? query.load_id : undefined;
    const limit = pagingNumber(query.limit, DEFAULT_PAGE_EVENTS, 1, DEFAULT_PAGE_EVENTS);
    const after = pagingNumber(query.after, 0, 0, Number.MAX_SAFE_INTEGER);
    if (limit === undefined || after === undefined || (query.load_id !== undefined && loadId === undefined)) {
      return sendApiError(
        reply,
        400,
        'invalid_request',
        `limit must be an integer from 1 to ${DEFAULT_PAGE_EVENTS}, after a non-negative integer (an event's seq), load_id given once.`,
      );
    }
    const page = context.events.page({ after, limit, loadId });
    // Serialised here, one event at a time, so a page stays under PAGE_BYTES however long the stored values are.
    const parts: string[] = [];
    let bytes = 0;
    let more = page.more;
    for (const event of page.events) {
      const json = JSON.stringify(event);
      if (parts.length > 0 && bytes + json.length > PAGE_BYTES) {
        more = true;
        break;
      }
      parts.push(json);
      bytes += json.length + 1;
    }
    if (more) {
      const last = page.events[parts.length - 1]!.seq;
      const next = new URLSearchParams({ ...(loadId === undefined ? {} : { load_id: loadId }), limit: String(limit), after: String(last) });
      reply.header('link', `</_sandbox/load-milestone-events?${next}>; rel="next"`);
    }
    return reply.type('application/json; charset=utf-8').send(`[${parts.join(',')}]`);
  };
}
