// The fleet list's filters and the vehicle fields as the fleet spec names them (seed 2.1 and 4.5; spec-core reads them
// from the Vehicle schema and the list's query parameters), typed for the fleet checks.
import type { components } from '../../generated/fleet.ts';
import { fleetFields } from '../../spec-core/fleet-fields.ts';

export type Vehicle = components['schemas']['Vehicle'];
/** A filter's query parameter name (note the lower-case v of customervehicleNumber). */
export type FilterName = string;

/** Each filter parameter and the vehicle field it filters on. */
export const FILTERS = fleetFields().filters as ReadonlyArray<readonly [FilterName, keyof Vehicle]>;

/** The fields of a vehicle (seed 2.1), which the spec also makes the sort attributes. */
export const VEHICLE_FIELDS = fleetFields().vehicleFields as ReadonlyArray<keyof Vehicle>;
