// Security: lessee isolation holds against near misses. The foreign vehicle number and the foreign customer number
// (LP_FLEET_FOREIGN_*) are put wherever a number can appear, in the get-one path and in every filter of the list,
// exactly and as near misses (case changed, prefixed, suffixed, encoded, padded, as wildcards, repeated beside an own
// value). No answer may show the foreign vehicle or a vehicle of the foreign customer, and the foreign vehicle's own path is
// a 4xx. The own values come from the key's unfiltered list.
import { beforeAll, describe, expect, it } from 'vitest';
import { reasonIfCannot } from '../send/capabilities.ts';
import { statusClass } from '../judge/answers.ts';
import { skipIf } from '../support/skips.ts';
import { reasonIfUnset, type LpVariable } from '../send/target.ts';
import { forEachConcurrently } from '../send/transport.ts';
import { everyVehicleIn, parseJsonLoosely, unreadableListReason, vehicleListOf } from '../model/vehicle-list.ts';
import { nearMisses, type NearMiss } from '../operators/near-misses.ts';
import { request } from '../send/model.ts';
import { FILTERS, type Vehicle } from '../model/fleet-fields.ts';
import { type Change, withPath, withQuery, withRaw } from '../send/parts.ts';
import { workerRun } from '../support/worker-run.ts';

const run = workerRun();
const { target } = run;

const FOREIGN: Array<[string, LpVariable]> = [
  ['vehicle number', 'LP_FLEET_FOREIGN_VEHICLE_NUMBER'],
  ['customer number', 'LP_FLEET_FOREIGN_CUSTOMER_NUMBER'],
];

const needs = () => reasonIfUnset(target, 'LP_FLEET_BASE_URL', 'LP_FLEET_API_KEY') ?? reasonIfCannot(target.name, 'hasDataSemantics');
let own: Vehicle[] = [];
let listFailure: string | undefined;

beforeAll(async () => {
  if (needs()) return;
  const { response, bodyText } = await request(run, 'listVehicles');
  const status = response.status;
  try {
    if (statusClass(status) !== 2) throw new Error(`answered ${status}`);
    // Whatever shape and content type the server chose (the spec's are assumptions): the vehicles it sent.
    const { vehicles, shape } = vehicleListOf<Vehicle>(parseJsonLoosely(bodyText));
    if (!vehicles) throw new Error(unreadableListReason(shape.kind === 'unreadable' ? shape.why : ''));
    own = vehicles;
  } catch (error) {
    listFailure = `the unfiltered list failed: ${(error as Error).message}`;
  }
});

/** Values that match everything, or everything starting like `value`, on a server that passes filters to LIKE,
 * a glob or a regular expression. */
const wildcards = (value: string): NearMiss[] => {
  const start = value.slice(0, Math.ceil(value.length / 2));
  return [
    { kind: 'as %', value: '%' },
    { kind: 'as *', value: '*' },
    { kind: 'as .*', value: '.*' },
    { kind: 'cut in half with %', value: `${start}%` },
    { kind: 'cut in half with *', value: `${start}*` },
  ];
};

/** The vehicles of a 2xx answer that belong to the other lessee: the foreign vehicle, or any vehicle of the foreign
 * customer. Only what the configuration names as foreign counts, so a vehicle added to the key's own fleet during
 * the run (or one beyond a page of a paging server) is never taken for a leak. */
function foreignIn(bodyText: string): string[] {
  // Every vehicle-like object of the answer, in an array, a wrapper or alone, whatever the content type said.
  const vehicles = everyVehicleIn(parseJsonLoosely(bodyText));
  const foreignVehicle = target.env.LP_FLEET_FOREIGN_VEHICLE_NUMBER;
  const foreignCustomer = target.env.LP_FLEET_FOREIGN_CUSTOMER_NUMBER;
  return vehicles
    .filter((v): v is Vehicle => typeof v === 'object' && v !== null)
    .filter(
      (v) =>
        (foreignVehicle !== undefined && v.vehicleNumber === foreignVehicle) ||
        (foreignCustomer !== undefined && v.customerNumber === foreignCustomer),
    )
    .map((v) => String(v.vehicleNumber));
}

describe('lessee isolation against near misses', () => {
  it.for(FOREIGN)(
    'no filter of the list shows a foreign vehicle when given the foreign %s or a near miss of it',
    async ([what, variable], ctx) => {
      skipIf(run, ctx, ['listVehicles'], needs(), reasonIfUnset(target, variable), listFailure);
      const foreign = target.env[variable]!;
      const variants = [{ kind: 'exactly', value: foreign }, ...nearMisses(foreign, 'query'), ...wildcards(foreign)];
      const probes: Array<[string, string, Change]> = [];
      for (const [param, field] of FILTERS) {
        const ownValue = own.find((v) => typeof v[field] === 'string' && v[field] !== '')?.[field];
        const queries: Array<[string, Change]> = variants.map(({ kind, value }) => [kind, withQuery({ [param]: value })]);
        // Beside an own value of the same filter (OR within a filter) and of another filter (AND across filters).
        if (ownValue) queries.push(['repeated after an own value', withQuery({ [param]: [ownValue, foreign] })]);
        const other = param === 'customerNumber' ? 'vehicleNumber' : 'customerNumber';
        const otherValue = own[0]?.[other];
        if (otherValue) queries.push([`beside an own ${other}`, withQuery({ [other]: otherValue, [param]: foreign })]);
        for (const [kind, change] of queries) probes.push([param, kind, change]);
      }
      // Independent reads: sent concurrently, within the transport's bounds.
      await forEachConcurrently(probes, async ([param, kind, change]) => {
        const { response, bodyText } = await request(run, 'listVehicles', change);
        const status = response.status;
        expect(status, `filter ${param} with the foreign ${what} ${kind} answered ${status}`).toBeLessThan(500);
        if (statusClass(status) === 2)
          expect(foreignIn(bodyText), `filter ${param} with the foreign ${what} ${kind} listed vehicles of another lessee`).toEqual([]);
      });
    },
  );

  it('get-one answers the foreign vehicle number, exactly or percent-encoded, with a 4xx', async (ctx) => {
    skipIf(run, ctx, ['getVehicle'], needs(), reasonIfUnset(target, 'LP_FLEET_FOREIGN_VEHICLE_NUMBER'), listFailure);
    const foreign = target.env.LP_FLEET_FOREIGN_VEHICLE_NUMBER!;
    // Both spell the same path segment: a server must decode before it looks the number up, then refuse it.
    const encodedBytes = [...new TextEncoder().encode(foreign)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
    const segments: Array<[string, Change]> = [
      ['exactly', withPath({ vehicleNumber: foreign })],
      ['with every character percent-encoded', withRaw({ path: { vehicleNumber: encodedBytes } })],
    ];
    await forEachConcurrently(segments, async ([kind, change]) => {
      const { status } = (await request(run, 'getVehicle', change)).response;
      expect(statusClass(status), `the foreign vehicle ${kind} answered ${status}, not a 4xx`).toBe(4);
    });
  });

  it.for(FOREIGN)('get-one never returns a foreign vehicle for a path built from the foreign %s', async ([what, variable], ctx) => {
    skipIf(run, ctx, ['getVehicle'], needs(), reasonIfUnset(target, variable), listFailure);
    const foreign = target.env[variable]!;
    const ownNumber = own[0]?.vehicleNumber ?? 'V-CONTRACT-PROBE';
    const foreignPath = withPath({ vehicleNumber: foreign });
    const paths: Array<[string, Change]> = [
      ...[{ kind: 'exactly', value: foreign }, ...nearMisses(foreign, 'path'), ...wildcards(foreign)].map(
        ({ kind, value }): [string, Change] => [kind, withPath({ vehicleNumber: value })],
      ),
      ['with a trailing slash', (p) => withRaw({ suffix: '/' })(foreignPath(p))],
      ['with an extra path segment', (p) => withRaw({ suffix: '/x' })(foreignPath(p))],
      ['with a matrix parameter', (p) => withRaw({ suffix: ';x=1' })(foreignPath(p))],
      [
        'after an own number and an encoded dot segment',
        withRaw({ path: { vehicleNumber: `${encodeURIComponent(ownNumber)}%2F..%2F${encodeURIComponent(foreign)}` } }),
      ],
      ['with an own number in a query', (p) => withQuery({ vehicleNumber: ownNumber })(foreignPath(p))],
    ];
    await forEachConcurrently(paths, async ([kind, change]) => {
      const { response, bodyText } = await request(run, 'getVehicle', change);
      const status = response.status;
      expect(status, `get-one with the foreign ${what} ${kind} answered ${status}`).toBeLessThan(500);
      if (statusClass(status) === 2)
        expect(foreignIn(bodyText), `get-one with the foreign ${what} ${kind} returned another lessee's vehicle`).toEqual([]);
    });
  });
});
