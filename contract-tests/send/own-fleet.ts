// The vehicles the configured fleet key sees: its unfiltered list, asked once per run through the one fetch (so its
// answer is judged like any other). The model takes sample filter values and a vehicle to fetch from it; the exchange
// checks take the customers it holds as the key's own, so any other customer's vehicle in any answer is a leak.
import { reasonIfCannot } from './capabilities.ts';
import { reasonIfUnset } from './target.ts';
import { parseJsonLoosely, vehicleListOf } from '../model/vehicle-list.ts';
import { perRun } from './per-run.ts';
import type { Run } from './run.ts';

export type ListedVehicle = Record<string, unknown>;

export interface OwnFleet {
  vehicles: ListedVehicle[];
  /** The list was a bare array with no sign of paging, so it holds every vehicle of the key (the spec's assumption). */
  complete: boolean;
}

/** The key's own fleet on the run's target, asked once (empty where the target has no data, or the fleet API is not
 * configured). */
export const ownFleet = perRun(askOwnFleet);

async function askOwnFleet(run: Run): Promise<OwnFleet> {
  if (reasonIfUnset(run.target, 'LP_FLEET_BASE_URL', 'LP_FLEET_API_KEY') || reasonIfCannot(run.target.name, 'hasDataSemantics'))
    return { vehicles: [], complete: false };
  const { request } = await import('./model.ts');
  const seen = await request(run, 'listVehicles');
  if (!seen.response.ok) return { vehicles: [], complete: false };
  const { vehicles, shape } = vehicleListOf<ListedVehicle>(parseJsonLoosely(seen.bodyText));
  return { vehicles: vehicles ?? [], complete: shape.kind === 'array' };
}

export const ownVehicles = async (run: Run) => (await ownFleet(run)).vehicles;
