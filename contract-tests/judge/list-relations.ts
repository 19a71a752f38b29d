// Relations between two answers of the fleet list (seed 2.1 and 4.5): a sort or a filter chooses vehicles and orders
// them, it never changes one. Each vehicle of one answer must be, field by field, the vehicle of the same number in the
// other; asc and desc by one field must list that field's values in reverse order of each other.
import type { Vehicle } from '../model/fleet-fields.ts';

/** A list's vehicles by number, made once per list (the key's unfiltered list is the reference of every list answer). */
const indexes = new WeakMap<readonly Vehicle[], Map<string, Vehicle>>();
function byNumber(list: readonly Vehicle[]): Map<string, Vehicle> {
  const known = indexes.get(list);
  if (known) return known;
  const index = new Map(list.map((vehicle) => [vehicle.vehicleNumber, vehicle]));
  indexes.set(list, index);
  return index;
}

/** The vehicles of `answer` that differ from the vehicle of the same number in `reference`, field by field, each as
 * "<vehicleNumber>: <field> <before> -> <after>" (at most `limit`). Vehicles `reference` lacks are not compared here:
 * which vehicles a list holds is judged by the membership checks. */
export function changedVehicles(
  reference: readonly Vehicle[],
  answer: readonly Vehicle[],
  fields: readonly (keyof Vehicle)[],
  limit = 3,
): string[] {
  const before = byNumber(reference);
  const changed: string[] = [];
  for (const vehicle of answer) {
    const was = before.get(vehicle.vehicleNumber);
    if (!was) continue;
    const differing = fields.filter((field) => JSON.stringify(vehicle[field]) !== JSON.stringify(was[field]));
    if (differing.length)
      changed.push(
        `${vehicle.vehicleNumber}: ${differing.map((f) => `${f} ${JSON.stringify(was[f])} -> ${JSON.stringify(vehicle[f])}`).join(', ')}`,
      );
    if (changed.length === limit) break;
  }
  return changed;
}

/** Whether the desc answer lists `field`'s values as the asc answer's, reversed (ties may come in any order: only the
 * values are compared, so equal values are interchangeable). */
export function areReversed(asc: readonly Vehicle[], desc: readonly Vehicle[], field: keyof Vehicle): boolean {
  if (asc.length !== desc.length) return false;
  const values = asc.map((vehicle) => JSON.stringify(vehicle[field]));
  return desc.every((vehicle, i) => JSON.stringify(vehicle[field]) === values[values.length - 1 - i]);
}
