// Security of the authorization code grant against near misses: a redirect_uri that is almost the registered one is
// never redirected to (RFC 6749 sections 3.1.2.3 and 4.1.2.1) and never accepted at the code exchange (section
// 4.1.3), and the state comes back exactly as sent (section 4.1.2), whatever printable characters it holds.
import { beforeAll, describe, expect, it } from 'vitest';
import { reasonIfCannot } from '../send/capabilities.ts';
import { statusClass } from '../judge/answers.ts';
import { skipIf } from '../support/skips.ts';
import { required } from '../send/target.ts';
import { forEachConcurrently } from '../send/transport.ts';
import {
  authorize,
  exchangeCode,
  freshCode,
  needsAuthorize,
  needsCodeExchange,
  sameEndpoint,
  unattendedApproval,
} from '../send/authorization.ts';
import { redirectUriNearMisses, trickyStates } from '../operators/near-misses.ts';
import { workerRun } from '../support/worker-run.ts';

const run = workerRun();
const { target } = run;

const AUTHORIZE = ['requestAuthorization'];
const BOTH = ['requestAuthorization', 'requestIdentityProviderToken'];
// The Prism mock answers authorize with its example redirect whatever it is sent.
const noData = () => reasonIfCannot(target.name, 'hasDataSemantics');

let unattended: string | undefined = 'not probed';
beforeAll(async () => {
  unattended = noData() ?? (await unattendedApproval(run));
});

describe('redirect_uri near misses', () => {
  it('authorize never redirects to a near miss of LP_REDIRECT_URI', {
    tags: ['RFC6749-3.1.2-no-fragment', 'RFC6749-3.1.2.3-simple-string-comparison', 'RFC6749-3.1.2.4-no-redirect-invalid-uri'],
  }, async (ctx) => {
    skipIf(run, ctx, AUTHORIZE, needsAuthorize(run.target), noData());
    const identityProvider = new URL(required(target, 'LP_AUTH_URL')).origin;
    const registered = required(target, 'LP_REDIRECT_URI');
    await forEachConcurrently(redirectUriNearMisses(registered), async ({ kind, value }) => {
      const { response, location } = await authorize(run, { redirect_uri: value });
      // Sent back to the client (the near miss's origin or the registered one), or anywhere with a code: that is
      // where a code or an error would leak. A redirect within the identity provider (its login or error page), or
      // to another page of its own elsewhere, keeps the browser away from the client.
      const client = new Set([new URL(registered).origin, URL.canParse(value.trim()) ? new URL(value.trim()).origin : registered]);
      client.delete(identityProvider);
      const redirected = statusClass(response.status) === 3 && location !== undefined;
      const toClient =
        redirected && location.origin !== identityProvider && (client.has(location.origin) || location.searchParams.has('code'));
      expect(toClient, `redirect_uri ${kind}: answered ${response.status} with a redirect back to the client`).toBe(false);
    });
  });

  it('the code exchange refuses a near miss of the redirect_uri the code was issued for', {
    tags: ['RFC6749-10.6-redirect-uri-identical'],
  }, async (ctx) => {
    skipIf(run, ctx, BOTH, needsCodeExchange(run.target), unattended);
    await forEachConcurrently(redirectUriNearMisses(required(target, 'LP_REDIRECT_URI')), async ({ kind, value }) => {
      const { response } = await exchangeCode(run, { code: await freshCode(run), redirect_uri: value });
      expect(statusClass(response.status), `a code exchanged with redirect_uri ${kind} answered ${response.status}, not a 4xx`).toBe(4);
    });
  });
});

describe('state is returned unchanged', () => {
  it('authorize returns each tricky state exactly once and exactly as sent', {
    tags: ['RFC6749-3.1-response-parameters-once', 'RFC6749-4.1.2-state-exact'],
  }, async (ctx) => {
    skipIf(run, ctx, AUTHORIZE, unattended);
    const registered = new URL(required(target, 'LP_REDIRECT_URI'));
    await forEachConcurrently(trickyStates(crypto.randomUUID().slice(0, 8)), async ({ kind, value }) => {
      const { response, location } = await authorize(run, { state: value });
      expect(
        statusClass(response.status) === 3 && location !== undefined && sameEndpoint(location, registered),
        `a state with ${kind}: answered ${response.status}, not a redirect to LP_REDIRECT_URI`,
      ).toBe(true);
      const returned = location!.searchParams.getAll('state');
      expect(returned.length, `a state with ${kind}: the redirect carries ${returned.length} state parameters`).toBe(1);
      expect(returned[0] === value, `a state with ${kind} came back changed`).toBe(true);
      expect(
        location!.searchParams.getAll('code').length,
        `a state with ${kind}: the redirect carries more than one code`,
      ).toBeLessThanOrEqual(1);
    });
  });
});
