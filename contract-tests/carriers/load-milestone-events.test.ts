// Contract of POST {base_url}/v1/load-milestone-events: a bearer token is required, bad input is a 4xx (never a 5xx).
// Events, valid or not, are posted only with LP_ALLOW_WRITES=1 and LP_TEST_LOAD_ID, and only for that load: a server that
// broke a clause would record an invalid one; without them every check here skips and says so.
import { describe, expect, it } from 'vitest';
import { ASSUMPTIONS, observeAssumption } from '../judge/assumptions.ts';
import { describeWrong, wrongValues } from '../operators/wrong-credentials.ts';
import { reasonIfCannot } from '../send/capabilities.ts';
import { callOperation, logisticsClient } from '../send/clients.ts';
import { credentialValue, request, validMilestone } from '../send/model.ts';
import { type Change, chain, withHeaders, withJson, withRaw } from '../send/parts.ts';
import { statusClass } from '../judge/answers.ts';
import { reasonIfUnset } from '../send/target.ts';
import { skipIf } from '../support/skips.ts';
import { workerRun } from '../support/worker-run.ts';

const run = workerRun();
const { target } = run;

const OP = ['recordLoadMilestoneEvent'];
const MILESTONE = 'recordLoadMilestoneEvent';
const WRITES_REFUSED = target.writesAllowed
  ? undefined
  : 'writes are not allowed (set LP_ALLOW_WRITES=1 and LP_TEST_LOAD_ID): a server that broke this clause would record the event';
const tokenSettingsUnset = () => reasonIfUnset(target, 'LP_BASE_URL', 'LP_CLIENT_ID', 'LP_CLIENT_SECRET');

// Seed 5.2: gateway-protected APIs also take the subscription key, so requests send it as the client does; only the
// check of the bearer token alone leaves it out.
const withKey: Change = withHeaders({ 'Ocp-Apim-Subscription-Key': target.env.LP_SUBSCRIPTION_KEY });
const bearer = (value: string): Change => withHeaders({ Authorization: `Bearer ${value}` });
/** A milestone with the subscription key as the client sends it, and `change` applied. Invalid events name the test
 * load when there is one, so that even a broken server records nothing elsewhere. */
const milestone = (change: Change = (p) => p) =>
  request(run, MILESTONE, chain(withKey, withJson({ load_id: target.env.LP_TEST_LOAD_ID ?? 'LD-CONTRACT-TEST-REJECTED' }), change));

describe('load milestone events (POST {base_url}/v1/load-milestone-events)', () => {
  // Seed 4.4: the success response is a confirmation message. Its status and shape (200, a JSON object with a
  // `message`) are the spec's guess, judged on the response by the contract fetch.
  it('records a valid event sent with a fresh token and confirms it', { tags: ['RFC6750-2.1-header-supported'] }, async (ctx) => {
    skipIf(run, ctx, OP, tokenSettingsUnset(), WRITES_REFUSED);
    // Read as text: whether the message comes as JSON is the guess, not the seed.
    const { data, response } = await callOperation(logisticsClient(run).carriers, MILESTONE, {
      body: await validMilestone(run),
      parseAs: 'text',
    });
    expect(statusClass(response.status), `status ${response.status}`).toBe(2);
    expect(String(data ?? '').trim().length > 0, 'a confirmation message').toBe(true);
  });

  it('records whether a milestone_type the examples do not list is accepted', async (ctx) => {
    skipIf(run, ctx, OP, tokenSettingsUnset(), WRITES_REFUSED);
    const seen = await milestone(withJson({ milestone_type: 'CONTRACT_CHECK_UNLISTED_TYPE' }));
    const status = seen.response.status;
    expect([2, 4], `status ${status}`).toContain(statusClass(status));
    observeAssumption(
      run,
      ASSUMPTIONS.milestoneType,
      statusClass(status) === 2,
      `milestone_type CONTRACT_CHECK_UNLISTED_TYPE answered ${status}`,
      seen,
    );
  });

  // Seed 4.4 shows only the bearer header, 5.2 says gateway APIs also take the subscription key: whether the key is
  // required is an assumption (not required). A 4xx here contradicts the assumption in the report; it does not fail
  // the run, since a server that requires the key still keeps the seed. Anything but a 2xx or 4xx fails.
  it('answers the bearer token alone with a 2xx or a 4xx, and records whether the subscription key is required', async (ctx) => {
    skipIf(run, ctx, OP, tokenSettingsUnset(), WRITES_REFUSED);
    const seen = await request(run, MILESTONE, withHeaders({ 'Ocp-Apim-Subscription-Key': undefined }));
    const { response } = seen;
    expect([2, 4], `status ${response.status}`).toContain(statusClass(response.status));
    observeAssumption(
      run,
      ASSUMPTIONS.milestoneBearerAlone,
      statusClass(response.status) === 2,
      `the bearer token alone answered ${response.status}`,
      seen,
    );
  });

  it('rejects an event without a token with a 4xx', async (ctx) => {
    skipIf(run, ctx, OP, reasonIfUnset(target, 'LP_BASE_URL'), WRITES_REFUSED);
    const { response } = await milestone(withHeaders({ Authorization: undefined }));
    expect(statusClass(response.status), `status ${response.status}`).toBe(4);
  });

  it('rejects an event with a garbage bearer token with a 4xx', { tags: ['RFC6749-7-validate-token'] }, async (ctx) => {
    skipIf(run, ctx, OP, reasonIfUnset(target, 'LP_BASE_URL'), WRITES_REFUSED, reasonIfCannot(target.name, 'verifiesCredentials'));
    const { response } = await milestone(bearer(`contract-garbage-${crypto.randomUUID()}`));
    expect(statusClass(response.status), `status ${response.status}`).toBe(4);
  });

  it('rejects an event with an issued token cut short or extended with a 4xx', async (ctx) => {
    skipIf(run, ctx, OP, tokenSettingsUnset(), WRITES_REFUSED, reasonIfCannot(target.name, 'verifiesCredentials'));
    const token = await credentialValue(run, 'bearer');
    for (const wrong of wrongValues(token, run.redactor)) {
      const { response } = await milestone(bearer(wrong));
      expect(statusClass(response.status), `a wrong token (${describeWrong(token, wrong)}) answered ${response.status}`).toBe(4);
    }
  });

  it('answers a very long milestone_type with a 2xx or a 4xx, never a 5xx', async (ctx) => {
    // The seed gives no size limit: the target may record the event or refuse it, but it must not fail on it.
    skipIf(run, ctx, OP, tokenSettingsUnset(), WRITES_REFUSED);
    const { response } = await milestone(withJson({ milestone_type: `CONTRACT_LONG_${'X'.repeat(5000)}` }));
    expect([2, 4], `status ${response.status}`).toContain(statusClass(response.status));
  });

  it('rejects malformed JSON with a 4xx, never a 5xx', async (ctx) => {
    skipIf(run, ctx, OP, tokenSettingsUnset(), WRITES_REFUSED);
    const loadId = target.env.LP_TEST_LOAD_ID ?? 'LD-CONTRACT-TEST-REJECTED';
    const { response } = await milestone(withRaw({ body: `{"load_id": "${loadId}", "milestone_type": ` }));
    expect(statusClass(response.status), `status ${response.status}`).toBe(4);
  });

  it.for([
    ['a non-ISO event_time', '22/11/2026 14:30'],
    ['an event_time without a time zone', '2026-11-22T14:30:00'],
    ['an event_time with a non-UTC offset', '2026-11-22T14:30:00+02:00'],
    ['a date without a time', '2026-11-22'],
  ] as const)('rejects %s with a 4xx', async ([, eventTime], ctx) => {
    skipIf(run, ctx, OP, tokenSettingsUnset(), WRITES_REFUSED);
    const { response } = await milestone(withJson({ event_time: eventTime }));
    expect(statusClass(response.status), `status ${response.status}`).toBe(4);
  });

  // The seed gives the format (an ISO 8601 timestamp in UTC) but no status for invalid input; refusing an impossible
  // date rather than rolling it over is the spec's guess, recorded from the answer.
  it('answers an impossible calendar date with a 2xx or a 4xx, and records whether it was refused', async (ctx) => {
    skipIf(run, ctx, OP, tokenSettingsUnset(), WRITES_REFUSED);
    const seen = await milestone(withJson({ event_time: '2026-02-30T14:30:00Z' }));
    const status = seen.response.status;
    expect([2, 4], `status ${status}`).toContain(statusClass(status));
    observeAssumption(
      run,
      ASSUMPTIONS.impossibleDate,
      statusClass(status) === 4,
      `event_time 2026-02-30T14:30:00Z answered ${status}`,
      seen,
    );
  });

  // Which fields are required is not shown (seed 4.4): a server may accept an event without one; only 5xx fail.
  it.for(['load_id', 'milestone_type', 'event_time'])(
    'answers an event without %s with a 2xx or a 4xx, and records whether it was refused',
    async (field, ctx) => {
      skipIf(run, ctx, OP, tokenSettingsUnset(), WRITES_REFUSED);
      const seen = await milestone(withJson({ [field]: undefined }));
      const status = seen.response.status;
      expect([2, 4], `status ${status}`).toContain(statusClass(status));
      observeAssumption(
        run,
        ASSUMPTIONS.milestoneRequired,
        statusClass(status) === 4,
        `an event without ${field} answered ${status}`,
        seen,
      );
    },
  );
});
