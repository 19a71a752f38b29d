// The vehicle's fields and the list's filters as spec-core reads them from the fleet spec, for the sandbox and the
// suite: the seed's eight fields (2.1) and five filters (4.5), and a clear refusal of a spec they cannot be read from.
import { describe, expect, it } from 'vitest';
import { loadBundle } from '../../spec-core/bundles.ts';
import { fleetFields, fleetFieldsOf } from '../../spec-core/fleet-fields.ts';

describe('fleetFields', () => {
  it('reads the eight fields of seed 2.1 and the five filters of seed 4.5, customervehicleNumber with its lower-case v', () => {
    const { vehicleFields, filters } = fleetFields();
    expect(vehicleFields).toEqual([
      'customerNumber',
      'vehicleNumber',
      'vin',
      'customerVehicleNumber',
      'licensePlate',
      'domicileLocationNumber',
      'domicileLocationName',
      'vehicleType',
    ]);
    expect(filters).toEqual([
      ['customerNumber', 'customerNumber'],
      ['vehicleNumber', 'vehicleNumber'],
      ['vin', 'vin'],
      ['customervehicleNumber', 'customerVehicleNumber'],
      ['licensePlate', 'licensePlate'],
    ]);
  });

  it('refuses a filter that names no field of Vehicle, naming the filter', () => {
    const bundle = structuredClone(loadBundle('fleet'));
    bundle.paths['/vehicles'].get.parameters.push({ name: 'colour', in: 'query', schema: { type: 'array', items: { type: 'string' } } });
    expect(() => fleetFieldsOf(bundle)).toThrow(/filter colour names no field of Vehicle/);
  });

  it('refuses a spec without a Vehicle schema', () => {
    const bundle = structuredClone(loadBundle('fleet'));
    delete bundle.components.schemas.Vehicle;
    expect(() => fleetFieldsOf(bundle)).toThrow(/no components\.schemas\.Vehicle/);
  });
});
