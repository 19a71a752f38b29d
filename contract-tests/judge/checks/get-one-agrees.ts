// Get one vehicle agrees with the list (seed 4.5 and 4.6: both answer the vehicle with the fields of 2.1): a vehicle
// fetched on its own has the eight fields' values that a list of the run showed for the same vehicle number. A sequence
// of exchanges shows it, so the context remembers what the lists answered.
import { VEHICLE_FIELDS } from '../../model/fleet-fields.ts';
import { specRoles } from '../../model/operations.ts';
import { type ExchangeCheck, violation } from '../exchange-check.ts';
import { answerObject, statusClassOf } from '../exchange-facts.ts';
import { PROMISES } from '../promises.ts';

export const getOneAgrees: ExchangeCheck = {
  id: 'get-one-agrees-with-list',
  promise: () => PROMISES.seed('4.6', 'a vehicle fetched on its own has the values the list shows for it'),
  source: { seed: '4.6' },
  clauses: ['seed-4.5-4.6-agree'],
  operations: specRoles().getsOneVehicle,
  statuses: '2xx',
  needs: 'hasDataSemantics',
  judge(seen, context) {
    const answered = statusClassOf(seen) === 2 ? answerObject(seen) : undefined;
    const listed = typeof answered?.vehicleNumber === 'string' ? context.listed.get(answered.vehicleNumber) : undefined;
    if (!answered || !listed) return [];
    const differing = VEHICLE_FIELDS.filter((field) => JSON.stringify(answered[field]) !== JSON.stringify(listed[field]));
    if (!differing.length) return [];
    return [
      violation(
        getOneAgrees,
        `${seen.operation!.operationId} answered vehicle '${String(answered.vehicleNumber)}' with other ${differing.join(', ')} than the list showed`,
      ),
    ];
  },
};
