// {fleet_base_url}/vehicles and /vehicles/{vehicleNumber}: API-Key maps to a lessee, and a
// caller only ever sees that lessee's vehicles; filters and sort as the fleet spec decides.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { mutated, type SandboxContext } from '../context.ts';
import { type FilterField, type SortField, type VehicleQuery, type VisibleFleet } from '../fleet-index.ts';
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
  const { fleet } = context;
  const parameters = { ...FILTER_PARAMETERS };
  if (mutated(context, 'list-customervehiclenumber-ignored')) {
    delete parameters.customervehicleNumber;
    parameters.customerVehicleNumber = 'customerVehicleNumber';
  }

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const key = request.headers['api-key'];
    let visible = typeof key === 'string' ? fleet.forApiKey(key) : undefined;
    if (!visible && key === undefined && mutated(context, 'fleet-missing-key-accepted')) {
      visible = fleet.forApiKey(context.credentials.fleetApiKey);
    }
    if (!visible) {
      return sendApiError(
        reply, 401, 'unauthorized',
        key === undefined ? 'Access denied due to missing API key: send the API-Key header.' : 'Access denied due to invalid API key.',
      );
    }
    request.visibleFleet = visible;
  });

  app.get('/vehicles', async (request, reply) => {
    const raw = request.query as Record<string, unknown>;
    const unknown = Object.keys(raw).filter((name) => name !== 'sort' && !(name in parameters));
    if (unknown.length > 0) {
      const hint = unknown.includes('customerVehicleNumber') ? ' (the filter is spelled customervehicleNumber)' : '';
      return sendApiError(reply, 400, 'invalid_parameter', `Unknown query parameter(s): ${unknown.join(', ')}${hint}.`);
    }
    // The mutation's alias is not in the spec; validate it under the spec's name.
    const forValidation = { ...raw };
    if ('customerVehicleNumber' in forValidation) {
      forValidation.customervehicleNumber = forValidation.customerVehicleNumber;
      delete forValidation.customerVehicleNumber;
    }
    const checked = validator.validateQuery(forValidation);
    if (!checked.ok) return sendApiError(reply, 400, 'invalid_parameter', checked.problems.join('; '));

    const query: VehicleQuery = { filters: [], combineWithAnd: !mutated(context, 'list-filters-ored') };
    for (const [name, field] of Object.entries(parameters)) {
      const given = raw[name];
      if (given === undefined) continue;
      const values = Array.isArray(given) ? (given as string[]) : [String(given)];
      query.filters.push({ field, values: mutated(context, 'list-first-value-only') ? values.slice(0, 1) : values });
    }
    if (mutated(context, 'list-filters-ignored')) query.filters = [];
    if (typeof raw.sort === 'string' && !mutated(context, 'list-sort-ignored')) {
      const [field, direction] = raw.sort.split(' ') as [SortField, string];
      query.sort = { field, descending: direction === 'desc' && !mutated(context, 'list-desc-ignored') };
    }

    const visible = mutated(context, 'list-leaks-foreign-vehicles') ? fleet.forEveryone() : request.visibleFleet!;
    const ids = visible.query(query);
    const parts = new Array<string>(ids.length);
    for (let position = 0; position < ids.length; position += 1) {
      const id = ids[position]!;
      parts[position] = mutated(context, 'list-field-renamed') ? renameLicensePlate(fleet.vehicles[id]!) : fleet.json[id]!;
    }
    const type = mutated(context, 'list-wrong-content-type') ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8';
    return reply.type(type).send(`[${parts.join(',')}]`);
  });

  app.get('/vehicles/:vehicleNumber', async (request, reply) => {
    const { vehicleNumber } = request.params as { vehicleNumber: string };
    const visible = mutated(context, 'get-foreign-vehicle-returned') ? fleet.forEveryone() : request.visibleFleet!;
    const id = vehicleNumber === '' ? undefined : visible.find(vehicleNumber);
    if (id === undefined) {
      if (mutated(context, 'get-unknown-200')) return reply.send({});
      if (mutated(context, 'get-unknown-500')) return sendApiError(reply, 500, 'internal_error', 'Internal server error.');
      return sendApiError(reply, 404, 'not_found', `Vehicle ${vehicleNumber} was not found.`);
    }
    if (mutated(context, 'get-field-missing')) {
      const { vin: _vin, ...withoutVin } = fleet.vehicles[id]!;
      return reply.send(withoutVin);
    }
    return reply.type('application/json; charset=utf-8').send(fleet.json[id]);
  });
}

function renameLicensePlate(vehicle: Record<string, string>): string {
  const { licensePlate, ...rest } = vehicle;
  return JSON.stringify({ ...rest, licencePlate: licensePlate });
}

