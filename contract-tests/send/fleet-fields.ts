// The fleet list's filters and the vehicle fields, as the published documentation names them (seed 2.1 and 4.5),
// for the fleet checks. Restated from the documentation on purpose (not read from the sandbox or the spec under test).
import type { components } from '../../generated/fleet.ts';

export type Vehicle = components['schemas']['Vehicle'];
export type FilterName = 'customerNumber' | 'vehicleNumber' | 'vin' | 'customervehicleNumber' | 'licensePlate';

/** Each filter parameter and the vehicle field it filters on (note the lower-case v of customervehicleNumber). */
export const FILTERS: Array<[FilterName, keyof Vehicle]> = [
  ['customerNumber', 'customerNumber'],
  ['vehicleNumber', 'vehicleNumber'],
  ['vin', 'vin'],
  ['customervehicleNumber', 'customerVehicleNumber'],
  ['licensePlate', 'licensePlate'],
];

/** The eight fields of a vehicle (seed 2.1), which the spec also assumes are the sort attributes. */
export const VEHICLE_FIELDS: Array<keyof Vehicle> = [
  'customerNumber',
  'vehicleNumber',
  'vin',
  'customerVehicleNumber',
  'licensePlate',
  'domicileLocationNumber',
  'domicileLocationName',
  'vehicleType',
];
