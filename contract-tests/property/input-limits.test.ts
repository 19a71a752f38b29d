// The specs' size limits (seed 8: size limits are not shown): each request carries one value one character over the
// spec's limit, everything else valid, and records whether the server refused it as the x-assumption says. Each
// probe picks a field where a server without that limit answers differently (a wrong secret is 401 invalid_client,
// an unknown code invalid_grant, an unknown filter value an empty list), so that only the limit gives the assumed
// refusal. A 5xx stays a violation; any other answer is a confirmed or contradicted assumption, never a failure of
// the default run. The oversize inputs of every kind are sent by malformed-inputs.test.ts; this file reads the answers.
import { describe, expect, it } from 'vitest';
import { ASSUMPTIONS, observeAssumption } from '../judge/assumptions.ts';
import type { Exchange } from '../send/fetch.ts';
import { fieldLimit, oneOver, parameterCountLimit, parameterLimit } from '../operators/input-limits.ts';
import { request } from '../send/model.ts';
import { withForm, withHeaders, withJson, withPath, withQuery } from '../send/parts.ts';
import { jsonOf, statusClass } from '../send/answers.ts';
import { skipIf } from '../support/skips.ts';
import { reasonIfUnset, required, target } from '../send/target.ts';
import { authorize, needsAuthorize, sameEndpoint } from '../send/authorization.ts';

/** The answer in a few words, for the report's evidence (no body: it could echo the over-long value). */
function answered({ response, bodyText }: Exchange): string {
  const error = jsonOf(bodyText)?.error;
  return `${response.status}${typeof error === 'string' ? ` ${error}` : ''}`;
}

/** The token endpoints' refusal the assumptions name: 400 with the RFC 6749 error `invalid_request`. */
const invalidRequest = ({ response, bodyText }: Exchange) => response.status === 400 && jsonOf(bodyText)?.error === 'invalid_request';

const notFiveHundred = (seen: Exchange, what: string) =>
  expect(statusClass(seen.response.status), `${what} answered ${seen.response.status}`).not.toBe(5);

// Sent as the client sends it: only when one is configured (an empty key would be a wrong one).
const subscriptionKey = () => ({ 'Ocp-Apim-Subscription-Key': target.env.LP_SUBSCRIPTION_KEY });

describe('size limits of the specs (x-assumptions of seed 8)', () => {
  it('POST {base_url}/token: a client_secret one over its limit, the client_id right', async (ctx) => {
    skipIf(ctx, ['requestServiceToken'], reasonIfUnset(target, 'LP_BASE_URL', 'LP_CLIENT_ID'));
    const max = fieldLimit('token', '/components/schemas/ServiceTokenRequest', 'client_secret');
    const what = `client_secret of ${max + 1} characters (limit ${max})`;
    const seen = await request('requestServiceToken', withForm({ client_secret: oneOver(max) }));
    notFiveHundred(seen, what);
    observeAssumption(ASSUMPTIONS.serviceTokenLimits, invalidRequest(seen), `${what} answered ${answered(seen)}`, seen);
  });

  it('POST {auth_url}/oauth2/default/v1/token, client_credentials: a client_secret one over its limit', async (ctx) => {
    skipIf(ctx, ['requestIdentityProviderToken'], reasonIfUnset(target, 'LP_AUTH_URL', 'LP_CLIENT_ID', 'LP_SUBSCRIPTION_KEY'));
    const max = fieldLimit('token', '/components/schemas/ClientCredentialsGrantRequest', 'client_secret');
    const what = `client_secret of ${max + 1} characters (limit ${max})`;
    const seen = await request(
      'requestIdentityProviderToken',
      withForm({ client_secret: oneOver(max), scope: target.env.LP_SCOPE ?? 'contract' }),
      {
        variant: 'client_credentials',
      },
    );
    notFiveHundred(seen, what);
    observeAssumption(ASSUMPTIONS.idpClientCredentialsLimits, invalidRequest(seen), `${what} answered ${answered(seen)}`, seen);
  });

  it('POST {auth_url}/oauth2/default/v1/token, authorization_code: a code one over its limit, the client right', async (ctx) => {
    skipIf(
      ctx,
      ['requestIdentityProviderToken'],
      reasonIfUnset(target, 'LP_AUTH_URL', 'LP_CLIENT_ID', 'LP_CLIENT_SECRET', 'LP_SUBSCRIPTION_KEY'),
    );
    const max = fieldLimit('token', '/components/schemas/AuthorizationCodeGrantRequest', 'code');
    const what = `code of ${max + 1} characters (limit ${max})`;
    // A code the target never issued: a server without the limit answers invalid_grant, and nothing is redeemed.
    const seen = await request('requestIdentityProviderToken', (parts) => parts, {
      variant: 'authorization_code',
      values: {
        code: oneOver(max, 'contract-never-issued-'),
        redirect_uri: target.env.LP_REDIRECT_URI ?? 'http://127.0.0.1:8765/callback',
      },
    });
    notFiveHundred(seen, what);
    observeAssumption(ASSUMPTIONS.idpCodeLimits, invalidRequest(seen), `${what} answered ${answered(seen)}`, seen);
  });

  it('GET {auth_url}/oauth2/default/v1/authorize: a state one over its limit, the rest of the request valid', async (ctx) => {
    skipIf(ctx, ['requestAuthorization'], needsAuthorize());
    const max = parameterLimit('requestAuthorization', 'state');
    const what = `state of ${max + 1} characters (limit ${max})`;
    const { response, location, seen } = await authorize({ state: oneOver(max, 'contract-', 's') });
    expect(statusClass(response.status), `${what} answered ${response.status}`).not.toBe(5);
    // An invalid_request error: redirected with it once the client and redirect URI are known (RFC 6749 section
    // 4.1.2.1), or the refusal page; a login page or a code means the limit is not there.
    const redirected =
      statusClass(response.status) === 3 && location !== undefined && sameEndpoint(location, new URL(required(target, 'LP_REDIRECT_URI')));
    const error = redirected ? location.searchParams.get('error') : null;
    const holds = error === 'invalid_request' || response.status === 400;
    const outcome = redirected
      ? `a redirect with ${error ? `error=${error}` : location.searchParams.has('code') ? 'a code' : 'neither code nor error'}`
      : `${response.status}`;
    observeAssumption(ASSUMPTIONS.authorizeLimits, holds, `${what} answered ${outcome}`, seen);
  });

  it('POST {base_url}/v1/load-milestone-events: a milestone_type one over its limit, for the test load', async (ctx) => {
    // A server without the limit records the event: only for the test load, and only when writes are allowed.
    const gate = target.writesAllowed
      ? undefined
      : 'writes are not allowed (LP_ALLOW_WRITES=1 and LP_TEST_LOAD_ID): a server without the limit would record the event';
    skipIf(ctx, ['recordLoadMilestoneEvent'], reasonIfUnset(target, 'LP_BASE_URL', 'LP_CLIENT_ID', 'LP_CLIENT_SECRET'), gate);
    const max = fieldLimit('carriers', '/components/schemas/LoadMilestoneEvent', 'milestone_type');
    const what = `milestone_type of ${max + 1} characters (limit ${max})`;
    const seen = await request('recordLoadMilestoneEvent', (parts) =>
      withHeaders(subscriptionKey())(withJson({ milestone_type: oneOver(max, 'ARRIVED_AT_PICKUP_', 'X') })(parts)),
    );
    notFiveHundred(seen, what);
    observeAssumption(ASSUMPTIONS.milestoneLimits, seen.response.status === 400, `${what} answered ${seen.response.status}`, seen);
  });

  it('GET {fleet_base_url}/vehicles: a filter value one over its limit, and one value too many', async (ctx) => {
    skipIf(ctx, ['listVehicles'], reasonIfUnset(target, 'LP_FLEET_BASE_URL', 'LP_FLEET_API_KEY'));
    const max = parameterLimit('listVehicles', 'vin');
    const long = `vin of ${max + 1} characters (limit ${max})`;
    // No vehicle has this VIN: a server without the limit answers an empty list.
    const seenLong = await request('listVehicles', withQuery({ vin: oneOver(max, 'CONTRACT-', 'V') }));
    notFiveHundred(seenLong, long);
    observeAssumption(ASSUMPTIONS.filterLimits, seenLong.response.status === 400, `${long} answered ${seenLong.response.status}`, seenLong);

    const count = parameterCountLimit('listVehicles', 'vin');
    const many = `${count + 1} vin values (limit ${count})`;
    const seenMany = await request('listVehicles', withQuery({ vin: Array.from({ length: count + 1 }, (_, i) => `CONTRACT-${i}`) }));
    notFiveHundred(seenMany, many);
    observeAssumption(ASSUMPTIONS.filterLimits, seenMany.response.status === 400, `${many} answered ${seenMany.response.status}`, seenMany);
  });

  it('GET {fleet_base_url}/vehicles/{vehicleNumber}: a vehicle number one over its limit', async (ctx) => {
    skipIf(ctx, ['getVehicle'], reasonIfUnset(target, 'LP_FLEET_BASE_URL', 'LP_FLEET_API_KEY'));
    const max = parameterLimit('getVehicle', 'vehicleNumber');
    const what = `vehicleNumber of ${max + 1} characters (limit ${max})`;
    // No vehicle has this number: a server without the limit answers as for an unknown vehicle.
    const seen = await request('getVehicle', withPath({ vehicleNumber: oneOver(max, 'V-CONTRACT-', '9') }));
    notFiveHundred(seen, what);
    observeAssumption(ASSUMPTIONS.vehicleNumberLimit, seen.response.status === 400, `${what} answered ${seen.response.status}`, seen);
  });
});
