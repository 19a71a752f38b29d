// The fleet list has the seed's five filters and sort (4.5); a vehicle has the eight fields of 2.1.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { components as FleetComponents, operations as FleetOperations } from '../../generated/fleet.ts';
import { resolveRef } from '../../spec-core/pointer.ts';
import { loadBundle } from '../../spec-core/bundles.ts';
import { fleetFields, fleetFieldsOf } from '../../spec-core/fleet-fields.ts';
import { bundles, operation } from './bundles.ts';

const vehicleFields = [
  'customerNumber',
  'vehicleNumber',
  'vin',
  'customerVehicleNumber',
  'licensePlate',
  'domicileLocationNumber',
  'domicileLocationName',
  'vehicleType',
];
const filters = ['customerNumber', 'vehicleNumber', 'vin', 'customervehicleNumber', 'licensePlate'];

describe('listVehicles parameters (seed 4.5)', () => {
  const params = operation('listVehicles').operation.parameters as any[];

  it('has the five filters and sort, all optional query parameters', () => {
    expect(params.map((p) => p.name)).toEqual([...filters, 'sort']);
    for (const p of params) expect(p, p.name).toMatchObject({ in: 'query', required: false });
  });

  it('spells customervehicleNumber with a lower-case v', () => {
    expect(params.map((p) => p.name)).toContain('customervehicleNumber');
    expect(params.map((p) => p.name)).not.toContain('customerVehicleNumber');
  });

  it('takes several values of a filter as repeated parameters', () => {
    for (const p of params.filter((q) => filters.includes(q.name))) {
      expect(p, p.name).toMatchObject({ style: 'form', explode: true, schema: { type: 'array', items: { type: 'string' } } });
    }
  });

  it('sort accepts "<attribute> asc" (seen) and desc (assumed) for vehicle fields only', () => {
    const sort = new RegExp(params.find((p) => p.name === 'sort').schema.pattern);
    for (const field of vehicleFields) {
      expect(sort.test(`${field} asc`), field).toBe(true);
      expect(sort.test(`${field} desc`), field).toBe(true);
    }
    expect(sort.test('vehicleNumber')).toBe(false);
    expect(sort.test('vehicleNumber ascending')).toBe(false);
    expect(sort.test('colour asc')).toBe(false);
    // The enum (which types the client) lists exactly what the pattern accepts.
    expect(params.find((p) => p.name === 'sort').schema.enum).toEqual(vehicleFields.flatMap((field) => [`${field} asc`, `${field} desc`]));
  });

  it('types the filters as string arrays and sort as "<vehicle field> asc|desc" in the generated operations', () => {
    type Query = NonNullable<FleetOperations['listVehicles']['parameters']['query']>;
    expectTypeOf<Query['customervehicleNumber']>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<Query['sort']>().toEqualTypeOf<`${keyof FleetComponents['schemas']['Vehicle']} ${'asc' | 'desc'}` | undefined>();
  });
});

describe('Vehicle (seed 2.1)', () => {
  const vehicle = bundles.fleet.components.schemas.Vehicle;

  it('has the eight fields, all required strings', () => {
    expect(Object.keys(vehicle.properties)).toEqual(vehicleFields);
    expect(vehicle.required).toEqual(vehicleFields);
    for (const field of vehicleFields) expect(vehicle.properties[field].type, field).toBe('string');
  });

  it('is open to fields a server adds', () => {
    expect(vehicle.additionalProperties).not.toBe(false);
  });

  it('is the body of getVehicle and the item of the bare listVehicles array', () => {
    const list = resolveRef(bundles.fleet, operation('listVehicles').operation.responses['200'].content['application/json'].schema);
    expect(list.type).toBe('array');
    expect(list.items.$ref).toBe('#/components/schemas/Vehicle');
    expect(operation('getVehicle').operation.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/Vehicle');
  });

  it('is typed with the eight string fields in the generated types', () => {
    expectTypeOf<FleetComponents['schemas']['Vehicle']>().toEqualTypeOf<{
      customerNumber: string;
      vehicleNumber: string;
      vin: string;
      customerVehicleNumber: string;
      licensePlate: string;
      domicileLocationNumber: string;
      domicileLocationName: string;
      vehicleType: string;
    }>();
  });
});

describe('spec-core fleetFields: the fields and filters the sandbox and the suite read from the spec', () => {
  it('reads the eight fields of seed 2.1 and the five filters of seed 4.5, customervehicleNumber with its lower-case v', () => {
    const { vehicleFields: fields, filters: pairs } = fleetFields();
    expect(fields).toEqual(vehicleFields);
    expect(pairs.map(([parameter]) => parameter)).toEqual(filters);
    expect(pairs.find(([parameter]) => parameter === 'customervehicleNumber')?.[1]).toBe('customerVehicleNumber');
    for (const [parameter, field] of pairs) expect(field.toLowerCase()).toBe(parameter.toLowerCase());
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
