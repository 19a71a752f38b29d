// Contract of POST {base_url}/token: client credentials give a Bearer token whose lifetime is `expired_in` (sic).
import { describe, expect, it } from 'vitest';
import { ASSUMPTIONS, observeAssumption } from '../judge/assumptions.ts';
import { reasonIfCannot } from '../send/capabilities.ts';
import { callOperation, logisticsClient } from '../send/clients.ts';
import { request } from '../send/model.ts';
import { withForm, withHeaders } from '../send/parts.ts';
import { jsonOf, statusClass } from '../judge/answers.ts';
import { skipIf } from '../support/skips.ts';
import { describeWrong, wrongValues } from '../operators/wrong-credentials.ts';
import { reasonIfUnset, required } from '../send/target.ts';
import { workerRun } from '../support/worker-run.ts';

const run = workerRun();
const { target } = run;
const { redactor } = run;

const SERVICE_TOKEN = 'requestServiceToken';
const OP = [SERVICE_TOKEN];
const needs = () => reasonIfUnset(target, 'LP_BASE_URL', 'LP_CLIENT_ID', 'LP_CLIENT_SECRET');

describe('service token endpoint (POST {base_url}/token)', () => {
  it('issues a Bearer token with an integer expired_in of 1..3600 for form-encoded client credentials', {
    tags: ['RFC6749-5.1-service-access-token', 'RFC6749-5.1-service-token-type'],
  }, async (ctx) => {
    skipIf(run, ctx, OP, needs());
    const { data, response } = await callOperation<{ access_token?: string }>(logisticsClient(run).token, SERVICE_TOKEN, {
      body: {
        grant_type: 'client_credentials',
        client_id: required(target, 'LP_CLIENT_ID'),
        client_secret: required(target, 'LP_CLIENT_SECRET'),
      },
    });
    expect(statusClass(response.status), `status ${response.status}`).toBe(2);
    const body = redactor.redactValue((data ?? {}) as Record<string, unknown>);
    const accessToken = data?.access_token;
    expect(typeof accessToken === 'string' && accessToken.length > 0, 'access_token is a non-empty string').toBe(true);
    expect(body.token_type).toBe('Bearer');
    // The quirk: the published shape names the lifetime expired_in; an RFC-style expires_in instead is a failure.
    expect(body, 'lifetime must be named expired_in').toHaveProperty('expired_in');
    expect(Number.isInteger(body.expired_in), `expired_in ${JSON.stringify(body.expired_in)} is an integer`).toBe(true);
    expect(body.expired_in as number).toBeGreaterThanOrEqual(1);
    expect(body.expired_in as number).toBeLessThanOrEqual(3600);
  });

  // The seed's request (4.1) carries no key, so it must succeed; whether a key sent along is accepted is the guess.
  it('answers a token request that also carries the subscription key, and records whether it is treated alike', async (ctx) => {
    skipIf(run, ctx, OP, needs(), reasonIfUnset(target, 'LP_SUBSCRIPTION_KEY'));
    const seen = await request(run, SERVICE_TOKEN, withHeaders({ 'Ocp-Apim-Subscription-Key': required(target, 'LP_SUBSCRIPTION_KEY') }));
    const status = seen.response.status;
    expect([2, 4], `status ${status}`).toContain(statusClass(status));
    observeAssumption(
      run,
      ASSUMPTIONS.serviceTokenNoKey,
      statusClass(status) === 2,
      `a token request with the subscription key as well answered ${status}`,
      seen,
    );
  });

  it('rejects a wrong client secret with a 4xx', { tags: ['RFC6749-4.4.2-service-authenticates-client'] }, async (ctx) => {
    skipIf(run, ctx, OP, needs(), reasonIfCannot(target.name, 'verifiesCredentials'));
    const secret = required(target, 'LP_CLIENT_SECRET');
    let last: Awaited<ReturnType<typeof request>> | undefined;
    for (const wrong of wrongValues(secret, run.redactor)) {
      last = await request(run, SERVICE_TOKEN, withForm({ client_secret: wrong }));
      expect(
        statusClass(last.response.status),
        `a wrong client_secret (${describeWrong(secret, wrong)}) answered ${last.response.status}`,
      ).toBe(4);
    }
    const { response, bodyText } = last!;
    const body = jsonOf(bodyText);
    observeAssumption(
      run,
      ASSUMPTIONS.oauthErrorBody,
      body?.error === 'invalid_client',
      `a wrong secret answered ${response.status} ${body ? `with error=${String(body.error)}` : 'without a JSON body'} (RFC 6749 5.2: invalid_client)`,
      last,
    );
  });

  it('rejects an unsupported grant_type with a 4xx', async (ctx) => {
    skipIf(run, ctx, OP, needs());
    const { response } = await request(run, SERVICE_TOKEN, withForm({ grant_type: 'password' }));
    expect(statusClass(response.status), `status ${response.status}`).toBe(4);
  });

  it('rejects a request without client_secret with a 4xx', { tags: ['RFC6749-4.4.2-service-requires-credentials'] }, async (ctx) => {
    skipIf(run, ctx, OP, reasonIfUnset(target, 'LP_BASE_URL', 'LP_CLIENT_ID'));
    const { response } = await request(run, SERVICE_TOKEN, withForm({ client_secret: undefined }));
    expect(statusClass(response.status), `status ${response.status}`).toBe(4);
  });
});
