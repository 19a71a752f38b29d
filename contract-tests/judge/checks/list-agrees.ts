// A list answer agrees with the key's unfiltered list (seed 2.1 and 4.5), on every list exchange, whichever test sent
// it: a filtered or sorted list chooses the key's vehicles and orders them, it never changes one (each vehicle it holds
// has, field by field, the values the unfiltered list shows), and a list filtered by one value of one filter holds every
// vehicle of the unfiltered list whose field is that value. The values are compared with whatever vehicles the unfiltered
// list showed; what a filter must bring, only when that list is complete (a bare array, as the spec assumes). A request
// with several filters or values is the assumptions' business (list-filters.ts).
import { FILTERS, VEHICLE_FIELDS, type Vehicle } from '../../model/fleet-fields.ts';
import { specRoles } from '../../model/operations.ts';
import { vehicleListOf } from '../../model/vehicle-list.ts';
import { type ExchangeCheck, violation } from '../exchange-check.ts';
import { answerJson, queryOf, statusClassOf } from '../exchange-facts.ts';
import { changedVehicles } from '../list-relations.ts';
import { PROMISES } from '../promises.ts';

/** The vehicles of the unfiltered list that one filter value must bring, when the query is one filter with one value
 * (and perhaps a sort); else undefined. */
function expectedFor(query: Array<[string, string]>, own: readonly Vehicle[]): { label: string; vehicles: Vehicle[] } | undefined {
  const filters = query.filter(([name]) => name !== 'sort');
  if (filters.length !== 1) return undefined;
  const [name, value] = filters[0]!;
  const field = FILTERS.find(([param]) => param === name)?.[1];
  if (!field || value.trim() === '') return undefined;
  return { label: `${name}=${value}`, vehicles: own.filter((vehicle) => vehicle[field] === value) };
}

export const listAgrees: ExchangeCheck = {
  id: 'list-agrees-with-unfiltered',
  promise: () => PROMISES.seed('4.5', "a filtered or sorted list holds the unfiltered list's matching vehicles, unchanged"),
  source: { seed: '4.5' },
  clauses: ['seed-4.5-filters'],
  operations: specRoles().listsVehicles,
  statuses: '2xx',
  needs: 'hasDataSemantics',
  async judge(seen, context) {
    const query = queryOf(seen);
    if (statusClassOf(seen) !== 2 || !query.length) return [];
    const vehicles = vehicleListOf<Vehicle>(answerJson(seen)).vehicles;
    if (!vehicles) return [];
    const own = await context.ownFleet();
    const reference = own.vehicles as unknown as Vehicle[];
    const findings = changedVehicles(reference, vehicles, VEHICLE_FIELDS).map((change) =>
      violation(listAgrees, `listVehicles answered a vehicle with other values than the unfiltered list: ${change}`),
    );
    // What a filter must bring is known only from a complete unfiltered list.
    const expected = own.complete ? expectedFor(query, reference) : undefined;
    const got = new Set(vehicles.map((vehicle) => vehicle.vehicleNumber));
    const missing = expected?.vehicles.filter((vehicle) => !got.has(vehicle.vehicleNumber)) ?? [];
    if (missing.length)
      findings.push(
        violation(
          listAgrees,
          `listVehicles ${expected!.label} left out ${missing.length} of the ${expected!.vehicles.length} vehicles of the unfiltered list that match it: ${missing
            .slice(0, 3)
            .map((vehicle) => `'${vehicle.vehicleNumber}'`)
            .join(', ')}`,
        ),
      );
    return findings;
  },
};
