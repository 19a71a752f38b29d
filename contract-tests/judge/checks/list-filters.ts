// Every vehicle of a list answer matches the filters the request carried (seed 4.5: "the vehicles ... that match the
// filters"; filters may be combined). A value matches when the vehicle's field equals it. A vehicle that matches only
// without regard to letter case or surrounding whitespace, or one value of a comma-separated list, contradicts the
// specs' guess that values match exactly; one that matches some of several filters but not all contradicts the guess
// that filters combine with AND (the seed says neither); a vehicle that matches none of the filters breaks 4.5. Empty
// values are not filters (a server may treat them as left out).
import { specRoles } from '../../model/operations.ts';
import { FILTERS } from '../../model/fleet-fields.ts';
import { vehicleListOf } from '../../model/vehicle-list.ts';
import { ASSUMPTIONS } from '../assumptions.ts';
import { assumptionOutcome, type ExchangeCheck, violation } from '../exchange-check.ts';
import { answerJson, queryOf, statusClassOf } from '../exchange-facts.ts';
import { PROMISES } from '../promises.ts';

const loosely = (value: string) => value.trim().toLowerCase();

/** How a field's value matches the filter's values: exactly, only loosely (case, whitespace, a comma list), or not. */
export function matchOf(field: unknown, values: string[]): 'exact' | 'loose' | 'none' {
  if (typeof field !== 'string') return 'none';
  if (values.includes(field)) return 'exact';
  const loose = values.flatMap((v) => [v, ...v.split(',')]).map(loosely);
  return loose.includes(loosely(field)) ? 'loose' : 'none';
}

export const listFilters: ExchangeCheck = {
  id: 'list-matches-filters',
  promise: () => PROMISES.seed('4.5', 'a list answers only vehicles that match every filter it was given'),
  source: { seed: '4.5' },
  clauses: ['seed-4.5-filters'],
  operations: specRoles().listsVehicles,
  statuses: '2xx',
  needs: 'hasDataSemantics',
  judge(seen) {
    if (!seen.operation || statusClassOf(seen) !== 2) return [];
    const query = queryOf(seen);
    const filters = FILTERS.map(([param, field]) => ({
      param,
      field,
      values: query.filter(([n, v]) => n === param && v.trim() !== '').map(([, v]) => v),
    })).filter((f) => f.values.length);
    if (!filters.length) return [];
    const vehicles = vehicleListOf<Record<string, unknown>>(answerJson(seen)).vehicles ?? [];
    const rows = vehicles.map((v) => ({
      number: `'${String(v.vehicleNumber)}'`,
      matches: filters.map((f) => matchOf(v[f.field], f.values)),
    }));
    const names = (list: typeof rows) =>
      list
        .slice(0, 5)
        .map((r) => r.number)
        .join(', ');
    const none = rows.filter((r) => r.matches.every((m) => m === 'none'));
    if (none.length)
      return [
        violation(
          listFilters,
          `listVehicles answered ${none.length} vehicles that match no value of ${filters.map((f) => f.param).join(' nor ')}: ${names(none)}`,
        ),
      ];
    const findings = [];
    const some = rows.filter((r) => r.matches.includes('none'));
    if (some.length)
      findings.push(
        assumptionOutcome(
          listFilters,
          ASSUMPTIONS.filtersAnd,
          `${filters.map((f) => f.param).join(' and ')} together listed ${some.length} vehicles that match only some of them: ${names(some)}`,
        ),
      );
    const loose = rows.filter((r) => r.matches.includes('loose'));
    if (loose.length)
      findings.push(
        assumptionOutcome(
          listFilters,
          ASSUMPTIONS.filtersRepeatedOr,
          `filters matched ${loose.length} vehicles only without regard to case, whitespace or commas: ${names(loose)}`,
        ),
      );
    return findings;
  },
};
