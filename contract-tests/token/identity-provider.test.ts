// Contract of POST {auth_url}/oauth2/default/v1/token, client credentials: scope and the subscription key are required.
import { describe, expect, it } from 'vitest';
import { ASSUMPTIONS, observeAssumption } from '../judge/assumptions.ts';
import { reasonIfCannot } from '../send/capabilities.ts';
import { tokenProvider } from '../send/clients.ts';
import { request } from '../send/model.ts';
import { type Change, withForm, withHeaders } from '../send/parts.ts';
import { jsonOf, statusClass } from '../judge/answers.ts';
import { skipIf } from '../support/skips.ts';
import { describeWrong, wrongValues } from '../operators/wrong-credentials.ts';
import { reasonIfUnset, required } from '../send/target.ts';
import { workerRun } from '../support/worker-run.ts';

const run = workerRun();
const { target } = run;

const IDP_TOKEN = 'requestIdentityProviderToken';
const OP = [IDP_TOKEN];
const needs = () => reasonIfUnset(target, 'LP_AUTH_URL', 'LP_CLIENT_ID', 'LP_CLIENT_SECRET', 'LP_SCOPE', 'LP_SUBSCRIPTION_KEY');

/** A client credentials request to the identity provider, with `change` applied. */
const clientCredentials = (change: Change) => request(run, IDP_TOKEN, change, { variant: 'client_credentials' });
const subscriptionKey = (value: string | undefined) => withHeaders({ 'Ocp-Apim-Subscription-Key': value });

describe('identity provider token endpoint, client credentials (POST {auth_url}/oauth2/default/v1/token)', () => {
  it('issues an access token for client credentials with scope and the subscription key', {
    tags: ['RFC6749-5.1-idp-access-token'],
  }, async (ctx) => {
    skipIf(run, ctx, OP, needs());
    // Seed 4.2 promises an access token; its field names, type and lifetime are the specs' guess, which the contract
    // fetch judges on the response itself (IdentityProviderTokenResponse covers them).
    const info = await tokenProvider(run, 'identity-provider').getTokenInfo();
    expect(info.accessToken.length > 0, 'access_token is a non-empty string').toBe(true);
  });

  it('rejects a request without the subscription key with a 4xx', async (ctx) => {
    skipIf(run, ctx, OP, needs());
    const { response } = await clientCredentials(subscriptionKey(undefined));
    expect(statusClass(response.status), `status ${response.status}`).toBe(4);
  });

  it('rejects a request with a wrong subscription key with a 4xx', async (ctx) => {
    skipIf(run, ctx, OP, needs(), reasonIfCannot(target.name, 'verifiesCredentials'));
    const key = required(target, 'LP_SUBSCRIPTION_KEY');
    for (const wrong of wrongValues(key, run.redactor)) {
      const { response } = await clientCredentials(subscriptionKey(wrong));
      expect(statusClass(response.status), `a wrong subscription key (${describeWrong(key, wrong)}) answered ${response.status}`).toBe(4);
    }
  });

  it('rejects a wrong client secret with a 4xx', { tags: ['RFC6749-4.4.2-idp-authenticates-client'] }, async (ctx) => {
    skipIf(run, ctx, OP, needs(), reasonIfCannot(target.name, 'verifiesCredentials'));
    const secret = required(target, 'LP_CLIENT_SECRET');
    let last: Awaited<ReturnType<typeof request>> | undefined;
    for (const wrong of wrongValues(secret, run.redactor)) {
      last = await clientCredentials(withForm({ client_secret: wrong }));
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

  it('rejects client credentials without scope with a 4xx (published documentation 4.2 shows scope as required; RFC 6749 alone would allow a default scope, 3.3)', {
    tags: ['RFC6749-3.3-scope-default-or-fail'],
  }, async (ctx) => {
    skipIf(run, ctx, OP, needs());
    const { response } = await clientCredentials(withForm({ scope: undefined }));
    expect(statusClass(response.status), `status ${response.status}`).toBe(4);
  });
});
