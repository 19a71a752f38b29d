// Contract of the fleet API key (API-Key header): both operations refuse a request without a key or with a wrong key.
// get-one is probed with a vehicle the key can see (when the target has data), so a server that checks the key only
// on its not-found path is caught; the mock and an empty fleet fall back to a made-up number.
import { beforeAll, describe, expect, it } from 'vitest';
import { capabilityOf, reasonIfCannot } from '../support/capabilities.ts';
import { send, statusClass } from '../support/requests.ts';
import { skipIf } from '../support/skips.ts';
import { reasonIfUnset, target } from '../support/target.ts';
import { describeWrong, wrongValues } from '../support/wrong-credentials.ts';

let probeNumber = 'V-CONTRACT-PROBE';

beforeAll(async () => {
  if (reasonIfUnset(target, 'LP_FLEET_BASE_URL', 'LP_FLEET_API_KEY') || !capabilityOf(target.name).hasDataSemantics) return;
  const { response, bodyText } = await send(target, 'LP_FLEET_BASE_URL', '/vehicles', {
    headers: { 'API-Key': target.env.LP_FLEET_API_KEY! },
  });
  // A broken list is the list checks' business (and the contract fetch has reported it); keep the made-up number.
  let number: unknown;
  try {
    number = response.ok ? (JSON.parse(bodyText) as Array<Record<string, unknown>>)[0]?.vehicleNumber : undefined;
  } catch {
    number = undefined;
  }
  if (typeof number === 'string' && number !== '') probeNumber = number;
});

const cases = () =>
  [
    ['listVehicles', '/vehicles'],
    ['getVehicle', `/vehicles/${encodeURIComponent(probeNumber)}`],
  ] as const;

describe('fleet API key (API-Key header)', () => {
  it.for(['listVehicles', 'getVehicle'] as const)('%s rejects a request without API-Key with a 4xx', async (operationId, ctx) => {
    skipIf(ctx, [operationId], reasonIfUnset(target, 'LP_FLEET_BASE_URL'));
    const path = cases().find(([id]) => id === operationId)![1];
    const { response } = await send(target, 'LP_FLEET_BASE_URL', path);
    expect(statusClass(response.status), `status ${response.status}`).toBe(4);
  });

  it.for(['listVehicles', 'getVehicle'] as const)('%s rejects a wrong API-Key with a 4xx', async (operationId, ctx) => {
    skipIf(
      ctx,
      [operationId],
      reasonIfUnset(target, 'LP_FLEET_BASE_URL', 'LP_FLEET_API_KEY'),
      reasonIfCannot(target.name, 'verifiesCredentials'),
    );
    const path = cases().find(([id]) => id === operationId)![1];
    const key = target.env.LP_FLEET_API_KEY!;
    for (const wrong of wrongValues(key)) {
      const { response } = await send(target, 'LP_FLEET_BASE_URL', path, { headers: { 'API-Key': wrong } });
      expect(statusClass(response.status), `a wrong API-Key (${describeWrong(key, wrong)}) answered ${response.status}`).toBe(4);
    }
  });
});
