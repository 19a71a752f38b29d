// Combinations of the query parameters of GET {fleet_base_url}/vehicles, pairwise: every filter with every other
// filter (10 pairs) and every filter with every sort (5 filters x 8 fields x 2 directions = 80). Values come from the
// key's own unfiltered list, so the checks need no fixtures. What is judged, and how:
// - Seed 4.5 names each filter ("filter by X"): a listed vehicle must match the filter it was given.
// - Seed 4.5 says filters may be combined: two filters are answered with a list, never refused. Whether they combine
//   with AND is the spec's guess (ASSUMPTIONS.filtersAnd): a vehicle matching one of the two is recorded, not failed;
//   a vehicle matching neither, or a vehicle matching both that is left out, is wrong under any way of combining.
// - Sorting orders the answer and never changes which vehicles are in it: each filter is also sent alone (it must be
//   answered with a list), and each of its 16 sorts must list the same vehicles. As vehicles.test.ts, this takes the
//   list to be complete (no paging: an untestable assumption of seed 8). Which attributes and directions `sort`
//   takes is the spec's guess (ASSUMPTIONS.sortForm): a sort refused with a 4xx is recorded, and that request is not
//   judged further. Ascending by vehicleNumber is judged as vehicles.test.ts judges it (seed 4.5 shows "<attribute>
//   asc"); the order of every other sort is recorded.
// Every request goes through the model (send/model.ts), so the credential is placed as for any valid request.
import { beforeAll, describe, expect, it } from 'vitest';
import { ASSUMPTIONS, observeAssumption } from '../judge/assumptions.ts';
import { changedVehicles } from '../judge/list-relations.ts';
import { reasonIfCannot } from '../send/capabilities.ts';
import type { Exchange } from '../send/fetch.ts';
import { send, withCredentials } from '../send/model.ts';
import { specModel } from '../model/model-entries.ts';
import { statusClass } from '../judge/answers.ts';
import { skipIf } from '../support/skips.ts';
import { reasonIfUnset } from '../send/target.ts';
import { forEachConcurrently } from '../send/transport.ts';
import { FILTERS, VEHICLE_FIELDS, type Vehicle } from '../model/fleet-fields.ts';
import { parseJsonLoosely, unreadableListReason, vehicleListOf } from '../model/vehicle-list.ts';
import { workerRun } from '../support/worker-run.ts';

const run = workerRun();
const { target } = run;

type Field = keyof Vehicle;
type Filter = readonly [param: string, field: Field];
type Query = Array<[string, string]>;

const DIRECTIONS = ['asc', 'desc'] as const;
/** Every two different filters, each pair once: 10. */
const PAIRS: Array<[Filter, Filter]> = FILTERS.flatMap((a, i) => FILTERS.slice(i + 1).map((b): [Filter, Filter] => [a, b]));
/** Every sort the spec assumes: 16. */
const SORTS = VEHICLE_FIELDS.flatMap((field) => DIRECTIONS.map((direction) => ({ field, direction })));

const LIST = ['listVehicles'];
const ENTRY = specModel().find((e) => e.operationId === 'listVehicles')!;
const needsKey = () => reasonIfUnset(target, 'LP_FLEET_BASE_URL', 'LP_FLEET_API_KEY');
const needsData = () => reasonIfCannot(target.name, 'hasDataSemantics');

let all: Vehicle[] = [];
let listFailure: string | undefined;

interface Answer {
  status: number;
  /** The listed vehicles of a 2xx answer whose list could be read (bare or wrapped). */
  vehicles?: Vehicle[];
  /** Why a 2xx answer's vehicles could not be read. */
  unreadable?: string;
  seen: Exchange;
  /** The query as sent, for messages: filter names and values and the sort, never a credential (those are headers). */
  label: string;
}

const labelOf = (query: Query) => (query.length ? `?${query.map(([name, value]) => `${name}=${value}`).join('&')}` : '(no query)');

/** A valid list request from the model with `query` added; every answer is checked against the spec by the contract fetch. */
async function ask(query: Query, combination: boolean): Promise<Answer> {
  const parts = await withCredentials(run, ENTRY);
  const seen = await send(run, ENTRY, { ...parts, query: [...parts.query, ...query] }, combination ? { dimension: 'combinations' } : {});
  const status = seen.response.status;
  const label = labelOf(query);
  if (statusClass(status) !== 2) return { status, seen, label };
  const { vehicles, shape } = vehicleListOf<Vehicle>(parseJsonLoosely(seen.bodyText));
  return vehicles
    ? { status, vehicles, seen, label }
    : { status, unreadable: shape.kind === 'unreadable' ? shape.why : 'unknown', seen, label };
}

/**
 * A field's value when it can be sent as a filter value: a non-empty string (the spec's minLength 1) within the
 * assumed 64 characters (a server may refuse a longer one, ASSUMPTIONS.filterLimits, which is no answer to judge here).
 */
const filterValue = (vehicle: Vehicle, field: Field): string | undefined => {
  const value: unknown = vehicle[field];
  return typeof value === 'string' && value !== '' && value.length <= 64 ? value : undefined;
};
const matches = (vehicle: Vehicle, field: Field, value: string) => vehicle[field] === value;
const numbers = (vehicles: Vehicle[]) => vehicles.map((v) => String(v.vehicleNumber));
/** A few vehicle numbers for a message. */
const some = (list: string[]) => (list.length > 5 ? `${list.slice(0, 5).join(', ')} and ${list.length - 5} more` : list.join(', '));

/** How many vehicles of the unfiltered list have each value of `field`. */
function countsOf(field: Field): Map<string, number> {
  const counts = new Map<string, number>();
  for (const vehicle of all) {
    const value = filterValue(vehicle, field);
    if (value !== undefined) counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return counts;
}

/**
 * The vehicle whose `field` value a filter+sort check sends: preferably a value some but not all vehicles share (an
 * ignored filter shows, and the sort has more than one vehicle to order), else one not every vehicle has; among
 * those, the value fewest vehicles share (smaller answers, sixteen times over).
 */
function vehicleForFilter(field: Field): Vehicle | undefined {
  const counts = countsOf(field);
  const score = (v: Vehicle) => {
    const count = counts.get(filterValue(v, field)!)!;
    return (count < all.length ? 2 : 0) + (count > 1 ? 1 : 0) - count / (all.length + 1);
  };
  return best(
    all.filter((v) => filterValue(v, field) !== undefined),
    score,
  );
}

/**
 * The vehicle whose values a filter pair sends: both non-empty; preferably one where another vehicle matches exactly
 * one of the two values (so AND and OR answer differently) and another matches neither (so ignored filters show).
 * Counted from the unfiltered list in one pass per pair, so a large fleet costs no more than its size.
 */
function vehicleForPair([, a]: Filter, [, b]: Filter): { vehicle: Vehicle; discriminating: boolean } | undefined {
  const countA = countsOf(a);
  const countB = countsOf(b);
  const both = new Map<string, number>();
  const key = (v: Vehicle) => `${filterValue(v, a)}\u0000${filterValue(v, b)}`;
  const usable = all.filter((v) => filterValue(v, a) !== undefined && filterValue(v, b) !== undefined);
  for (const v of usable) both.set(key(v), (both.get(key(v)) ?? 0) + 1);
  const shape = (v: Vehicle) => {
    const [inA, inB, inBoth] = [countA.get(filterValue(v, a)!)!, countB.get(filterValue(v, b)!)!, both.get(key(v))!];
    return { onlyOne: inA > inBoth || inB > inBoth, neither: inA + inB - inBoth < all.length };
  };
  const vehicle = best(usable, (v) => {
    const { onlyOne, neither } = shape(v);
    return (onlyOne ? 2 : 0) + (neither ? 1 : 0);
  });
  return vehicle && { vehicle, discriminating: shape(vehicle).onlyOne };
}

/** The first item with the highest score. */
function best<T>(items: T[], score: (item: T) => number): T | undefined {
  let chosen: T | undefined;
  let top = -1;
  for (const item of items) {
    const s = score(item);
    if (s > top) [chosen, top] = [item, s];
  }
  return chosen;
}

/** Values in the order asked, ties in any order; strings by code units (the spec's guess), numbers by value. */
function inOrder(values: unknown[], direction: 'asc' | 'desc'): boolean {
  const numeric = values.every((v) => typeof v === 'number');
  const keys = values.map((v) => (numeric ? (v as number) : String(v ?? '')));
  for (let i = 1; i < keys.length; i++) {
    const [before, after] = [keys[i - 1]!, keys[i]!];
    if (direction === 'asc' ? before > after : before < after) return false;
  }
  return true;
}
/** Fails the check with every violation found, one a line (the first line says how many), or passes it. */
function judge(what: string, violations: string[]): void {
  if (violations.length)
    expect.fail(
      `${what}: ${violations.length} ${violations.length === 1 ? 'answer breaks' : 'answers break'} the published documentation\n${violations.map((v) => `  - ${v}`).join('\n')}`,
    );
}
const inLocaleOrder = (values: string[]) => values.every((value, i) => i === 0 || values[i - 1]!.localeCompare(value) <= 0);

beforeAll(async () => {
  if (needsKey() || needsData()) return;
  const { status, vehicles, unreadable } = await ask([], false);
  if (unreadable !== undefined) listFailure = unreadableListReason(unreadable);
  else if (!vehicles) listFailure = `the unfiltered list answered ${status} (judged by vehicles.test.ts)`;
  else all = vehicles;
});

const tooFew = () => (all.length < 2 ? 'the key sees fewer than two vehicles: no combination could show a wrong answer' : undefined);

describe('combinations of list parameters (GET {fleet_base_url}/vehicles)', () => {
  // Seed 4.5: "filters may be combined", and each filters by its field. AND is the spec's guess.
  it('every two filters together list the vehicle both values came from and only vehicles matching either; records whether they combine with AND', async (ctx) => {
    skipIf(run, ctx, LIST, needsKey(), needsData(), listFailure, tooFew());
    const planned = PAIRS.map((pair) => ({ pair, chosen: vehicleForPair(...pair) }));
    for (const { pair, chosen } of planned)
      if (!chosen)
        console.log(
          `combinations: ${pair[0][0]} with ${pair[1][0]} not sent: no vehicle has non-empty ${pair[0][1]} and ${pair[1][1]} (of at most 64 characters)`,
        );
    const sendable = planned.filter((p) => p.chosen);
    skipIf(run, ctx, LIST, sendable.length ? undefined : 'no vehicle of the key has non-empty values in any two filtered fields');

    const violations: string[] = [];
    await forEachConcurrently(sendable, async ({ pair: [[paramA, fieldA], [paramB, fieldB]], chosen }) => {
      const { vehicle: v, discriminating } = chosen!;
      const [a, b] = [filterValue(v, fieldA)!, filterValue(v, fieldB)!];
      const { status, vehicles, unreadable, seen, label } = await ask(
        [
          [paramA, a],
          [paramB, b],
        ],
        true,
      );
      if (unreadable !== undefined)
        return void console.log(`combinations: ${label}: the list could not be read (${unreadable}); not judged`);
      if (!vehicles) {
        violations.push(`${paramA} with ${paramB} (${label}) answered ${status}: the published documentation says filters may be combined`);
        return;
      }
      const listed = new Set(numbers(vehicles));
      const neither = vehicles.filter((w) => !matches(w, fieldA, a) && !matches(w, fieldB, b));
      if (neither.length)
        violations.push(`${paramA} with ${paramB} (${label}) listed vehicles matching neither filter: ${some(numbers(neither))}`);
      const missing = all.filter((w) => matches(w, fieldA, a) && matches(w, fieldB, b) && !listed.has(String(w.vehicleNumber)));
      if (missing.length)
        violations.push(
          `${paramA} with ${paramB} (${label}) left out vehicles matching both filters: ${some(numbers(missing))}` +
            (listed.has(String(v.vehicleNumber)) ? '' : ` (among them ${v.vehicleNumber}, whose values were sent)`),
        );
      // A vehicle matching just one of the two: the filters were combined with OR (or one was dropped).
      const onlyOne = vehicles.filter((w) => matches(w, fieldA, a) !== matches(w, fieldB, b));
      // No vehicle can tell AND from OR unless one matches exactly one value: such an answer confirms nothing.
      if (onlyOne.length || discriminating)
        observeAssumption(
          run,
          ASSUMPTIONS.filtersAnd,
          onlyOne.length === 0,
          `${label} answered ${status} with ${vehicles.length} vehicles, ${onlyOne.length} of them matching only one of the two filters`,
          seen,
        );
    });
    judge('filter pairs', violations);
  });

  // Sorting never changes membership: each of the 16 sorts with a filter lists exactly what the filter alone lists.
  it.for(FILTERS)('filter %s with each of the 16 sorts lists what the filter alone lists, all matching it', async ([param, field], ctx) => {
    const v = needsKey() || needsData() || listFailure ? undefined : vehicleForFilter(field);
    const none = v ? undefined : `the key sees no vehicle with a non-empty ${field}`;
    skipIf(run, ctx, LIST, needsKey(), needsData(), listFailure, tooFew(), none);
    const value = filterValue(v!, field)!;
    const violations: string[] = [];
    /** What seed 4.5 says of any answer to this filter: it matches, and the vehicle the value came from is in it. */
    const judgeFilter = (vehicles: Vehicle[], label: string) => {
      const strays = vehicles.filter((w) => !matches(w, field, value));
      if (strays.length) violations.push(`${label} listed vehicles whose ${field} is not the filter's value: ${some(numbers(strays))}`);
      if (!numbers(vehicles).includes(String(v!.vehicleNumber)))
        violations.push(`${label} left out ${v!.vehicleNumber}, whose ${field} was sent`);
    };

    const alone = await ask([[param, value]], false);
    if (alone.unreadable !== undefined) skipIf(run, ctx, LIST, `${alone.label}: the list could not be read (${alone.unreadable})`);
    if (!alone.vehicles) {
      // The seed names the filter: refusing it alone is wrong whatever the sort does (the sorts are not sent).
      expect.fail(`${alone.label} (the filter alone) answered ${alone.status}: the published documentation names the filter ${param}`);
    }
    judgeFilter(alone.vehicles!, `${alone.label} (the filter alone)`);
    const expected = numbers(alone.vehicles!).sort();

    await forEachConcurrently(SORTS, async ({ field: by, direction }) => {
      const { status, vehicles, unreadable, seen, label } = await ask(
        [
          [param, value],
          ['sort', `${by} ${direction}`],
        ],
        true,
      );
      if (unreadable !== undefined)
        return void console.log(`combinations: ${label}: the list could not be read (${unreadable}); not judged`);
      if (!vehicles) {
        // The sort attributes and directions are the spec's guess: a refusal is recorded, and nothing more is judged.
        if (statusClass(status) === 4) observeAssumption(run, ASSUMPTIONS.sortForm, false, `${label} answered ${status}`, seen);
        else violations.push(`${label} answered ${status}`);
        return;
      }
      judgeFilter(vehicles, label);
      for (const change of changedVehicles(alone.vehicles!, vehicles, VEHICLE_FIELDS, 1))
        violations.push(`${label} changed a vehicle the filter alone listed: ${change}`);
      const got = numbers(vehicles).sort();
      const gotSet = new Set(got);
      const expectedSet = new Set(expected);
      const added = got.filter((n) => !expectedSet.has(n));
      const dropped = expected.filter((n) => !gotSet.has(n));
      if (added.length || dropped.length || got.length !== expected.length)
        violations.push(
          `${label} listed other vehicles than ${alone.label} alone (${got.length} against ${expected.length}` +
            `${added.length ? `; added ${some(added)}` : ''}${dropped.length ? `; left out ${some(dropped)}` : ''}): sorting must not change which vehicles are listed`,
        );
      const values = vehicles.map((w) => w[by]);
      if (by === 'vehicleNumber' && direction === 'asc') {
        // As vehicles.test.ts judges it: ascending, in code-unit or in locale order (which one is the guess).
        const ordered = numbers(vehicles);
        if (!inOrder(ordered, 'asc') && !inLocaleOrder(ordered)) violations.push(`${label} listed the vehicles out of ascending order`);
      }
      // One vehicle, or one value among all listed, shows no order: nothing to record.
      if (new Set(values.map((x) => String(x))).size > 1) {
        const ordered = inOrder(values, direction);
        observeAssumption(
          run,
          ASSUMPTIONS.sortForm,
          ordered,
          `${label} answered ${status} with ${vehicles.length} vehicles ${ordered ? 'in' : 'out of'} code-unit order of ${by}`,
          seen,
        );
      }
    });
    judge(`filter ${param} with each sort`, violations);
  });
});
