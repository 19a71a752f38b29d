// Deterministic fleet data (from a fixed random seed): two lessees with their customer numbers (fleet groups)
// and N vehicles spread over them. The same N always yields the same vehicles.
import type { components } from '../generated/fleet.ts';

/** The spec's Vehicle (seed 2.1), from the generated types, so the fixtures cannot drift from the schema. */
export type Vehicle = components['schemas']['Vehicle'];

export type Lessee = { lesseeNumber: string; name: string; apiKey: string; customerNumbers: string[] };

export const DEFAULT_VEHICLE_COUNT = 60;
export const MAX_VEHICLE_COUNT = 1_000_000;

const DOMICILES = [
  ['0412', 'Columbus, OH'],
  ['0107', 'Dallas, TX'],
  ['0233', 'Atlanta, GA'],
  ['0518', 'Sacramento, CA'],
  ['0621', 'Joliet, IL'],
  ['0730', 'Newark, NJ'],
] as const;
const VEHICLE_TYPES = ['TRACTOR', 'STRAIGHT_TRUCK', 'TRAILER', 'BOX_TRUCK'] as const;
const VIN_ALPHABET = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789'; // VINs never use I, O or Q
const PLATE_LETTERS = 'ABCDEFGHJKLMNPRSTUVWXYZ';

/** mulberry32: a tiny PRNG from a fixed random seed, so fixtures are reproducible without a dependency. */
export function prng(randomSeed: number): () => number {
  let state = randomSeed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function buildLessees(callerApiKey: string, otherApiKey: string): Lessee[] {
  return [
    {
      lesseeNumber: 'L-4100',
      name: 'Sandbox Freight (your lessee)',
      apiKey: callerApiKey,
      customerNumbers: ['C-100234', 'C-100235', 'C-100236'],
    },
    { lesseeNumber: 'L-4200', name: 'Other Haulage (another lessee)', apiKey: otherApiKey, customerNumbers: ['C-200410', 'C-200411'] },
  ];
}

/**
 * Vehicles in vehicleNumber order. Customers take turns A1, B1, A2, B2, A3 so that any
 * count >= 2 gives both lessees a vehicle; customerVehicleNumber repeats across customers
 * on purpose (it is the customer's own numbering).
 */
export function buildVehicles(count: number, lessees: Lessee[], randomSeed = 20261122): Vehicle[] {
  if (!Number.isInteger(count) || count < 2 || count > MAX_VEHICLE_COUNT) {
    throw new Error(`vehicle count must be an integer from 2 to ${MAX_VEHICLE_COUNT}, got ${count}`);
  }
  const [first, second] = lessees;
  if (!first || !second) throw new Error('two lessees are required');
  const rotation = [
    first.customerNumbers[0],
    second.customerNumbers[0],
    first.customerNumbers[1],
    second.customerNumbers[1],
    first.customerNumbers[2],
  ].filter((customer): customer is string => customer !== undefined);
  const random = prng(randomSeed);
  const pick = (alphabet: string, length: number) =>
    Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
  const perCustomer = new Map<string, number>();
  const vehicles: Vehicle[] = [];
  const width = Math.max(6, String(count).length + 1);
  for (let index = 0; index < count; index += 1) {
    const customerNumber = rotation[index % rotation.length]!;
    const ownNumber = (perCustomer.get(customerNumber) ?? 0) + 1;
    perCustomer.set(customerNumber, ownNumber);
    const [locationNumber, locationName] = DOMICILES[Math.floor(random() * DOMICILES.length)]!;
    vehicles.push({
      customerNumber,
      // Fixed width, so string order equals numeric order.
      vehicleNumber: `V-${String(index + 1).padStart(width, '0')}`,
      vin: pick(VIN_ALPHABET, 17),
      customerVehicleNumber: `TRK-${ownNumber}`,
      licensePlate: `${1 + Math.floor(random() * 9)}${pick(PLATE_LETTERS, 3)}${String(Math.floor(random() * 1000)).padStart(3, '0')}`,
      domicileLocationNumber: locationNumber,
      domicileLocationName: locationName,
      vehicleType: VEHICLE_TYPES[Math.floor(random() * VEHICLE_TYPES.length)]!,
    });
  }
  return vehicles;
}
