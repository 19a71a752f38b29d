// Security: one lessee never sees another lessee's vehicles (seed 1 and 5.3), on every answer of the fleet API,
// whatever sent the request: a flow, a sort probe, a near miss, an operator. A vehicle is another lessee's when the run
// was told so (LP_FLEET_FOREIGN_VEHICLE_NUMBER, LP_FLEET_FOREIGN_CUSTOMER_NUMBER), or when its customer is none of the
// customers of the key's own unfiltered list (when that list is complete: a bare array, as the spec assumes).
import { specRoles } from '../../model/operations.ts';
import { everyVehicleIn } from '../../model/vehicle-list.ts';
import { type ExchangeCheck, violation } from '../exchange-check.ts';
import { answerJson, operationIdOf, queryOf, statusClassOf } from '../exchange-facts.ts';
import { PROMISES } from '../promises.ts';

const isUnfilteredList = (seen: Parameters<ExchangeCheck['judge']>[0]) =>
  seen.operation !== undefined && specRoles().listsVehicles.includes(seen.operation.operationId) && queryOf(seen).length === 0;

export const lesseeIsolation: ExchangeCheck = {
  id: 'lessee-isolation',
  promise: PROMISES.lessee,
  source: { security: 'lessee isolation' },
  clauses: ['security-lessee-isolation'],
  operations: specRoles().answersVehicles,
  statuses: '2xx',
  needs: 'hasDataSemantics',
  async judge(seen, context) {
    if (statusClassOf(seen) !== 2) return [];
    const vehicles = everyVehicleIn(answerJson(seen));
    if (!vehicles.length) return [];
    const foreignVehicle = context.env.LP_FLEET_FOREIGN_VEHICLE_NUMBER;
    const foreignCustomer = context.env.LP_FLEET_FOREIGN_CUSTOMER_NUMBER;
    // The unfiltered list is the measure of the key's own customers: it is judged by the configured values only.
    const own = context.capability.hasDataSemantics && !isUnfilteredList(seen) ? await context.ownFleet() : undefined;
    const customers = own?.complete ? new Set(own.vehicles.map((v) => v.customerNumber)) : undefined;
    const foreign = vehicles.filter(
      (v) =>
        (foreignVehicle !== undefined && v.vehicleNumber === foreignVehicle) ||
        (foreignCustomer !== undefined && v.customerNumber === foreignCustomer) ||
        (customers !== undefined && customers.size > 0 && !customers.has(v.customerNumber)),
    );
    if (!foreign.length) return [];
    const numbers = foreign.slice(0, 5).map((v) => `'${String(v.vehicleNumber)}' of customer '${String(v.customerNumber)}'`);
    return [
      violation(
        lesseeIsolation,
        `${operationIdOf(seen)} answered ${seen.response.status} with ${foreign.length} of ${vehicles.length} vehicles of another lessee: ${numbers.join(', ')}`,
      ),
    ];
  },
};
