// Contract of lifetimes: an expired access token is refused, and an authorization code does not outlive an hour.
// Needs a target whose clock the suite can move forward (the sandbox); elsewhere skipped, since it would mean waiting.
import { describe, expect, it } from 'vitest';
import { buildAuthorizationUrl, parseAuthorizationCallback } from '../../src/index.ts';
import { exchangeCode, needsCodeExchange } from '../send/authorization.ts';
import { reasonIfCannot } from '../send/capabilities.ts';
import { tokenProvider } from '../send/clients.ts';
import { exchange } from '../send/fetch.ts';
import { request } from '../send/model.ts';
import { withHeaders } from '../send/parts.ts';
import { statusClass } from '../judge/answers.ts';
import { skipIf } from '../support/skips.ts';
import { reasonIfUnset, required } from '../send/target.ts';
import { withClockAdvanced } from '../send/target-clock.ts';
import { workerRun } from '../support/worker-run.ts';

const run = workerRun();
const { target } = run;

// The seed gives tokens one hour; RFC 6749 4.1.2 wants codes short-lived (10 minutes at most recommended).
const ONE_HOUR = 3600;
const WRITES_REFUSED = target.writesAllowed
  ? undefined
  : 'writes are not allowed (LP_ALLOW_WRITES=1 and LP_TEST_LOAD_ID): a server that accepted the expired token would record the event';

describe('token and code lifetimes', () => {
  it('refuses a milestone sent with a token whose lifetime has passed', { tags: ['RFC6749-7-not-expired'] }, async (ctx) => {
    skipIf(
      run,
      ctx,
      ['recordLoadMilestoneEvent'],
      reasonIfUnset(target, 'LP_BASE_URL', 'LP_CLIENT_ID', 'LP_CLIENT_SECRET'),
      WRITES_REFUSED,
      reasonIfCannot(target.name, 'advancesClock'),
    );
    const info = await tokenProvider(run, 'service').getTokenInfo();
    const status = await withClockAdvanced(target, Math.max(info.expiresInSeconds, ONE_HOUR) + 60, async () => {
      const { response } = await request(run, 'recordLoadMilestoneEvent', withHeaders({ Authorization: `Bearer ${info.accessToken}` }));
      return response.status;
    });
    expect(statusClass(status), `expired token answered ${status}`).toBe(4);
  });

  it('refuses an authorization code exchanged an hour after it was issued', {
    tags: ['RFC6749-4.1.2-code-expires', 'RFC6749-10.5-short-lived'],
  }, async (ctx) => {
    skipIf(run, ctx, ['requestIdentityProviderToken'], needsCodeExchange(run.target), reasonIfCannot(target.name, 'advancesClock'));
    const request = await buildAuthorizationUrl({
      authUrl: required(target, 'LP_AUTH_URL'),
      clientId: required(target, 'LP_CLIENT_ID'),
      redirectUri: required(target, 'LP_REDIRECT_URI'),
      scope: required(target, 'LP_SCOPE'),
    });
    const { response: redirect } = await exchange(run, request.url, { redirect: 'manual' });
    const location = redirect.headers.get('location');
    skipIf(
      run,
      ctx,
      ['requestIdentityProviderToken'],
      location ? undefined : `the authorize endpoint answered ${redirect.status}, not a redirect: the flow needs a user`,
    );
    const { code } = parseAuthorizationCallback(location!, { state: request.state });
    const status = await withClockAdvanced(target, ONE_HOUR, async () => {
      const { response } = await exchangeCode(run, { code });
      return response.status;
    });
    expect(statusClass(status), `an hour-old code answered ${status}`).toBe(4);
  });
});
