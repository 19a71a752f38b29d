// Security: every credential comparison is exact. The client secret (both token endpoints), the subscription key,
// the fleet API-Key and the bearer token are each sent in near-miss forms (case changed, prefixed, suffixed,
// percent-encoded, padded with whitespace, cut at a NUL byte); a target that answers any of them with anything but
// a 4xx accepts a credential it never issued. Messages name the variant's kind, never its value.
import { beforeAll, describe, expect, it } from 'vitest';
import { reasonIfCannot } from '../support/capabilities.ts';
import { tokenProvider } from '../support/clients.ts';
import { FORM, JSON_TYPE, form, send, statusClass } from '../support/requests.ts';
import { skipIf } from '../support/skips.ts';
import { reasonIfUnset, required, target } from '../support/target.ts';
import { forEachConcurrently } from '../support/transport.ts';
import { parseJsonLoosely, vehicleListOf } from '../support/vehicle-list.ts';
import { nearMisses } from './near-misses.ts';

const IDP_TOKEN = '/oauth2/default/v1/token';
const cannotVerify = () => reasonIfCannot(target.name, 'verifiesCredentials');

/** Fails naming the variant when the answer is not a 4xx. */
function expectRefused(kind: string, what: string, status: number): void {
  expect(statusClass(status), `${what} ${kind} answered ${status}, not a 4xx: the target accepted a near miss`).toBe(4);
}

describe('near-miss client secrets are refused', () => {
  it('the service token endpoint (POST {base_url}/token) refuses each near miss of LP_CLIENT_SECRET', async (ctx) => {
    skipIf(ctx, ['requestServiceToken'], reasonIfUnset(target, 'LP_BASE_URL', 'LP_CLIENT_ID', 'LP_CLIENT_SECRET'), cannotVerify());
    await forEachConcurrently(nearMisses(required(target, 'LP_CLIENT_SECRET'), 'form', { secret: true }), async ({ kind, value }) => {
      const { response } = await send(target, 'LP_BASE_URL', '/token', {
        method: 'POST',
        headers: FORM,
        body: form({ grant_type: 'client_credentials', client_id: target.env.LP_CLIENT_ID, client_secret: value }),
      });
      expectRefused(kind, 'client_secret', response.status);
    });
  });

  it('the identity provider token endpoint refuses each near miss of LP_CLIENT_SECRET', async (ctx) => {
    skipIf(
      ctx,
      ['requestIdentityProviderToken'],
      reasonIfUnset(target, 'LP_AUTH_URL', 'LP_CLIENT_ID', 'LP_CLIENT_SECRET', 'LP_SCOPE', 'LP_SUBSCRIPTION_KEY'),
      cannotVerify(),
    );
    await forEachConcurrently(nearMisses(required(target, 'LP_CLIENT_SECRET'), 'form', { secret: true }), async ({ kind, value }) => {
      const { response } = await send(target, 'LP_AUTH_URL', IDP_TOKEN, {
        method: 'POST',
        headers: { ...FORM, 'Ocp-Apim-Subscription-Key': required(target, 'LP_SUBSCRIPTION_KEY') },
        body: form({
          grant_type: 'client_credentials',
          client_id: target.env.LP_CLIENT_ID,
          client_secret: value,
          scope: target.env.LP_SCOPE,
        }),
      });
      expectRefused(kind, 'client_secret', response.status);
    });
  });
});

describe('near-miss subscription keys are refused', () => {
  it('the identity provider token endpoint refuses each near miss of LP_SUBSCRIPTION_KEY', async (ctx) => {
    skipIf(
      ctx,
      ['requestIdentityProviderToken'],
      reasonIfUnset(target, 'LP_AUTH_URL', 'LP_CLIENT_ID', 'LP_CLIENT_SECRET', 'LP_SCOPE', 'LP_SUBSCRIPTION_KEY'),
      cannotVerify(),
    );
    // Everything else in the request is right, so only the key can be the reason for a refusal.
    const body = form({
      grant_type: 'client_credentials',
      client_id: target.env.LP_CLIENT_ID,
      client_secret: target.env.LP_CLIENT_SECRET,
      scope: target.env.LP_SCOPE,
    });
    await forEachConcurrently(nearMisses(required(target, 'LP_SUBSCRIPTION_KEY'), 'header', { secret: true }), async ({ kind, value }) => {
      const { response } = await send(target, 'LP_AUTH_URL', IDP_TOKEN, {
        method: 'POST',
        headers: { ...FORM, 'Ocp-Apim-Subscription-Key': value },
        body,
      });
      expectRefused(kind, 'Ocp-Apim-Subscription-Key', response.status);
    });
  });
});

describe('near-miss fleet keys are refused', () => {
  let probeNumber = 'V-CONTRACT-PROBE';
  beforeAll(async () => {
    // Probe get-one with a vehicle the key can see, so a server that checks the key only on its not-found path shows.
    if (reasonIfUnset(target, 'LP_FLEET_BASE_URL', 'LP_FLEET_API_KEY') || cannotVerify()) return;
    const { response, bodyText } = await send(target, 'LP_FLEET_BASE_URL', '/vehicles', {
      headers: { 'API-Key': required(target, 'LP_FLEET_API_KEY') },
    });
    // Whatever shape the list came in; a broken one is the list checks' business (the made-up number stays).
    const listed = response.ok ? vehicleListOf<{ vehicleNumber?: unknown }>(parseJsonLoosely(bodyText)).vehicles : undefined;
    const first = listed?.[0]?.vehicleNumber;
    if (typeof first === 'string' && first !== '') probeNumber = first;
  });

  it.for([
    ['listVehicles', (): string => '/vehicles'],
    ['getVehicle', (): string => `/vehicles/${encodeURIComponent(probeNumber)}`],
  ] as const)('%s refuses each near miss of LP_FLEET_API_KEY', async ([operationId, path], ctx) => {
    skipIf(ctx, [operationId], reasonIfUnset(target, 'LP_FLEET_BASE_URL', 'LP_FLEET_API_KEY'), cannotVerify());
    await forEachConcurrently(nearMisses(required(target, 'LP_FLEET_API_KEY'), 'header', { secret: true }), async ({ kind, value }) => {
      const { response } = await send(target, 'LP_FLEET_BASE_URL', path(), { headers: { 'API-Key': value } });
      expectRefused(kind, 'API-Key', response.status);
    });
  });
});

describe('near-miss bearer tokens are refused', () => {
  it('recordLoadMilestoneEvent refuses each near miss of an issued access token', async (ctx) => {
    // The event is valid, so a server that accepted a near miss would record it: only for the test load, and only
    // when writes are allowed.
    const gate = target.writesAllowed
      ? undefined
      : 'writes are not allowed (LP_ALLOW_WRITES=1 and LP_TEST_LOAD_ID): a server that accepted a near-miss token would record the event';
    skipIf(
      ctx,
      ['recordLoadMilestoneEvent'],
      reasonIfUnset(target, 'LP_BASE_URL', 'LP_CLIENT_ID', 'LP_CLIENT_SECRET'),
      cannotVerify(),
      gate,
    );
    const token = await tokenProvider(target, 'service').getToken();
    const event = JSON.stringify({
      load_id: target.env.LP_TEST_LOAD_ID,
      milestone_type: 'ARRIVED_AT_PICKUP',
      event_time: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    });
    await forEachConcurrently(nearMisses(token, 'header', { secret: true }), async ({ kind, value }) => {
      const { response } = await send(target, 'LP_BASE_URL', '/v1/load-milestone-events', {
        method: 'POST',
        headers: { ...JSON_TYPE, authorization: `Bearer ${value}` },
        body: event,
      });
      expectRefused(kind, 'the bearer token', response.status);
    });
  });
});
