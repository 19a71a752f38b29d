// {fleet_base_url}/vehicles and /vehicles/{vehicleNumber}: API-Key maps to a lessee, and a
// caller only ever sees that lessee's vehicles; filters and sort as the fleet spec decides.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { fleetFields } from '../../spec-core/fleet-fields.ts';
import type { SandboxContext } from '../context.ts';
import type { FilterField, SortField, VehicleQuery, VisibleFleet } from '../fleet-index.ts';
import { sendApiError } from '../replies.ts';

/** Query parameter name -> vehicle field it filters (note the lower-case v of customervehicleNumber), from the spec. */
export const FILTER_PARAMETERS: ReadonlyMap<string, FilterField> = new Map(fleetFields().filters as ReadonlyArray<[string, FilterField]>);
declare module 'fastify' {
  interface FastifyRequest {
    /** The vehicles of the caller's lessee, set once its API-Key is accepted. */
    visibleFleet?: VisibleFleet;
  }
}

export function fleetRoutes(app: FastifyInstance, context: SandboxContext): void {
  // Declared up front so every request object has the same shape: adding the property per request
  // made V8 migrate each one to a new hidden class.
  app.decorateRequest('visibleFleet', undefined);
  app.addHook('onRequest', fleetAccess(context));
  app.get('/vehicles', listHandler(context));
  app.get('/vehicles/:vehicleNumber', getHandler(context));
}

/** API-Key -> the lessee's fleet; anything else is answered 401 here, so the route handler never runs. */
function fleetAccess(context: SandboxContext) {
  const { fleet } = context;
  // Callback style, not async: no promise and microtask per request on the hottest path.
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const key = request.headers['api-key'];
    const visible = typeof key === 'string' ? fleet.forApiKey(key) : undefined;
    if (!visible) {
      sendApiError(
        reply,
        401,
        'unauthorized',
        key === undefined ? 'Access denied due to missing API key: send the API-Key header.' : 'Access denied due to invalid API key.',
      );
      return;
    }
    request.visibleFleet = visible;
    done();
  };
}

/** A query parameter the list documents: `sort` or a filter. */
export const isListParameter = (name: string): boolean => name === 'sort' || FILTER_PARAMETERS.has(name);

function listHandler(context: SandboxContext) {
  const validator = context.validators.operation('listVehicles');
  const { fleet } = context;
  const vehicleJson = (id: number) => fleet.json[id]!;
  // Synchronous handlers (send, then return nothing): Fastify then skips the promise bookkeeping.
  return (request: FastifyRequest, reply: FastifyReply) => {
    const raw = request.query as Record<string, unknown>;
    let unknown: string[] | undefined;
    for (const name in raw) {
      if (!isListParameter(name)) {
        unknown ??= [];
        unknown.push(name);
      }
    }
    if (unknown) {
      const hint = unknown.includes('customerVehicleNumber') ? ' (the filter is spelled customervehicleNumber)' : '';
      sendApiError(reply, 400, 'invalid_parameter', `Unknown query parameter(s): ${unknown.join(', ')}${hint}.`);
      return;
    }
    const checked = validator.validateQuery(raw);
    if (!checked.ok) {
      sendApiError(reply, 400, 'invalid_parameter', checked.problems.join('; '));
      return;
    }
    const ids = request.visibleFleet!.query(vehicleQuery(raw));
    reply.type('application/json; charset=utf-8');
    // A long list is streamed in slices, so the answer never exists as one string (a million
    // vehicles would be 145 MB); a short one is joined at once, which is cheaper.
    if (ids.length > STREAM_ABOVE_VEHICLES) {
      reply.send(Readable.from(jsonArraySlices(ids, vehicleJson)));
      return;
    }
    const parts = new Array<string>(ids.length);
    for (let position = 0; position < ids.length; position += 1) parts[position] = vehicleJson(ids[position]!);
    reply.send(`[${parts.join(',')}]`);
  };
}

/** The filters and sort of a validated list query. */
function vehicleQuery(raw: Record<string, unknown>): VehicleQuery {
  const query: VehicleQuery = { filters: [], combineWithAnd: true };
  for (const [name, field] of FILTER_PARAMETERS) {
    const given = raw[name];
    if (given !== undefined) query.filters.push({ field, values: Array.isArray(given) ? (given as string[]) : [String(given)] });
  }
  if (typeof raw.sort === 'string') {
    const [field, direction] = raw.sort.split(' ') as [SortField, string];
    query.sort = { field, descending: direction === 'desc' };
  }
  return query;
}

function getHandler(context: SandboxContext) {
  const validator = context.validators.operation('getVehicle');
  const { fleet } = context;
  return (request: FastifyRequest, reply: FastifyReply) => {
    const { vehicleNumber } = request.params as { vehicleNumber: string };
    const checkedPath = vehicleNumber === '' ? undefined : validator.validatePath({ vehicleNumber });
    if (checkedPath && !checkedPath.ok) {
      sendApiError(reply, 400, 'invalid_parameter', checkedPath.problems.join('; '));
      return;
    }
    const id = vehicleNumber === '' ? undefined : request.visibleFleet!.find(vehicleNumber);
    if (id === undefined) {
      sendApiError(reply, 404, 'not_found', `Vehicle ${vehicleNumber} was not found.`);
      return;
    }
    reply.type('application/json; charset=utf-8').send(fleet.json[id]);
  };
}

/** Lists longer than this are streamed. */
const STREAM_ABOVE_VEHICLES = 1000;
/** Vehicles per streamed slice: about 250 KB of JSON. */
const SLICE_VEHICLES = 1000;

/** The JSON array of the vehicles `ids`, in slices; the stream pulls the next only when the socket wants more. */
function* jsonArraySlices(ids: ArrayLike<number>, vehicleJson: (id: number) => string): Generator<string> {
  for (let start = 0; start < ids.length; start += SLICE_VEHICLES) {
    const end = Math.min(ids.length, start + SLICE_VEHICLES);
    const parts = new Array<string>(end - start);
    for (let position = start; position < end; position += 1) parts[position - start] = vehicleJson(ids[position]!);
    yield `${start === 0 ? '[' : ','}${parts.join(',')}${end === ids.length ? ']' : ''}`;
  }
}
