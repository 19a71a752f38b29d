// Contract of GET {fleet_base_url}/vehicles and /vehicles/{vehicleNumber}, data-driven: vehicles are taken from the
// unfiltered list, so the checks need no fixtures and hold for any fleet with at least two distinct vehicles.
import { beforeAll, describe, expect, it } from 'vitest';
import { ASSUMPTIONS, observeAssumption } from '../judge/assumptions.ts';
import { areReversed, changedVehicles } from '../judge/list-relations.ts';
import { reasonIfCannot } from '../send/capabilities.ts';
import { callOperation, fleetClient } from '../send/clients.ts';
import type { Exchange } from '../send/fetch.ts';
import { request } from '../send/model.ts';
import { withPath, withQuery, withRaw } from '../send/parts.ts';
import { jsonOf, statusClass } from '../judge/answers.ts';
import { skipIf } from '../support/skips.ts';
import { reasonIfUnset } from '../send/target.ts';
import { forEachConcurrently } from '../send/transport.ts';
import { FILTERS, type FilterName, VEHICLE_FIELDS, type Vehicle } from '../model/fleet-fields.ts';
import { everyVehicleIn, parseJsonLoosely, unreadableListReason, vehicleListOf } from '../model/vehicle-list.ts';
import { workerRun } from '../support/worker-run.ts';

const run = workerRun();
const { target } = run;

const LIST = ['listVehicles'];
const GET = ['getVehicle'];
const needsKey = () => reasonIfUnset(target, 'LP_FLEET_BASE_URL', 'LP_FLEET_API_KEY');
const needsData = () => reasonIfCannot(target.name, 'hasDataSemantics');

let all: Vehicle[] = [];
let listFailure: string | undefined;

/** A query through the published client; the response is checked against the spec by the contract fetch. */
async function list(query: Partial<Record<FilterName, string[]>> & { sort?: string } = {}): Promise<Vehicle[]> {
  const { data, response } = await callOperation(fleetClient(run), 'listVehicles', { params: { query } });
  expect(statusClass(response.status), `list ${JSON.stringify(query)} answered ${response.status}`).toBe(2);
  // The vehicles the server sent, bare or wrapped (the array is the spec's guess, reported when contradicted).
  const { vehicles, shape } = vehicleListOf<Vehicle>(data);
  if (!vehicles) throw new ListUnreadable(shape.kind === 'unreadable' ? shape.why : 'unknown shape');
  return vehicles;
}

/** The unfiltered list could not be read as vehicles at all: the checks that build on it are skipped, saying why. */
class ListUnreadable extends Error {
  override readonly name = 'ListUnreadable';
}

const numbers = (vehicles: Vehicle[]) => vehicles.map((v) => v.vehicleNumber);

/** A raw query, for checks that record an assumption from the answer: the vehicles when it was a 2xx list, and the exchange. */
async function probe(
  query: Partial<Record<FilterName | 'sort', string[]>>,
): Promise<{ vehicles?: Vehicle[]; seen: Exchange; label: string }> {
  const label = Object.entries(query)
    .flatMap(([name, values]) => (values ?? []).map((value) => `${name}=${value}`))
    .join('&');
  const seen = await request(run, 'listVehicles', withQuery(query));
  const body = statusClass(seen.response.status) === 2 ? parseJsonLoosely(seen.bodyText) : undefined;
  return { vehicles: vehicleListOf<Vehicle>(body).vehicles, seen, label };
}

/** Vehicles of a result whose `field` is none of `values`. */
const strays = (vehicles: Vehicle[], field: keyof Vehicle, ...values: string[]) =>
  numbers(vehicles.filter((v) => !values.includes(v[field])));

/** Two vehicles that differ in `field`, or the reason there are none. Filter values must be non-empty (the spec's
 * minLength 1, and a server may refuse an empty one), so both vehicles have a non-empty value in `field` and in each
 * of `alsoSent`, the other fields a check sends as filters. */
function pairDifferingIn(field: keyof Vehicle, ...alsoSent: Array<keyof Vehicle>): [Vehicle, Vehicle] | string {
  const usable = all.filter((v) => [field, ...alsoSent].every((f) => typeof v[f] === 'string' && v[f] !== ''));
  const first = usable[0];
  const other = usable.find((v) => first && v[field] !== first[field]);
  return first && other
    ? [first, other]
    : `the key sees no two vehicles with different, non-empty ${[field, ...alsoSent].join(', ')} values`;
}

/** A vehicle with a non-empty value in `field` (a filter value must not be empty). */
const withValueIn = (field: keyof Vehicle) => all.find((v) => typeof v[field] === 'string' && v[field] !== '');

beforeAll(async () => {
  if (needsKey()) return;
  try {
    all = await list();
  } catch (error) {
    listFailure =
      error instanceof ListUnreadable ? unreadableListReason(error.message) : `the unfiltered list failed: ${(error as Error).message}`;
  }
});

describe('list vehicles (GET {fleet_base_url}/vehicles)', () => {
  // Seed 2.1 and 4.5: each listed vehicle has the eight fields. The list's shape and the fields' types are the spec's
  // guesses, judged on the response by the contract fetch; whether API-Key alone is enough is recorded here.
  it('returns the vehicles with their eight fields for a valid key', async (ctx) => {
    skipIf(run, ctx, LIST, needsKey());
    const { seen } = await probe({});
    observeAssumption(
      run,
      ASSUMPTIONS.fleetKeyAlone,
      statusClass(seen.response.status) === 2,
      `the list with API-Key alone answered ${seen.response.status}`,
      seen,
    );
    skipIf(
      run,
      ctx,
      LIST,
      statusClass(seen.response.status) === 4
        ? `the key alone was refused (${seen.response.status}): a contradicted assumption, see the report`
        : undefined,
      listFailure,
    );
    for (const vehicle of all) expect(Object.keys(vehicle)).toEqual(expect.arrayContaining([...VEHICLE_FIELDS]));
  });

  it.for(FILTERS)('filter %s returns only matching vehicles, the chosen one included', async ([param, field], ctx) => {
    skipIf(
      run,
      ctx,
      LIST,
      needsKey(),
      needsData(),
      listFailure,
      withValueIn(field) ? undefined : `the key sees no vehicle with a non-empty ${field}`,
    );
    // Prefer a vehicle whose value is not shared by every vehicle, so an ignored filter shows.
    const pair = pairDifferingIn(field);
    const chosen = typeof pair === 'string' ? withValueIn(field)! : pair[0];
    // Seed 4.5 names each filter, customervehicleNumber with its lower-case v, and what it filters by.
    const result = await list({ [param]: [chosen[field]] });
    expect(strays(result, field, chosen[field]), `vehicles not matching ${param}`).toEqual([]);
    expect(numbers(result)).toContain(chosen.vehicleNumber);
    if (typeof pair !== 'string') expect(numbers(result), 'a vehicle with another value').not.toContain(pair[1].vehicleNumber);
  });

  // Seed 4.5 gives no format for several values of one filter: repeated parameters meaning "A or B" is the guess. Its
  // relation: the list of both values is the union of the lists of each (field by field, the exchange checks judge every
  // list against the unfiltered one).
  it.for(FILTERS)('records whether two values of filter %s list the union of the lists of each value', async ([param, field], ctx) => {
    const pair = pairDifferingIn(field);
    skipIf(run, ctx, LIST, needsKey(), needsData(), listFailure, typeof pair === 'string' ? pair : undefined);
    const [a, b] = pair as [Vehicle, Vehicle];
    const [{ vehicles = [], seen, label }, ofA, ofB] = await Promise.all([
      probe({ [param]: [a[field], b[field]] }),
      list({ [param]: [a[field]] }),
      list({ [param]: [b[field]] }),
    ]);
    const union = new Set(numbers([...ofA, ...ofB]));
    const listed = new Set(numbers(vehicles));
    const holds = statusClass(seen.response.status) === 2 && listed.size === union.size && [...union].every((number) => listed.has(number));
    observeAssumption(
      run,
      ASSUMPTIONS.filtersRepeatedOr,
      holds,
      `?${label} answered ${seen.response.status} with ${vehicles.length} vehicles; the lists of each value hold ${union.size} together${holds ? ', the same' : ''}`,
      seen,
    );
  });

  // The answers are compared with each other throughout (sorted, filtered and single answers with the unfiltered list);
  // that the data holds still while they are is the spec's x-assumption, recorded from the same request sent again.
  it('records whether the same list request sent twice gets the same vehicles, field by field', async (ctx) => {
    skipIf(run, ctx, LIST, needsKey(), needsData(), listFailure);
    const before = new Set(numbers(all));
    /** How an answer to the unfiltered list differs from the first one, if it does. */
    const difference = ({ vehicles = [], seen }: Awaited<ReturnType<typeof probe>>) => {
      if (statusClass(seen.response.status) !== 2) return `answered ${seen.response.status}`;
      const changed = changedVehicles(all, vehicles, VEHICLE_FIELDS);
      const same = vehicles.length === all.length && vehicles.every((vehicle) => before.has(vehicle.vehicleNumber));
      if (same && !changed.length) return undefined;
      return `${vehicles.length} vehicles, first ${all.length}${changed.length ? `; changed: ${changed.join('; ')}` : ''}`;
    };
    // Twice more, one after the other: the data may change between the first list and these, or between these two.
    const answers = [await probe({}), await probe({})];
    const differences = answers.map(difference);
    const index = Math.max(
      0,
      differences.findIndex((d) => d !== undefined),
    );
    observeAssumption(
      run,
      ASSUMPTIONS.readsRepeatable,
      differences.every((d) => d === undefined),
      `the unfiltered list asked twice more: ${differences.map((d) => d ?? 'the same').join(', then ')}`,
      answers[index]!.seen,
    );
  });

  // Seed 4.5: filters may be combined (so a combination is answered with matching vehicles); that they combine with
  // AND is the spec's guess, recorded from a crossed query: with OR, vin=A and licensePlate=B would return both.
  it('combines two different filters, and records whether they combine with AND', async (ctx) => {
    const pair = pairDifferingIn('vin', 'customerNumber', 'licensePlate');
    skipIf(run, ctx, LIST, needsKey(), needsData(), listFailure, typeof pair === 'string' ? pair : undefined);
    const [a, b] = pair as [Vehicle, Vehicle];
    const both = await list({ vin: [a.vin], customerNumber: [a.customerNumber] });
    expect(numbers(both)).toContain(a.vehicleNumber);
    const { vehicles = [], seen, label } = await probe({ vin: [a.vin], licensePlate: [b.licensePlate] });
    const onlyOne = numbers(vehicles.filter((v) => v.vin !== a.vin || v.licensePlate !== b.licensePlate));
    observeAssumption(
      run,
      ASSUMPTIONS.filtersAnd,
      statusClass(seen.response.status) === 2 && onlyOne.length === 0,
      `?${label} answered ${seen.response.status} with ${onlyOne.length} vehicles matching only one of the filters`,
      seen,
    );
  });

  // Seed 4.5 shows "<attribute> asc"; desc, the other attributes and the order of strings (code units) are guesses.
  // The sorted list must still hold the same vehicles; the order is recorded.
  const byCodeUnits = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  const inOrder = (values: string[], direction: 'asc' | 'desc') => {
    const expected = [...values].sort(byCodeUnits);
    if (direction === 'desc') expected.reverse();
    return values.every((value, i) => value === expected[i]);
  };

  /** The list sorted by one field, asked once per run: the order checks and the relation between asc and desc share it. */
  const sorted = new Map<string, ReturnType<typeof probe>>();
  const sortedBy = (field: keyof Vehicle, direction: 'asc' | 'desc') => {
    const key = `${field} ${direction}`;
    if (!sorted.has(key)) sorted.set(key, probe({ sort: [key] }));
    return sorted.get(key)!;
  };

  it.for(['asc', 'desc'] as const)('sort vehicleNumber %s returns the same vehicles, and records their order', async (direction, ctx) => {
    skipIf(run, ctx, LIST, needsKey(), needsData(), listFailure, all.length < 2 ? 'the key sees fewer than two vehicles' : undefined);
    const { vehicles, seen, label } = await sortedBy('vehicleNumber', direction);
    if (direction === 'asc') {
      // Seed 4.5 shows "<attribute> asc": ascending it must be, in code-unit or in locale order (which one is the guess).
      const values = numbers(vehicles ?? []);
      expect([...values].sort(), `?${label}: the same vehicles as unsorted`).toEqual([...numbers(all)].sort());
      const byLocale = values.every((value, i) => i === 0 || values[i - 1]!.localeCompare(value) <= 0);
      expect(inOrder(values, 'asc') || byLocale, `?${label}: vehicles in ascending order`).toBe(true);
    }
    // Whatever its order, the sorted list's vehicles are the unsorted list's, field by field: list-agrees-with-unfiltered
    // judges that on this answer, as on every list answer.
    const ordered = vehicles !== undefined && inOrder(numbers(vehicles), direction);
    observeAssumption(
      run,
      ASSUMPTIONS.sortForm,
      ordered,
      `?${label} answered ${seen.response.status}${vehicles ? (ordered ? ' in code-unit order' : ' out of code-unit order') : ''}`,
      seen,
    );
  });

  it.for(['asc', 'desc'] as const)(
    'sort by each of the eight vehicle fields, %s: records whether each orders the results',
    async (direction, ctx) => {
      skipIf(run, ctx, LIST, needsKey(), needsData(), listFailure, all.length < 2 ? 'the key sees fewer than two vehicles' : undefined);
      // Ties may come in any order, so only the field's order is compared.
      await forEachConcurrently(VEHICLE_FIELDS, async (field) => {
        const { vehicles, seen, label } = await sortedBy(field, direction);
        const values = (vehicles ?? []).map((v) => v[field]);
        const holds = vehicles !== undefined && values.length === all.length && inOrder(values, direction);
        observeAssumption(
          run,
          ASSUMPTIONS.sortForm,
          holds,
          `?${label} answered ${seen.response.status} with ${values.length} of ${all.length} vehicles${holds ? ' in code-unit order' : ''}`,
          seen,
        );
      });
    },
  );

  it('sorted asc and desc by each field, lists the values in reverse order of each other; records it', async (ctx) => {
    skipIf(run, ctx, LIST, needsKey(), needsData(), listFailure, all.length < 2 ? 'the key sees fewer than two vehicles' : undefined);
    await forEachConcurrently(VEHICLE_FIELDS, async (field) => {
      const [asc, desc] = await Promise.all([sortedBy(field, 'asc'), sortedBy(field, 'desc')]);
      if (!asc.vehicles || !desc.vehicles) return;
      // The sort's directions are the spec's guess (seed 4.5 shows the form, not its meaning): recorded, not a violation.
      const reversed = areReversed(asc.vehicles, desc.vehicles, field);
      observeAssumption(
        run,
        ASSUMPTIONS.sortForm,
        reversed,
        `?${desc.label} ${reversed ? 'lists' : 'does not list'} the ${field} values of ?${asc.label} in reverse order`,
        desc.seen,
      );
    });
  });

  it('answers unknown query parameters with a 2xx or a 4xx, never a 5xx', async (ctx) => {
    // Unknown parameters may be ignored or refused (the seed says neither); a misspelt filter is the likeliest one.
    skipIf(run, ctx, LIST, needsKey());
    await forEachConcurrently(
      ['customerVehicleNumber=CONTRACT-PROBE', 'contractProbe=1', `${'q'.repeat(300)}=${'v'.repeat(2000)}`],
      async (query) => {
        const { response } = await request(run, 'listVehicles', withRaw({ query }));
        expect([2, 4], `?${query.slice(0, 40)} answered ${response.status}`).toContain(statusClass(response.status));
      },
    );
  });

  it('does not list the foreign vehicle (LP_FLEET_FOREIGN_VEHICLE_NUMBER), even when asked for it', async (ctx) => {
    skipIf(run, ctx, LIST, needsKey(), needsData(), reasonIfUnset(target, 'LP_FLEET_FOREIGN_VEHICLE_NUMBER'), listFailure);
    const foreign = target.env.LP_FLEET_FOREIGN_VEHICLE_NUMBER!;
    expect(numbers(all)).not.toContain(foreign);
    expect(numbers(await list({ vehicleNumber: [foreign] }))).not.toContain(foreign);
  });

  it("lists none of the foreign customer's vehicles (LP_FLEET_FOREIGN_CUSTOMER_NUMBER), even when filtered by it", async (ctx) => {
    skipIf(run, ctx, LIST, needsKey(), needsData(), reasonIfUnset(target, 'LP_FLEET_FOREIGN_CUSTOMER_NUMBER'), listFailure);
    const foreign = target.env.LP_FLEET_FOREIGN_CUSTOMER_NUMBER!;
    expect(all.map((v) => v.customerNumber)).not.toContain(foreign);
    // An empty list or a 4xx both keep the contract (the seed shows neither); any vehicle of that customer is a leak.
    const { response, bodyText } = await request(run, 'listVehicles', withQuery({ customerNumber: foreign }));
    expect([2, 4], `filtered by the foreign customer: ${response.status}`).toContain(statusClass(response.status));
    if (statusClass(response.status) === 2) {
      // Whatever the list's shape: no vehicle in it at all (it was filtered by a customer the key must not see).
      const body = parseJsonLoosely(bodyText);
      expect(vehicleListOf(body).vehicles ?? everyVehicleIn(body), 'vehicles listed for the foreign customer').toEqual([]);
    }
  });
});

describe('get one vehicle (GET {fleet_base_url}/vehicles/{vehicleNumber})', () => {
  it('agrees with the list for up to three vehicles', async (ctx) => {
    skipIf(run, ctx, GET, needsKey(), needsData(), listFailure, all.length === 0 ? 'the key sees no vehicles' : undefined);
    await forEachConcurrently(all.slice(0, 3), async (listed) => {
      const { data, response } = await callOperation<Vehicle>(fleetClient(run), 'getVehicle', {
        params: { path: { vehicleNumber: listed.vehicleNumber } },
      });
      expect(statusClass(response.status), `get ${listed.vehicleNumber}: ${response.status}`).toBe(2);
      const pick = (v: Vehicle | undefined) => Object.fromEntries(VEHICLE_FIELDS.map((f) => [f, v?.[f]]));
      expect(pick(data)).toEqual(pick(listed));
    });
  });

  it('answers an unknown vehicle number with a 4xx', async (ctx) => {
    skipIf(run, ctx, GET, needsKey(), needsData());
    const unknown = `V-CONTRACT-UNKNOWN-${crypto.randomUUID().slice(0, 8)}`;
    const seen = await request(run, 'getVehicle', withPath({ vehicleNumber: unknown }));
    const { response, bodyText } = seen;
    expect(statusClass(response.status), `status ${response.status}`).toBe(4);
    observeAssumption(run, ASSUMPTIONS.unknownVehicle404, response.status === 404, `an unknown vehicle answered ${response.status}`, seen);
    // An empty error body is allowed (gateways send them); a non-empty one shows whether errors are JSON objects.
    if (bodyText.trim())
      observeAssumption(
        run,
        ASSUMPTIONS.errorBody,
        jsonOf(bodyText) !== undefined,
        `the error body is ${jsonOf(bodyText) ? 'a JSON object' : 'not a JSON object'}`,
        seen,
      );
  });

  it('answers the foreign vehicle (LP_FLEET_FOREIGN_VEHICLE_NUMBER) with a 4xx', async (ctx) => {
    skipIf(run, ctx, GET, needsKey(), needsData(), reasonIfUnset(target, 'LP_FLEET_FOREIGN_VEHICLE_NUMBER'));
    const foreign = target.env.LP_FLEET_FOREIGN_VEHICLE_NUMBER!;
    const seen = await request(run, 'getVehicle', withPath({ vehicleNumber: foreign }));
    const { response } = seen;
    expect(statusClass(response.status), `status ${response.status}`).toBe(4);
    observeAssumption(run, ASSUMPTIONS.unknownVehicle404, response.status === 404, `a foreign vehicle answered ${response.status}`, seen);
  });
});
