// A strict CommonJS consumer (`.cts`: always CommonJS). pack:check compiles it with the classic "node10" resolution
// (subpath types through typesVersions) and with the tsconfig `tsc --init` writes (nodenext, verbatimModuleSyntax, which
// allows only `import x = require(...)` for a value in CommonJS), and runs it: Node 20.19+ loads the ESM package with require().
import lp = require('@logistics-partner/api');
import type { paths as CarriersPaths } from '@logistics-partner/api/carriers';
import type { components as FleetComponents } from '@logistics-partner/api/fleet';
import type { paths as TokenPaths } from '@logistics-partner/api/token';

type Vehicle = FleetComponents['schemas']['Vehicle'];
const pathsSeen: Array<keyof TokenPaths | keyof CarriersPaths> = ['/token', '/v1/load-milestone-events'];

async function main(): Promise<void> {
  if (typeof require !== 'function' || typeof module !== 'object') throw new Error('expected to run as CommonJS');
  // Straight from the environment: an unset variable fails at once, naming the option.
  const fleet = lp.createFleetClient({ baseUrl: process.env.LP_FLEET_BASE_URL, fleetApiKey: process.env.LP_FLEET_API_KEY });
  const { data: vehicles } = await fleet.GET('/vehicles');
  const list: Vehicle[] = vehicles;
  if (list.length === 0 || typeof list[0]?.vin !== 'string') throw new Error('expected a list of vehicles');
  console.log(`commonjs consumer ok: ${list.length} vehicles; ${pathsSeen.length} paths, ApiError is ${typeof lp.ApiError}`);
}
main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
