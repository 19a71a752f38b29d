// {fleet_base_url}/vehicles and /vehicles/{vehicleNumber}: API-Key maps to a lessee, and a
// caller only ever sees that lessee's vehicles; filters and sort as the fleet spec decides.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { mutated, type SandboxContext } from '../context.ts';
import type { FilterField, SortField, VehicleQuery, VisibleFleet } from '../fleet-index.ts';
import { OTHER_LESSEE_API_KEY } from '../config.ts';
import { sendApiError } from '../replies.ts';

/** Query parameter name -> vehicle field it filters (note the lower-case v of customervehicleNumber). */
const FILTER_PARAMETERS: Record<string, FilterField> = {
  customerNumber: 'customerNumber',
  vehicleNumber: 'vehicleNumber',
  vin: 'vin',
  customervehicleNumber: 'customerVehicleNumber',
  licensePlate: 'licensePlate',
};

declare module 'fastify' {
  interface FastifyRequest {
    visibleFleet?: VisibleFleet;
  }
}

export function fleetRoutes(app: FastifyInstance, context: SandboxContext): void {
  const validator = context.validators.operation('listVehicles');
  const getValidator = context.validators.operation('getVehicle');
  const { fleet } = context;
  const parameters = new Map(Object.entries(FILTER_PARAMETERS));
  if (mutated(context, 'list-customervehiclenumber-ignored')) {
    parameters.delete('customervehicleNumber');
    parameters.set('customerVehicleNumber', 'customerVehicleNumber');
  }
  // The mutation is fixed for the life of the process: decide once, not per request or per vehicle.
  const missingKeyAccepted = mutated(context, 'fleet-missing-key-accepted');
  const ownKeyInAnyCase = mutated(context, 'fleet-key-case-insensitive') ? context.credentials.fleetApiKey.toLowerCase() : undefined;
  const combineWithAnd = !mutated(context, 'list-filters-ored');
  const firstValueOnly = mutated(context, 'list-first-value-only');
  const filtersIgnored = mutated(context, 'list-filters-ignored');
  const sortIgnored = mutated(context, 'list-sort-ignored');
  const descIgnored = mutated(context, 'list-desc-ignored');
  const listLeaks = mutated(context, 'list-leaks-foreign-vehicles');
  const leaksOnCustomerFilter = mutated(context, 'list-leaks-on-foreign-customer-filter');
  const fieldRenamed = mutated(context, 'list-field-renamed');
  const listType = mutated(context, 'list-wrong-content-type') ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8';
  const subscriptionKeyAccepted = mutated(context, 'fleet-subscription-key-accepted');
  const refusalDisclosesVehicles = mutated(context, 'fleet-refusal-discloses-vehicles');
  const plateIgnoredWithSort = mutated(context, 'list-license-plate-ignored-with-sort');
  const nonAsciiFails = mutated(context, 'get-non-ascii-500');
  const descLeaks = mutated(context, 'list-desc-leaks-foreign');
  const quoteLeaks = mutated(context, 'list-quote-filter-leaks-foreign');
  const decodedTwice = mutated(context, 'list-filter-decoded-twice');
  const otherLessee = () => Array.from(fleet.forApiKey(OTHER_LESSEE_API_KEY)!.query({ filters: [], combineWithAnd: true }));
  /** The mutations that answer 500 to an empty filter value, or to more values of one filter than its limit. */
  const listFails = (raw: Record<string, unknown>) =>
    (mutated(context, 'list-empty-filter-500') && Object.values(raw).some((v) => v === '' || (Array.isArray(v) && v.includes('')))) ||
    (mutated(context, 'list-over-limit-500') && Object.values(raw).some((v) => Array.isArray(v) && v.length > 100));
  if (mutated(context, 'fleet-other-methods-500'))
    app.route({
      method: ['PUT', 'PATCH', 'DELETE'],
      url: '/vehicles',
      handler: (_request, reply) => sendApiError(reply, 500, 'internal_error', 'Internal server error.'),
    });

  // Declared up front so every request object has the same shape: adding the property per request
  // made V8 migrate each one to a new hidden class.
  app.decorateRequest('visibleFleet', undefined);

  // Callback style, not async: no promise and microtask per request on the hottest path.
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const key = request.headers['api-key'];
    let visible = typeof key === 'string' ? fleet.forApiKey(key) : undefined;
    if (!visible && key === undefined && missingKeyAccepted) {
      visible = fleet.forApiKey(context.credentials.fleetApiKey);
    }
    if (!visible && typeof key === 'string' && key.toLowerCase() === ownKeyInAnyCase)
      visible = fleet.forApiKey(context.credentials.fleetApiKey);
    if (
      !visible &&
      key === undefined &&
      subscriptionKeyAccepted &&
      request.headers['ocp-apim-subscription-key'] === context.credentials.subscriptionKey
    )
      visible = fleet.forApiKey(context.credentials.fleetApiKey);
    if (!visible && typeof key === 'string' && mutated(context, 'fleet-refusal-echoes-key')) {
      sendApiError(reply, 401, 'unauthorized', `Access denied: the API key ${key} is not valid.`);
      return;
    }
    if (!visible && typeof key === 'string' && refusalDisclosesVehicles) {
      const own = fleet.forApiKey(context.credentials.fleetApiKey)!;
      const ids = own.query({ filters: [], combineWithAnd: true });
      const first = [ids[0], ids[1]].filter((id): id is number => id !== undefined);
      reply
        .code(401)
        .type('application/json; charset=utf-8')
        .send(
          `{"error":"unauthorized","message":"Access denied due to invalid API key.","vehicles":[${first.map((id) => fleet.json[id]).join(',')}]}`,
        );
      return;
    }
    if (!visible) {
      // Answered here: done() is not called, so the route handler never runs.
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
  });

  // Synchronous handlers (send, then return nothing): Fastify then skips the promise bookkeeping.
  app.get('/vehicles', (request, reply) => {
    const raw = request.query as Record<string, unknown>;
    if (listFails(raw)) {
      sendApiError(reply, 500, 'internal_error', 'Internal server error.');
      return;
    }
    let unknown: string[] | undefined;
    for (const name in raw) {
      if (name !== 'sort' && !parameters.has(name)) {
        unknown ??= [];
        unknown.push(name);
      }
    }
    if (unknown) {
      const hint = unknown.includes('customerVehicleNumber') ? ' (the filter is spelled customervehicleNumber)' : '';
      sendApiError(reply, 400, 'invalid_parameter', `Unknown query parameter(s): ${unknown.join(', ')}${hint}.`);
      return;
    }
    // The mutation's alias is not in the spec; validate it under the spec's name.
    let forValidation = raw;
    if ('customerVehicleNumber' in raw) {
      forValidation = { ...raw, customervehicleNumber: raw.customerVehicleNumber };
      delete forValidation.customerVehicleNumber;
    }
    const checked = validator.validateQuery(forValidation);
    if (!checked.ok) {
      sendApiError(reply, 400, 'invalid_parameter', checked.problems.join('; '));
      return;
    }

    const query: VehicleQuery = { filters: [], combineWithAnd };
    if (!filtersIgnored) {
      for (const [name, field] of parameters) {
        const given = raw[name];
        if (given === undefined) continue;
        const given2 = Array.isArray(given) ? (given as string[]) : [String(given)];
        const values = decodedTwice ? given2.map(decodeAgain) : given2;
        query.filters.push({ field, values: firstValueOnly ? values.slice(0, 1) : values });
      }
    }
    if (plateIgnoredWithSort && typeof raw.sort === 'string') query.filters = query.filters.filter((f) => f.field !== 'licensePlate');
    if (typeof raw.sort === 'string' && !sortIgnored) {
      const [field, direction] = raw.sort.split(' ') as [SortField, string];
      query.sort = { field, descending: direction === 'desc' && !descIgnored };
    }

    const visible = listLeaks || (leaksOnCustomerFilter && raw.customerNumber !== undefined) ? fleet.forEveryone() : request.visibleFleet!;
    const leaking = (descLeaks && query.sort?.descending) || (quoteLeaks && JSON.stringify(raw).includes("'"));
    const ids = leaking ? [...Array.from(visible.query(query)), ...otherLessee()] : visible.query(query);
    const vehicleJson = fieldRenamed ? (id: number) => renameLicensePlate(fleet.vehicles[id]!) : (id: number) => fleet.json[id]!;
    reply.type(listType);
    // A long list is streamed in slices, so the answer never exists as one string (a million
    // vehicles would be 145 MB); a short one is joined at once, which is cheaper.
    if (ids.length > STREAM_ABOVE_VEHICLES) {
      reply.send(Readable.from(jsonArraySlices(ids, vehicleJson)));
      return;
    }
    const parts = new Array<string>(ids.length);
    for (let position = 0; position < ids.length; position += 1) parts[position] = vehicleJson(ids[position]!);
    reply.send(`[${parts.join(',')}]`);
  });

  app.get('/vehicles/:vehicleNumber', (request, reply) => {
    const { vehicleNumber } = request.params as { vehicleNumber: string };
    if (mutated(context, 'get-query-leaks-foreign') && request.url.includes('?')) {
      reply.type('application/json; charset=utf-8').send(fleet.json[otherLessee()[0]!]);
      return;
    }
    const encodedLetter = /%(4[1-9A-F]|5[0-9A]|6[1-9A-F]|7[0-9A])/i.test(request.url.split('?')[0]!);
    if ((nonAsciiFails && /[^ -~]/.test(vehicleNumber)) || (mutated(context, 'get-percent-encoded-500') && encodedLetter)) {
      sendApiError(reply, 500, 'internal_error', 'Internal server error.');
      return;
    }
    const checkedPath = vehicleNumber === '' ? undefined : getValidator.validatePath({ vehicleNumber });
    if (checkedPath && !checkedPath.ok) {
      sendApiError(reply, 400, 'invalid_parameter', checkedPath.problems.join('; '));
      return;
    }
    const visible = mutated(context, 'get-foreign-vehicle-returned') ? fleet.forEveryone() : request.visibleFleet!;
    let id = vehicleNumber === '' ? undefined : visible.find(vehicleNumber);
    if (id === undefined && mutated(context, 'get-case-mismatch-other-vehicle')) {
      const own = Array.from(visible.query({ filters: [], combineWithAnd: true }));
      const at = own.findIndex(
        (candidate) => fleet.vehicles[candidate]!.vehicleNumber.toLowerCase() === vehicleNumber.trim().toLowerCase(),
      );
      if (at >= 0) id = own[(at + 1) % own.length];
    }
    if (id === undefined) {
      if (mutated(context, 'get-unknown-200')) reply.send({});
      else if (mutated(context, 'get-unknown-500')) sendApiError(reply, 500, 'internal_error', 'Internal server error.');
      else sendApiError(reply, 404, 'not_found', `Vehicle ${vehicleNumber} was not found.`);
      return;
    }
    if (mutated(context, 'get-field-missing')) {
      const { vin: _vin, ...withoutVin } = fleet.vehicles[id]!;
      reply.send(withoutVin);
      return;
    }
    if (mutated(context, 'get-plate-differs-from-list')) {
      reply.send({ ...fleet.vehicles[id]!, licensePlate: `${fleet.vehicles[id]!.licensePlate}-0` });
      return;
    }
    reply.type('application/json; charset=utf-8').send(fleet.json[id]);
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

function renameLicensePlate(vehicle: Record<string, string>): string {
  const { licensePlate, ...rest } = vehicle;
  return JSON.stringify({ ...rest, licencePlate: licensePlate });
}
