// The vehicle's fields and the fleet list's filters, read from the fleet spec: their one home, for the sandbox's index
// and routes and for the suite's fleet checks. A field added to the Vehicle schema, or a filter to the list, reaches both.
import { type Bundle, loadBundle } from './bundles.ts';
import { operationsOf } from './operations.ts';

export interface FleetFields {
  /** The Vehicle schema's properties in the spec's order: every field of a vehicle, each also a sort attribute. */
  vehicleFields: readonly string[];
  /** Each filter of the list (its array-valued query parameters) and the vehicle field it filters on. */
  filters: ReadonlyArray<readonly [parameter: string, field: string]>;
}

/** The fields and filters of a fleet bundle. A filter matches the field of its name, letter case aside (seed 4.5 spells
 * the parameter customervehicleNumber, the field customerVehicleNumber); throws naming a filter that matches none. */
export function fleetFieldsOf(bundle: Bundle): FleetFields {
  const properties = bundle.components?.schemas?.Vehicle?.properties;
  if (!properties) throw new Error('the fleet spec has no components.schemas.Vehicle with properties');
  const vehicleFields = Object.keys(properties);
  const list = operationsOf(bundle).find(({ path, method }) => path === '/vehicles' && method === 'get');
  if (!list) throw new Error('the fleet spec has no GET /vehicles');
  const parameters: Array<Record<string, any>> = [...(list.item.parameters ?? []), ...(list.op.parameters ?? [])];
  const filters = parameters
    .filter((parameter) => parameter.in === 'query' && parameter.schema?.type === 'array')
    .map((parameter): readonly [string, string] => {
      const name = String(parameter.name);
      const field = vehicleFields.find((candidate) => candidate.toLowerCase() === name.toLowerCase());
      if (!field) throw new Error(`the fleet list's filter ${name} names no field of Vehicle (${vehicleFields.join(', ')})`);
      return [name, field];
    });
  return { vehicleFields, filters };
}

let loaded: FleetFields | undefined;

/** The fields and filters of the bundled fleet spec, read once per process. */
export const fleetFields = (): FleetFields => (loaded ??= fleetFieldsOf(loadBundle('fleet')));
