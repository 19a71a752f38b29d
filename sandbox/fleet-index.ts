// Indexes the fleet per lessee by every filterable field and precomputed sort ranks, so a
// filtered, sorted list costs the size of its answer, not a scan of 100,000 vehicles.
import type { Lessee, Vehicle } from './fleet-fixtures.ts';

export const FILTER_FIELDS = ['customerNumber', 'vehicleNumber', 'vin', 'customerVehicleNumber', 'licensePlate'] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];
export const SORT_FIELDS = [
  'customerNumber',
  'vehicleNumber',
  'vin',
  'customerVehicleNumber',
  'licensePlate',
  'domicileLocationNumber',
  'domicileLocationName',
  'vehicleType',
] as const;
export type SortField = (typeof SORT_FIELDS)[number];

export type VehicleQuery = {
  filters: { field: FilterField; values: string[] }[];
  /** true: vehicles must match every filter (AND); false: any filter (OR, only for a fault). */
  combineWithAnd: boolean;
  sort?: { field: SortField; descending: boolean };
};

/** The vehicles one caller may see, indexed. Indices point into the shared vehicle array. */
class VisibleFleet {
  private readonly byField = new Map<FilterField, Map<string, number[]>>();
  private readonly sortedBy = new Map<SortField, Uint32Array>();

  constructor(
    private readonly fleet: FleetIndex,
    /** Visible vehicle indices in vehicleNumber order. */
    readonly ids: Uint32Array,
  ) {
    for (const field of FILTER_FIELDS) {
      const index = new Map<string, number[]>();
      for (const id of ids) {
        const value = fleet.vehicles[id]![field];
        const list = index.get(value);
        if (list) list.push(id);
        else index.set(value, [id]);
      }
      this.byField.set(field, index);
    }
  }

  find(vehicleNumber: string): number | undefined {
    return this.byField.get('vehicleNumber')!.get(vehicleNumber)?.[0];
  }

  query(query: VehicleQuery): ArrayLike<number> {
    const matches = query.filters.length === 0 ? undefined : this.match(query);
    if (!query.sort) return matches ?? this.ids;
    const { field, descending } = query.sort;
    let ordered: ArrayLike<number>;
    if (!matches) {
      ordered = this.sortedAll(field);
    } else {
      const rank = this.fleet.rank(field);
      ordered = Uint32Array.from(matches).sort((a, b) => rank[a]! - rank[b]!);
    }
    return descending ? Uint32Array.from(ordered).reverse() : ordered;
  }

  private match(query: VehicleQuery): Uint32Array {
    const [only] = query.filters;
    // One filter with one value (the common case): its index list is already in vehicleNumber order.
    if (query.filters.length === 1 && only!.values.length === 1) {
      return Uint32Array.from(this.byField.get(only!.field)!.get(only!.values[0]!) ?? []);
    }
    const perFilter = query.filters.map(({ field, values }) => {
      const index = this.byField.get(field)!;
      if (values.length === 1) return index.get(values[0]!) ?? [];
      const union = new Set<number>();
      for (const value of values) for (const id of index.get(value) ?? []) union.add(id);
      return [...union];
    });
    let result: number[];
    if (query.combineWithAnd) {
      // Start from the smallest candidate list and keep what every other filter also matched.
      perFilter.sort((a, b) => a.length - b.length);
      const others = perFilter.slice(1).map((list) => new Set(list));
      result = perFilter[0]!.filter((id) => others.every((set) => set.has(id)));
    } else {
      result = [...new Set(perFilter.flat())];
    }
    // Default order is vehicleNumber order, which is index order.
    return Uint32Array.from(result).sort();
  }

  private sortedAll(field: SortField): Uint32Array {
    let sorted = this.sortedBy.get(field);
    if (!sorted) {
      const rank = this.fleet.rank(field);
      sorted = Uint32Array.from(this.ids).sort((a, b) => rank[a]! - rank[b]!);
      this.sortedBy.set(field, sorted);
    }
    return sorted;
  }
}

export class FleetIndex {
  private readonly visible = new Map<string, VisibleFleet>();
  private everyone?: VisibleFleet;
  private readonly ranks = new Map<SortField, Uint32Array>();
  /** Each vehicle's JSON, serialised once: lists are joined from these strings. */
  readonly json: string[];

  constructor(
    readonly vehicles: Vehicle[],
    lessees: Lessee[],
  ) {
    this.json = vehicles.map((vehicle) => JSON.stringify(vehicle));
    const lesseeOfCustomer = new Map<string, string>();
    for (const lessee of lessees) for (const customer of lessee.customerNumbers) lesseeOfCustomer.set(customer, lessee.apiKey);
    const idsByKey = new Map<string, number[]>(lessees.map((lessee) => [lessee.apiKey, []]));
    for (const [id, vehicle] of vehicles.entries()) idsByKey.get(lesseeOfCustomer.get(vehicle.customerNumber)!)!.push(id);
    for (const [apiKey, ids] of idsByKey) this.visible.set(apiKey, new VisibleFleet(this, Uint32Array.from(ids)));
  }

  /** The fleet visible to an API key, or undefined for an unknown key. */
  forApiKey(apiKey: string): VisibleFleet | undefined {
    return this.visible.get(apiKey);
  }

  /** Every vehicle regardless of lessee: only used by the leak faults (sandbox/faults/fleet.ts). */
  forEveryone(): VisibleFleet {
    this.everyone ??= new VisibleFleet(this, Uint32Array.from(this.vehicles.keys()));
    return this.everyone;
  }

  /** rank[id] = position of vehicle id when sorted by field (ties in vehicleNumber order). */
  rank(field: SortField): Uint32Array {
    let rank = this.ranks.get(field);
    if (!rank) {
      const order = Uint32Array.from(this.vehicles.keys());
      const values = this.vehicles.map((vehicle) => vehicle[field]);
      // Code-unit order, as the spec's sort assumption says (not locale order).
      order.sort((a, b) => (values[a]! < values[b]! ? -1 : values[a]! > values[b]! ? 1 : a - b));
      rank = new Uint32Array(order.length);
      for (const [position, id] of order.entries()) rank[id] = position;
      this.ranks.set(field, rank);
    }
    return rank;
  }
}

export type { VisibleFleet };
