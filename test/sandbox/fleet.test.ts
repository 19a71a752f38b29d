// Fleet: API keys map to lessees and a caller sees only its own vehicles; filters (repeated
// values OR, filters AND, customervehicleNumber spelling) and sort as the fleet spec decides.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTHER_LESSEE_API_KEY } from '../../sandbox/config.ts';
import type { Vehicle } from '../../sandbox/fleet-fixtures.ts';
import { SORT_FIELDS } from '../../sandbox/fleet-index.ts';
import { fleetGet } from './api-calls.ts';
import { startInProcess, type InProcessSandbox } from './sandbox-process.ts';

const OWN_CUSTOMERS = ['C-100234', 'C-100235', 'C-100236'];
const OTHER_CUSTOMERS = ['C-200410', 'C-200411'];

let sandbox: InProcessSandbox;
let mine: Vehicle[];
let theirs: Vehicle[];
beforeAll(async () => {
  sandbox = await startInProcess({ vehicleCount: 200 });
  mine = (await (await fleetGet(sandbox.origin, '/vehicles')).json()) as Vehicle[];
  theirs = (await (await fleetGet(sandbox.origin, '/vehicles', OTHER_LESSEE_API_KEY)).json()) as Vehicle[];
});
afterAll(() => sandbox?.close());

const list = async (query: string, apiKey?: string) => {
  const response = await fleetGet(sandbox.origin, `/vehicles?${query}`, apiKey);
  expect(response.status).toBe(200);
  return (await response.json()) as Vehicle[];
};
const numbers = (vehicles: Vehicle[]) => vehicles.map((vehicle) => vehicle.vehicleNumber);

describe('API key and lessee', () => {
  it('answers a missing API-Key with 401', async () => {
    const response = await fleetGet(sandbox.origin, '/vehicles', null);
    expect(response.status).toBe(401);
    expect(((await response.json()) as { message: string }).message).toMatch(/API key/);
  });

  it('answers an unknown API-Key with 401, on get too', async () => {
    expect((await fleetGet(sandbox.origin, '/vehicles', 'nope')).status).toBe(401);
    expect((await fleetGet(sandbox.origin, `/vehicles/${mine[0]!.vehicleNumber}`, 'nope')).status).toBe(401);
  });

  it("lists only the caller's customers, and every one of them", async () => {
    expect(mine.length).toBe(120); // 3 of every 5 vehicles belong to the caller's lessee
    expect(new Set(mine.map((vehicle) => vehicle.customerNumber))).toEqual(new Set(OWN_CUSTOMERS));
    expect(new Set(theirs.map((vehicle) => vehicle.customerNumber))).toEqual(new Set(OTHER_CUSTOMERS));
    const shared = numbers(mine).filter((number) => numbers(theirs).includes(number));
    expect(shared).toEqual([]);
  });

  it('never lists a foreign vehicle, even when asked for it by number or customer', async () => {
    expect(await list(`vehicleNumber=${theirs[0]!.vehicleNumber}`)).toEqual([]);
    expect(await list(`customerNumber=${OTHER_CUSTOMERS[0]}`)).toEqual([]);
    expect(await list(`vin=${theirs[0]!.vin}&vin=${mine[0]!.vin}`)).toEqual([mine[0]]);
  });

  it('returns each vehicle with all eight string fields', async () => {
    for (const vehicle of mine.slice(0, 5)) {
      expect(Object.keys(vehicle).sort()).toEqual([...SORT_FIELDS].sort());
      for (const value of Object.values(vehicle)) expect(typeof value).toBe('string');
    }
  });
});

describe('GET /vehicles/{vehicleNumber}', () => {
  it("returns the caller's vehicle", async () => {
    const response = await fleetGet(sandbox.origin, `/vehicles/${mine[3]!.vehicleNumber}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(mine[3]);
  });

  it('answers a foreign vehicle exactly like an unknown one: 404', async () => {
    const foreign = await fleetGet(sandbox.origin, `/vehicles/${theirs[0]!.vehicleNumber}`);
    const unknown = await fleetGet(sandbox.origin, '/vehicles/V-999999');
    expect(foreign.status).toBe(404);
    expect(unknown.status).toBe(404);
    const [foreignBody, unknownBody] = (await Promise.all([foreign.json(), unknown.json()])) as { code: string }[];
    expect(foreignBody!.code).toBe(unknownBody!.code);
  });

  it('lets the other lessee get its own vehicle', async () => {
    expect((await fleetGet(sandbox.origin, `/vehicles/${theirs[0]!.vehicleNumber}`, OTHER_LESSEE_API_KEY)).status).toBe(200);
  });

  it('answers odd vehicle numbers with 404, not 5xx', async () => {
    for (const odd of ['%20', '..%2F..%2Fetc', 'V-1%00', encodeURIComponent('💥')]) {
      expect((await fleetGet(sandbox.origin, `/vehicles/${odd}`)).status).toBe(404);
    }
  });
});

describe('filters', () => {
  it('treats repeated values of one filter as alternatives', async () => {
    const [a, b] = [mine[1]!, mine[7]!];
    expect(numbers(await list(`vehicleNumber=${a.vehicleNumber}&vehicleNumber=${b.vehicleNumber}`))).toEqual([
      a.vehicleNumber,
      b.vehicleNumber,
    ]);
    expect(numbers(await list(`licensePlate=${b.licensePlate}&licensePlate=${a.licensePlate}`))).toEqual(
      numbers(mine.filter((v) => v.licensePlate === a.licensePlate || v.licensePlate === b.licensePlate)),
    );
  });

  it('combines different filters with AND', async () => {
    const target = mine[4]!;
    const expected = mine.filter(
      (v) => v.customerNumber === target.customerNumber && v.customerVehicleNumber === target.customerVehicleNumber,
    );
    expect(expected).toEqual([target]); // customerVehicleNumber alone repeats across customers
    expect(await list(`customerNumber=${target.customerNumber}&customervehicleNumber=${target.customerVehicleNumber}`)).toEqual([target]);
    expect(await list(`customerNumber=${OWN_CUSTOMERS.find((c) => c !== target.customerNumber)}&vin=${target.vin}`)).toEqual([]);
  });

  it('filters customerVehicleNumber through the customervehicleNumber parameter (lower-case v)', async () => {
    const expected = mine.filter((v) => v.customerVehicleNumber === 'TRK-3');
    expect(expected.length).toBeGreaterThan(1);
    expect(await list('customervehicleNumber=TRK-3')).toEqual(expected);
  });

  it('refuses the field spelling customerVehicleNumber as a parameter, pointing to the right one', async () => {
    const response = await fleetGet(sandbox.origin, '/vehicles?customerVehicleNumber=TRK-3');
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain('customervehicleNumber');
  });

  it('filters by each of customerNumber, vin and licensePlate', async () => {
    expect(await list(`customerNumber=${OWN_CUSTOMERS[1]}`)).toEqual(mine.filter((v) => v.customerNumber === OWN_CUSTOMERS[1]));
    expect(await list(`vin=${mine[9]!.vin}`)).toEqual([mine[9]]);
    expect(await list(`licensePlate=${mine[9]!.licensePlate}`)).toEqual(mine.filter((v) => v.licensePlate === mine[9]!.licensePlate));
  });

  it('answers an empty filter value or an unknown parameter with 400', async () => {
    expect((await fleetGet(sandbox.origin, '/vehicles?vin=')).status).toBe(400);
    expect((await fleetGet(sandbox.origin, '/vehicles?color=red')).status).toBe(400);
  });

  it('returns an empty array when nothing matches', async () => {
    expect(await list('vin=NOSUCHVIN0000000')).toEqual([]);
  });
});

describe('sort', () => {
  const compare = (field: keyof Vehicle) => (a: Vehicle, b: Vehicle) => (a[field] < b[field] ? -1 : a[field] > b[field] ? 1 : 0);

  it.each(SORT_FIELDS)('sorts by %s asc and desc in code-unit order', async (field) => {
    const ascending = await list(`sort=${encodeURIComponent(`${field} asc`)}`);
    const descending = await list(`sort=${encodeURIComponent(`${field} desc`)}`);
    expect(ascending.map((v) => v[field])).toEqual([...mine].sort(compare(field)).map((v) => v[field]));
    expect(descending.map((v) => v[field])).toEqual(
      [...mine]
        .sort(compare(field))
        .reverse()
        .map((v) => v[field]),
    );
    expect(new Set(numbers(ascending))).toEqual(new Set(numbers(mine)));
  });

  it('sorts a filtered list', async () => {
    const sorted = await list(`customerNumber=${OWN_CUSTOMERS[2]}&sort=${encodeURIComponent('licensePlate desc')}`);
    const expected = mine
      .filter((v) => v.customerNumber === OWN_CUSTOMERS[2])
      .sort(compare('licensePlate'))
      .reverse();
    expect(sorted.map((v) => v.licensePlate)).toEqual(expected.map((v) => v.licensePlate));
  });

  it('lists in vehicleNumber order without sort', () => {
    expect(numbers(mine)).toEqual([...numbers(mine)].sort());
  });

  it.each(['color asc', 'vin', 'vin up', 'vin asc,licensePlate desc', 'VIN asc'])(
    'answers sort=%s with 400 and a clear message',
    async (sort) => {
      const response = await fleetGet(sandbox.origin, `/vehicles?sort=${encodeURIComponent(sort)}`);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { message: string }).message).toContain('sort');
    },
  );
});

describe('scale', () => {
  it('serves 100,000 vehicles with correct filtered answers', async () => {
    const big = await startInProcess({ vehicleCount: 100_000 });
    try {
      const response = await fleetGet(big.origin, '/vehicles?customerNumber=C-100235&sort=vin%20desc');
      const vehicles = (await response.json()) as Vehicle[];
      expect(vehicles.length).toBe(20_000);
      expect(vehicles.every((v) => v.customerNumber === 'C-100235')).toBe(true);
      expect(vehicles.map((v) => v.vin)).toEqual(
        vehicles
          .map((v) => v.vin)
          .sort()
          .reverse(),
      );
      const health = (await (await fetch(`${big.origin}/_sandbox/health`)).json()) as { vehicles: number };
      expect(health.vehicles).toBe(100_000);
    } finally {
      await big.close();
    }
  });
});
