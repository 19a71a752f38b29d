// The faults of {fleet_base_url}: its API-Key, the list and the single vehicle, keyed by their ids in sandbox/mutations.ts.
// Most change the fleet a request sees (request.visibleFleet, which the honest access hook set): what it answers to
// the route's query, or whose vehicles it holds.
import { Transform, Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { OTHER_LESSEE_API_KEY } from '../config.ts';
import type { FleetIndex, VehicleQuery, VisibleFleet } from '../fleet-index.ts';
import type { MutationId } from '../mutations.ts';
import { sendApiError } from '../replies.ts';
import { isListParameter } from '../routes/fleet.ts';
import { addRoute, answerOf, type Fault, jsonAnswerOf, requestTo } from './fault.ts';

const ANY = '* /fleet/*';
const LIST = 'GET /fleet/vehicles';
const GET = 'GET /fleet/vehicles/:vehicleNumber';

const internalError = (reply: FastifyReply) => sendApiError(reply, 500, 'internal_error', 'Internal server error.');
const otherLessee = (fleet: FleetIndex) => Array.from(fleet.forApiKey(OTHER_LESSEE_API_KEY)!.ids);

/** The unfiltered list reads of each sandbox's fleet (list-changes-between-reads). */
const UNFILTERED_READS = new WeakMap<FleetIndex, number>();

/** `visible` with some of its answers changed; the rest (and its indexes) are its own. */
function view(visible: VisibleFleet, change: Partial<Pick<VisibleFleet, 'query' | 'find'>>): VisibleFleet {
  return Object.assign(Object.create(visible) as VisibleFleet, change);
}

/** The list route's query, changed before the caller's fleet answers it. */
function listQuery(change: (query: VehicleQuery) => VehicleQuery): Fault {
  return requestTo(LIST, 'preHandler', (request) => {
    const visible = request.visibleFleet!;
    request.visibleFleet = view(visible, { query: (query) => visible.query(change(query)) });
  });
}

/** The list also holds the other lessee's vehicles, after the caller's, when `leaks` says so. */
function listLeaks(leaks: (query: VehicleQuery, request: FastifyRequest) => boolean): Fault {
  return requestTo(LIST, 'preHandler', (request, _reply, { fleet }) => {
    const visible = request.visibleFleet!;
    const query = (asked: VehicleQuery) =>
      leaks(asked, request) ? [...Array.from(visible.query(asked)), ...otherLessee(fleet)] : visible.query(asked);
    request.visibleFleet = view(visible, { query });
  });
}

/** A second percent-decoding, as a server that decodes twice does (a malformed one leaves the value as it is). */
function decodeAgain(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Each vehicle of a list answer changed: the answer is a string, or a stream of slices that each hold whole vehicles. */
function eachVehicle(payload: unknown, change: (vehicle: Record<string, unknown>) => Record<string, unknown>): unknown {
  // Vehicles are flat objects of strings, so each {...} is one vehicle.
  const rewrite = (json: string) => json.replace(/\{[^{}]*\}/g, (vehicle) => JSON.stringify(change(JSON.parse(vehicle))));
  if (typeof payload === 'string') return rewrite(payload);
  if (!(payload instanceof Readable)) return payload;
  return payload.pipe(new Transform({ transform: (slice, _encoding, done) => done(null, rewrite(String(slice))) }));
}

export const FLEET_ACCESS_FAULTS = {
  'fleet-missing-key-accepted': requestTo(ANY, 'onRequest', (request, _reply, { credentials }) => {
    if (request.headers['api-key'] === undefined) request.headers['api-key'] = credentials.fleetApiKey;
  }),
  'fleet-key-case-insensitive': requestTo(ANY, 'onRequest', (request, _reply, { credentials, fleet }) => {
    const key = request.headers['api-key'];
    if (typeof key === 'string' && !fleet.forApiKey(key) && key.toLowerCase() === credentials.fleetApiKey.toLowerCase())
      request.headers['api-key'] = credentials.fleetApiKey;
  }),
  // Two faults at once: a wrong key is let through only when the query also has a parameter the list does not document.
  'fleet-wrong-key-with-unknown-query-accepted': requestTo(ANY, 'onRequest', (request, _reply, { credentials, fleet }) => {
    const key = request.headers['api-key'];
    const names = Object.keys(request.query as Record<string, unknown>);
    if (typeof key === 'string' && !fleet.forApiKey(key) && !names.every(isListParameter))
      request.headers['api-key'] = credentials.fleetApiKey;
  }),
  'fleet-subscription-key-accepted': requestTo(ANY, 'onRequest', (request, _reply, { credentials }) => {
    if (request.headers['api-key'] === undefined && request.headers['ocp-apim-subscription-key'] === credentials.subscriptionKey)
      request.headers['api-key'] = credentials.fleetApiKey;
  }),
  'fleet-refusal-discloses-vehicles': answerOf(ANY, 401, (payload, request, _reply, { credentials, fleet }) => {
    if (typeof request.headers['api-key'] !== 'string') return payload;
    const own = fleet.forApiKey(credentials.fleetApiKey)!.ids;
    const first = [own[0], own[1]].filter((id): id is number => id !== undefined).map((id) => fleet.json[id]);
    return `{"error":"unauthorized","message":"Access denied due to invalid API key.","vehicles":[${first.join(',')}]}`;
  }),
  'fleet-refusal-echoes-key': jsonAnswerOf(ANY, 401, (body, request) => {
    const key = request.headers['api-key'];
    return typeof key === 'string' ? { ...body, message: `Access denied: the API key ${key} is not valid.` } : body;
  }),
  'fleet-other-methods-500': addRoute('/fleet', {
    method: ['PUT', 'PATCH', 'DELETE'],
    url: '/vehicles',
    handler: (_request, reply) => internalError(reply),
  }),
} satisfies Partial<Record<MutationId, Fault>>;

export const FLEET_LIST_FAULTS = {
  'list-license-plate-ignored-with-sort': listQuery((query) =>
    query.sort ? { ...query, filters: query.filters.filter((filter) => filter.field !== 'licensePlate') } : query,
  ),
  'list-leaks-foreign-vehicles': requestTo(LIST, 'preHandler', (request, _reply, { fleet }) => {
    request.visibleFleet = fleet.forEveryone();
  }),
  'list-leaks-on-foreign-customer-filter': requestTo(LIST, 'preHandler', (request, _reply, { fleet }) => {
    if ((request.query as Record<string, unknown>).customerNumber !== undefined) request.visibleFleet = fleet.forEveryone();
  }),
  'list-filters-ignored': listQuery((query) => ({ ...query, filters: [] })),
  'list-filters-ored': listQuery((query) => ({ ...query, combineWithAnd: false })),
  // Data that does not hold still: the nth unfiltered list of a sandbox lacks its last n vehicles (modulo the fleet's
  // size), so two reads differ whatever other reads come between them, but one in as many as the fleet has vehicles.
  'list-changes-between-reads': requestTo(LIST, 'preHandler', (request, _reply, { fleet }) => {
    const visible = request.visibleFleet!;
    const query = (asked: VehicleQuery) => {
      const ids = Array.from(visible.query(asked));
      if (asked.filters.length || asked.sort) return ids;
      const reads = (UNFILTERED_READS.get(fleet) ?? 0) + 1;
      UNFILTERED_READS.set(fleet, reads);
      return ids.slice(0, ids.length - (reads % Math.max(1, ids.length)));
    };
    request.visibleFleet = view(visible, { query });
  }),
  'list-first-value-only': listQuery((query) => ({
    ...query,
    filters: query.filters.map((filter) => ({ ...filter, values: filter.values.slice(0, 1) })),
  })),
  'list-sort-ignored': listQuery(({ sort: _sort, ...query }) => query),
  'list-desc-ignored': listQuery((query) => (query.sort ? { ...query, sort: { ...query.sort, descending: false } } : query)),
  // customerVehicleNumber (upper-case V) filters under the spec's name; the spec's customervehicleNumber is unknown.
  'list-customervehiclenumber-ignored': requestTo(LIST, 'preHandler', (request, reply) => {
    const { customerVehicleNumber, ...rest } = request.query as Record<string, unknown>;
    const unknown = Object.keys(rest).filter((name) => name === 'customervehicleNumber' || !isListParameter(name));
    if (unknown.length > 0) return sendApiError(reply, 400, 'invalid_parameter', `Unknown query parameter(s): ${unknown.join(', ')}.`);
    if (customerVehicleNumber !== undefined) request.query = { ...rest, customervehicleNumber: customerVehicleNumber };
  }),
  'list-field-renamed': answerOf(LIST, 200, (payload) =>
    eachVehicle(payload, ({ licensePlate, ...vehicle }) => ({ ...vehicle, licencePlate: licensePlate })),
  ),
  'list-sort-moves-field': answerOf(LIST, 200, (payload, request) => {
    if (!(request.query as Record<string, unknown>).sort) return payload;
    // Each vehicle gets the license plate of the one before it in the answer (the first keeps its own).
    let previous: unknown;
    return eachVehicle(payload, (vehicle) => {
      const own = vehicle.licensePlate;
      const moved = { ...vehicle, licensePlate: previous ?? own };
      previous = own;
      return moved;
    });
  }),
  'list-wrong-content-type': answerOf(LIST, 200, (payload, _request, reply) => {
    reply.header('content-type', 'text/plain; charset=utf-8');
    return payload;
  }),
  'list-desc-leaks-foreign': listLeaks((query) => query.sort?.descending === true),
  'list-quote-filter-leaks-foreign': listLeaks((_query, request) => JSON.stringify(request.query).includes("'")),
  'list-empty-filter-500': requestTo(LIST, 'preHandler', (request, reply) => {
    const values = Object.values(request.query as Record<string, unknown>);
    return values.some((value) => value === '' || (Array.isArray(value) && value.includes(''))) ? internalError(reply) : undefined;
  }),
  'list-filter-decoded-twice': listQuery((query) => ({
    ...query,
    filters: query.filters.map((filter) => ({ ...filter, values: filter.values.map(decodeAgain) })),
  })),
  'list-over-limit-500': requestTo(LIST, 'preHandler', (request, reply) => {
    const values = Object.values(request.query as Record<string, unknown>);
    return values.some((value) => Array.isArray(value) && value.length > 100) ? internalError(reply) : undefined;
  }),
} satisfies Partial<Record<MutationId, Fault>>;

const vehicleNumberOf = (request: FastifyRequest) => (request.params as { vehicleNumber: string }).vehicleNumber;

export const FLEET_GET_FAULTS = {
  'get-non-ascii-500': requestTo(GET, 'preHandler', (request, reply) =>
    /[^ -~]/.test(vehicleNumberOf(request)) ? internalError(reply) : undefined,
  ),
  'get-foreign-vehicle-returned': requestTo(GET, 'preHandler', (request, _reply, { fleet }) => {
    request.visibleFleet = fleet.forEveryone();
  }),
  'get-foreign-with-customer-query': requestTo(GET, 'preHandler', (request, _reply, { fleet }) => {
    if ((request.query as Record<string, unknown>).customerNumber !== undefined) request.visibleFleet = fleet.forEveryone();
  }),
  'get-foreign-refusal-names-customer': jsonAnswerOf(GET, 404, (body, request, _reply, { fleet }) => {
    const { vehicleNumber } = request.params as { vehicleNumber: string };
    const id = fleet.forEveryone().find(vehicleNumber);
    if (id === undefined) return body;
    return { ...body, message: `Vehicle ${vehicleNumber} belongs to customer ${fleet.vehicles[id]!.customerNumber}.` };
  }),
  'get-unknown-200': jsonAnswerOf(GET, 404, (_body, _request, reply) => {
    reply.code(200);
    return {};
  }),
  'get-unknown-500': jsonAnswerOf(GET, 404, (_body, _request, reply) => {
    reply.code(500);
    return { statusCode: 500, code: 'internal_error', message: 'Internal server error.' };
  }),
  'get-field-missing': jsonAnswerOf(GET, 200, ({ vin: _vin, ...vehicle }) => vehicle),
  'get-query-leaks-foreign': requestTo(GET, 'preHandler', (request, reply, { fleet }) =>
    request.url.includes('?') ? reply.type('application/json; charset=utf-8').send(fleet.json[otherLessee(fleet)[0]!]) : undefined,
  ),
  'get-percent-encoded-500': requestTo(GET, 'preHandler', (request, reply) =>
    /%(4[1-9A-F]|5[0-9A]|6[1-9A-F]|7[0-9A])/i.test(request.url.split('?')[0]!) ? internalError(reply) : undefined,
  ),
  'get-plate-differs-from-list': jsonAnswerOf(GET, 200, (vehicle) => ({ ...vehicle, licensePlate: `${vehicle.licensePlate}-0` })),
  // A number that matches one of the caller's vehicles only without regard to case finds the vehicle after it.
  'get-case-mismatch-other-vehicle': requestTo(GET, 'preHandler', (request, _reply, { fleet }) => {
    const visible = request.visibleFleet!;
    const caseMatch = (vehicleNumber: string) => {
      const own = Array.from(visible.ids);
      const wanted = vehicleNumber.trim().toLowerCase();
      const at = own.findIndex((id) => fleet.vehicles[id]!.vehicleNumber.toLowerCase() === wanted);
      return at >= 0 ? own[(at + 1) % own.length] : undefined;
    };
    request.visibleFleet = view(visible, { find: (vehicleNumber) => visible.find(vehicleNumber) ?? caseMatch(vehicleNumber) });
  }),
} satisfies Partial<Record<MutationId, Fault>>;
