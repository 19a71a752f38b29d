// Contract of the fleet API key (API-Key header): both operations refuse a request without a key or with a wrong key.
import { describe, expect, it } from 'vitest';
import { lacking } from '../support/capabilities.ts';
import { send, statusClass } from '../support/requests.ts';
import { skipUnless } from '../support/skips.ts';
import { missing, target } from '../support/target.ts';

const CASES = [
  ['listVehicles', '/vehicles'],
  ['getVehicle', '/vehicles/V-CONTRACT-PROBE'],
] as const;

describe('fleet API key (API-Key header)', () => {
  it.for(CASES)('%s rejects a request without API-Key with a 4xx', async ([operationId, path], ctx) => {
    skipUnless(ctx, [operationId], missing(target, 'LP_FLEET_BASE_URL'));
    const { response } = await send(target, 'LP_FLEET_BASE_URL', path);
    expect(statusClass(response.status), `status ${response.status}`).toBe(4);
  });

  it.for(CASES)('%s rejects a wrong API-Key with a 4xx', async ([operationId, path], ctx) => {
    skipUnless(ctx, [operationId], missing(target, 'LP_FLEET_BASE_URL', 'LP_FLEET_API_KEY'), lacking(target.name, 'verifiesCredentials'));
    const { response } = await send(target, 'LP_FLEET_BASE_URL', path, { headers: { 'API-Key': `${target.env.LP_FLEET_API_KEY}-wrong` } });
    expect(statusClass(response.status), `status ${response.status}`).toBe(4);
  });
});
