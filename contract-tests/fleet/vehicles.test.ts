// Contract of GET {fleet_base_url}/vehicles and /vehicles/{vehicleNumber}, data-driven: vehicles are taken from the
// unfiltered list, so the checks need no fixtures and hold for any fleet with at least two distinct vehicles.
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../generated/fleet.ts';
import { ASSUMPTIONS, observeAssumption } from '../support/assumptions.ts';
import { lacking } from '../support/capabilities.ts';
import { fleetClient } from '../support/clients.ts';
import { jsonOf, send, statusClass } from '../support/requests.ts';
import { skipUnless } from '../support/skips.ts';
import { missing, target } from '../support/target.ts';

type Vehicle = components['schemas']['Vehicle'];
type FilterName = 'customerNumber' | 'vehicleNumber' | 'vin' | 'customervehicleNumber' | 'licensePlate';

/** Each filter parameter and the vehicle field it filters on (note the lower-case v of customervehicleNumber). */
const FILTERS: Array<[FilterName, keyof Vehicle]> = [
  ['customerNumber', 'customerNumber'],
  ['vehicleNumber', 'vehicleNumber'],
  ['vin', 'vin'],
  ['customervehicleNumber', 'customerVehicleNumber'],
  ['licensePlate', 'licensePlate'],
];
const VEHICLE_FIELDS: Array<keyof Vehicle> = [
  'customerNumber', 'vehicleNumber', 'vin', 'customerVehicleNumber', 'licensePlate', 'domicileLocationNumber', 'domicileLocationName', 'vehicleType',
];

const LIST = ['listVehicles'];
const GET = ['getVehicle'];
const needsKey = () => missing(target, 'LP_FLEET_BASE_URL', 'LP_FLEET_API_KEY');
const needsData = () => lacking(target.name, 'hasDataSemantics');

let all: Vehicle[] = [];
let listFailure: string | undefined;

/** A query through the published client; the response is checked against the spec by the contract fetch. */
async function list(query: Partial<Record<FilterName, string[]>> & { sort?: string } = {}): Promise<Vehicle[]> {
  const { data, response } = await fleetClient(target).GET('/vehicles', {
    params: { query: query as never },
  });
  expect(statusClass(response.status), `list ${JSON.stringify(query)} answered ${response.status}`).toBe(2);
  expect(Array.isArray(data), 'the list is an array').toBe(true);
  return data as Vehicle[];
}

const numbers = (vehicles: Vehicle[]) => vehicles.map((v) => v.vehicleNumber);

/** Two vehicles that differ in `field`, or the reason there are none. Filter values must be non-empty (the spec's
 * minLength 1, and a server may refuse an empty one), so both vehicles have a non-empty value in `field` and in each
 * of `alsoSent`, the other fields a check sends as filters. */
function pairDifferingIn(field: keyof Vehicle, ...alsoSent: Array<keyof Vehicle>): [Vehicle, Vehicle] | string {
  const usable = all.filter((v) => [field, ...alsoSent].every((f) => typeof v[f] === 'string' && v[f] !== ''));
  const first = usable[0];
  const other = usable.find((v) => first && v[field] !== first[field]);
  return first && other ? [first, other] : `the key sees no two vehicles with different, non-empty ${[field, ...alsoSent].join(', ')} values`;
}

/** A vehicle with a non-empty value in `field` (a filter value must not be empty). */
const withValueIn = (field: keyof Vehicle) => all.find((v) => typeof v[field] === 'string' && v[field] !== '');

beforeAll(async () => {
  if (needsKey()) return;
  try {
    all = await list();
  } catch (error) {
    listFailure = `the unfiltered list failed: ${(error as Error).message}`;
  }
});

describe('list vehicles (GET {fleet_base_url}/vehicles)', () => {
  it('returns an array of vehicles for a valid key', async (ctx) => {
    skipUnless(ctx, LIST, needsKey());
    const vehicles = await list();
    for (const vehicle of vehicles) expect(Object.keys(vehicle)).toEqual(expect.arrayContaining(VEHICLE_FIELDS));
    observeAssumption(ASSUMPTIONS.vehicleListBareArray, Array.isArray(vehicles), 'the list answered a JSON array');
    observeAssumption(ASSUMPTIONS.fleetKeyAlone, true, 'API-Key alone was accepted');
    observeAssumption(ASSUMPTIONS.vehicleFieldsStrings, vehicles.every((v) => VEHICLE_FIELDS.every((f) => typeof v[f] === 'string')), `${vehicles.length} vehicles checked`);
  });

  it.for(FILTERS)('filter %s returns only matching vehicles, the chosen one included', async ([param, field], ctx) => {
    skipUnless(ctx, LIST, needsKey(), needsData(), listFailure, withValueIn(field) ? undefined : `the key sees no vehicle with a non-empty ${field}`);
    // Prefer a vehicle whose value is not shared by every vehicle, so an ignored filter shows.
    const pair = pairDifferingIn(field);
    const chosen = typeof pair === 'string' ? withValueIn(field)! : pair[0];
    const result = await list({ [param]: [chosen[field]] });
    expect(result.filter((v) => v[field] !== chosen[field]).map((v) => v.vehicleNumber), `vehicles not matching ${param}`).toEqual([]);
    expect(numbers(result)).toContain(chosen.vehicleNumber);
    if (typeof pair !== 'string') expect(numbers(result), 'a vehicle with another value').not.toContain(pair[1].vehicleNumber);
    if (param === 'customervehicleNumber') observeAssumption(ASSUMPTIONS.customervehicleNumber, true, 'customervehicleNumber filtered on customerVehicleNumber');
  });

  it('two values of one filter return both vehicles and only those', async (ctx) => {
    const pair = pairDifferingIn('vin');
    skipUnless(ctx, LIST, needsKey(), needsData(), listFailure, typeof pair === 'string' ? pair : undefined);
    const [a, b] = pair as [Vehicle, Vehicle];
    const result = await list({ vin: [a.vin, b.vin] });
    expect(numbers(result)).toEqual(expect.arrayContaining([a.vehicleNumber, b.vehicleNumber]));
    expect(result.filter((v) => v.vin !== a.vin && v.vin !== b.vin).map((v) => v.vehicleNumber)).toEqual([]);
    observeAssumption(ASSUMPTIONS.filtersRepeatedOr, true, 'vin=A&vin=B returned both');
  });

  it('two different filters combine with AND', async (ctx) => {
    const pair = pairDifferingIn('vin', 'customerNumber', 'licensePlate');
    skipUnless(ctx, LIST, needsKey(), needsData(), listFailure, typeof pair === 'string' ? pair : undefined);
    const [a, b] = pair as [Vehicle, Vehicle];
    const both = await list({ vin: [a.vin], customerNumber: [a.customerNumber] });
    expect(numbers(both)).toContain(a.vehicleNumber);
    expect(both.filter((v) => v.vin !== a.vin || v.customerNumber !== a.customerNumber).map((v) => v.vehicleNumber)).toEqual([]);
    // With OR, vin=A and licensePlate=B would return both vehicles; with AND only vehicles matching both.
    const crossed = await list({ vin: [a.vin], licensePlate: [b.licensePlate] });
    expect(crossed.filter((v) => v.vin !== a.vin || v.licensePlate !== b.licensePlate).map((v) => v.vehicleNumber), 'vehicles matching only one filter').toEqual([]);
    observeAssumption(ASSUMPTIONS.filtersAnd, true, 'vin and licensePlate of two vehicles gave no vehicle matching only one');
  });

  it.for(['asc', 'desc'] as const)('sort vehicleNumber %s orders the results', async (direction, ctx) => {
    skipUnless(ctx, LIST, needsKey(), needsData(), listFailure, all.length < 2 ? 'the key sees fewer than two vehicles' : undefined);
    const sorted = await list({ sort: `vehicleNumber ${direction}` });
    const expected = [...numbers(sorted)].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    if (direction === 'desc') expected.reverse();
    expect(numbers(sorted)).toEqual(expected);
    expect([...numbers(sorted)].sort(), 'the same vehicles as unsorted').toEqual([...numbers(all)].sort());
    observeAssumption(ASSUMPTIONS.sortForm, true, `sort "vehicleNumber ${direction}" ordered by code units`);
  });

  it.for(['asc', 'desc'] as const)('sort by each of the eight vehicle fields, %s, orders the results', async (direction, ctx) => {
    skipUnless(ctx, LIST, needsKey(), needsData(), listFailure, all.length < 2 ? 'the key sees fewer than two vehicles' : undefined);
    // The spec makes every vehicle field sortable; ties may come in any order, so only the field's order is checked.
    const byCodeUnits = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
    for (const field of VEHICLE_FIELDS) {
      const values = (await list({ sort: `${field} ${direction}` })).map((v) => v[field]);
      const expected = [...values].sort(byCodeUnits);
      if (direction === 'desc') expected.reverse();
      expect(values, `sort "${field} ${direction}" in code-unit order`).toEqual(expected);
      expect(values.length, `sort "${field} ${direction}" returns every vehicle`).toBe(all.length);
    }
  });

  it('answers unknown query parameters with a 2xx or a 4xx, never a 5xx', async (ctx) => {
    // Unknown parameters may be ignored or refused (the seed says neither); a misspelt filter is the likeliest one.
    skipUnless(ctx, LIST, needsKey());
    for (const query of ['customerVehicleNumber=CONTRACT-PROBE', 'contractProbe=1', `${'q'.repeat(300)}=${'v'.repeat(2000)}`]) {
      const { response } = await send(target, 'LP_FLEET_BASE_URL', `/vehicles?${query}`, { headers: { 'API-Key': target.env.LP_FLEET_API_KEY! } });
      expect([2, 4], `?${query.slice(0, 40)} answered ${response.status}`).toContain(statusClass(response.status));
    }
  });

  it('does not list the foreign vehicle (LP_FLEET_FOREIGN_VEHICLE_NUMBER), even when asked for it', async (ctx) => {
    skipUnless(ctx, LIST, needsKey(), needsData(), missing(target, 'LP_FLEET_FOREIGN_VEHICLE_NUMBER'), listFailure);
    const foreign = target.env.LP_FLEET_FOREIGN_VEHICLE_NUMBER!;
    expect(numbers(all)).not.toContain(foreign);
    expect(numbers(await list({ vehicleNumber: [foreign] }))).not.toContain(foreign);
  });

  it("lists none of the foreign customer's vehicles (LP_FLEET_FOREIGN_CUSTOMER_NUMBER), even when filtered by it", async (ctx) => {
    skipUnless(ctx, LIST, needsKey(), needsData(), missing(target, 'LP_FLEET_FOREIGN_CUSTOMER_NUMBER'), listFailure);
    const foreign = target.env.LP_FLEET_FOREIGN_CUSTOMER_NUMBER!;
    expect(all.map((v) => v.customerNumber)).not.toContain(foreign);
    // An empty list or a 4xx both keep the contract (the seed shows neither); any vehicle of that customer is a leak.
    const { response, bodyText } = await send(target, 'LP_FLEET_BASE_URL', `/vehicles?customerNumber=${encodeURIComponent(foreign)}`, {
      headers: { 'API-Key': target.env.LP_FLEET_API_KEY! },
    });
    expect([2, 4], `filtered by the foreign customer: ${response.status}`).toContain(statusClass(response.status));
    if (statusClass(response.status) === 2) expect(JSON.parse(bodyText)).toEqual([]);
  });
});

describe('get one vehicle (GET {fleet_base_url}/vehicles/{vehicleNumber})', () => {
  it('agrees with the list for up to three vehicles', async (ctx) => {
    skipUnless(ctx, GET, needsKey(), needsData(), listFailure, all.length === 0 ? 'the key sees no vehicles' : undefined);
    for (const listed of all.slice(0, 3)) {
      const { data, response } = await fleetClient(target).GET('/vehicles/{vehicleNumber}', {
        params: { path: { vehicleNumber: listed.vehicleNumber } },
      });
      expect(statusClass(response.status), `get ${listed.vehicleNumber}: ${response.status}`).toBe(2);
      const pick = (v: Vehicle | undefined) => Object.fromEntries(VEHICLE_FIELDS.map((f) => [f, v?.[f]]));
      expect(pick(data)).toEqual(pick(listed));
    }
  });

  it('answers an unknown vehicle number with a 4xx', async (ctx) => {
    skipUnless(ctx, GET, needsKey(), needsData());
    const unknown = `V-CONTRACT-UNKNOWN-${crypto.randomUUID().slice(0, 8)}`;
    const { response, bodyText } = await send(target, 'LP_FLEET_BASE_URL', `/vehicles/${encodeURIComponent(unknown)}`, {
      headers: { 'API-Key': target.env.LP_FLEET_API_KEY! },
    });
    expect(statusClass(response.status), `status ${response.status}`).toBe(4);
    observeAssumption(ASSUMPTIONS.unknownVehicle404, response.status === 404, `unknown vehicle answered ${response.status}`);
    observeAssumption(ASSUMPTIONS.errorBody, jsonOf(bodyText) !== undefined, `error body is ${jsonOf(bodyText) ? 'a JSON object' : 'not JSON'}`);
  });

  it('answers the foreign vehicle (LP_FLEET_FOREIGN_VEHICLE_NUMBER) with a 4xx', async (ctx) => {
    skipUnless(ctx, GET, needsKey(), needsData(), missing(target, 'LP_FLEET_FOREIGN_VEHICLE_NUMBER'));
    const foreign = target.env.LP_FLEET_FOREIGN_VEHICLE_NUMBER!;
    const { response } = await send(target, 'LP_FLEET_BASE_URL', `/vehicles/${encodeURIComponent(foreign)}`, {
      headers: { 'API-Key': target.env.LP_FLEET_API_KEY! },
    });
    expect(statusClass(response.status), `status ${response.status}`).toBe(4);
    observeAssumption(ASSUMPTIONS.unknownVehicle404, response.status === 404, `foreign vehicle answered ${response.status}`);
  });
});
