// Checks of the OAuth clauses (RFC 6749, RFC 6750, RFC 7636) of the authorization endpoint and of PKCE that no other
// file asserts, one test per clause or small group; each declares the ids of the clauses it checks among its vitest
// tags (judge/oauth-clauses.ts). The token endpoints' are in oauth-token-clauses.test.ts. Failures name the clause,
// never a credential, code or token. An RFC rule that the seed's flows rely on is asserted (a violation when broken);
// where the specs guess the detail in an x-assumption (whether authorize redirects its errors, the error codes of an
// OAuth error body) the answer is recorded against that assumption.
import { beforeAll, describe, expect, it } from 'vitest';
import { ASSUMPTIONS, observeAssumption } from '../judge/assumptions.ts';
import { errorCharacterProblems } from '../judge/oauth-syntax.ts';
import { wrongValues } from '../operators/wrong-credentials.ts';
import { statusClass, jsonOf } from '../judge/answers.ts';
import { exchangeCode, needsAuthorize, needsCodeExchange, redirectParameters } from '../send/authorization.ts';
import { reasonIfCannot } from '../send/capabilities.ts';
import { required } from '../send/target.ts';
import { forEachConcurrently, mapConcurrently } from '../send/transport.ts';
import { skipIf } from '../support/skips.ts';
import {
  AUTHORIZE,
  answered,
  authorizeWith,
  CODE_GRANT,
  noteNotJudged,
  randomToken,
  redirectedBack,
  safeDecode,
  unknownChallenge,
  whyNoApproval,
} from './oauth-requests.ts';
import { workerRun } from '../support/worker-run.ts';

const run = workerRun();
const { target } = run;

let approval: string | undefined = 'not probed';
beforeAll(async () => {
  approval = await whyNoApproval(run);
});
/** Why the checks that exchange a code cannot run. */
const codeExchange = () => needsCodeExchange(run.target) ?? approval;

describe('OAuth clauses of the authorization endpoint (RFC 6749 3.1, 3.1.1, 3.1.2, 4.1.2.1, 10.14)', () => {
  it('RFC 6749 3.1: authorize treats an empty code_challenge and code_challenge_method as omitted', {
    tags: ['RFC6749-3.1-empty-as-omitted'],
  }, async (ctx) => {
    skipIf(run, ctx, CODE_GRANT, codeExchange());
    const answer = await authorizeWith(run, { code_challenge: '', code_challenge_method: '' });
    const code = answer.location?.searchParams.get('code');
    expect(
      redirectedBack(answer) && !answer.location?.searchParams.has('error') && Boolean(code),
      `RFC 6749 3.1: authorize with an empty code_challenge and code_challenge_method answered ${answered(answer)}${answer.location?.searchParams.has('error') ? ` and error=${answer.location.searchParams.get('error')}` : ''}, not the approving redirect with a code (parameters without a value must be treated as omitted)`,
    ).toBe(true);
    expect(answer.location!.searchParams.get('state'), 'RFC 6749 3.1: the state came back unchanged').toBe(answer.state);
    // Omitted means no challenge is bound to the code: it is exchanged without a code_verifier.
    const { response } = await exchangeCode(run, { code: code! });
    expect(
      statusClass(response.status),
      `RFC 6749 3.1: the code issued for an empty code_challenge, exchanged without code_verifier, answered ${response.status}`,
    ).toBe(2);
  });

  it('RFC 6749 3.1: authorize ignores a parameter it does not recognise', {
    tags: ['RFC6749-3.1-ignore-unknown-parameters'],
  }, async (ctx) => {
    skipIf(run, ctx, AUTHORIZE, approval);
    const answer = await authorizeWith(run, { contract_probe: '1' });
    expect(
      redirectedBack(answer) && Boolean(answer.location?.searchParams.get('code')),
      `RFC 6749 3.1: authorize with unknown parameters answered ${answered(answer)}${answer.location?.searchParams.has('error') ? ` and error=${answer.location.searchParams.get('error')}` : ''}, not the approving redirect with a code`,
    ).toBe(true);
    expect(answer.location!.searchParams.getAll('state'), 'RFC 6749 3.1: the state came back once and unchanged').toEqual([answer.state]);
  });

  // The refusal is the RFC's (3.1.1: an error response, never a code); that it is redirected back with `error` rather
  // than shown as a page is the spec's guess (authorizeBehaviour), recorded. Once redirected, error and state are asserted.
  it('RFC 6749 3.1.1, 4.1.2.1: a missing or unsupported response_type is redirected back with an error and the state, never a code', {
    tags: ['RFC6749-3.1.1-response-type-error', 'RFC6749-4.1.2.1-error-required', 'RFC6749-4.1.2.1-error-state'],
  }, async (ctx) => {
    skipIf(run, ctx, AUTHORIZE, approval);
    const state = `contract state &code=x&error=y #%+/<"${randomToken(6)}`;
    const cases = [
      {
        label: 'without response_type',
        overrides: { response_type: undefined, state },
        errors: ['invalid_request', 'unsupported_response_type'],
      },
      {
        label: 'with response_type=token',
        overrides: { response_type: 'token', state },
        errors: ['unsupported_response_type', 'unauthorized_client', 'invalid_request'],
      },
    ];
    await forEachConcurrently(cases, async ({ label, overrides, errors }) => {
      const answer = await authorizeWith(run, overrides);
      // The query, and the fragment: a server answers response_type=token there (RFC 6749 4.2.2.1), errors included.
      const query = answer.location && redirectParameters(answer.location);
      expect(
        query?.has('code') || query?.has('access_token'),
        `RFC 6749 3.1.1: authorize ${label} answered ${answered(answer)} carrying a code or token`,
      ).toBe(false);
      expect([3, 4], `RFC 6749 3.1.1: authorize ${label} answered ${answered(answer)}, not an error response`).toContain(
        statusClass(answer.response.status),
      );
      const back = redirectedBack(answer);
      expect(
        statusClass(answer.response.status) === 3 && !back,
        `RFC 6749 3.1.1: authorize ${label} redirected, but not to LP_REDIRECT_URI`,
      ).toBe(false);
      observeAssumption(run, ASSUMPTIONS.authorizeBehaviour, back, `authorize ${label} answered ${answered(answer)}`, answer.seen);
      if (!back) return;
      const error = query!.getAll('error');
      expect(
        error.length,
        `RFC 6749 4.1.2.1: the error redirect of authorize ${label} carries ${error.length} error parameters, not one`,
      ).toBe(1);
      expect(errors, `RFC 6749 4.1.2.1: the error redirect of authorize ${label} names error=${error[0]}`).toContain(error[0]);
      const description = query!.getAll('error_description');
      const uri = query!.getAll('error_uri');
      expect(
        description.length <= 1 && uri.length <= 1,
        `RFC 6749 4.1.2.1: authorize ${label}: error_description or error_uri appears more than once`,
      ).toBe(true);
      expect(
        errorCharacterProblems({ error: error[0], error_description: description[0], error_uri: uri[0] }),
        `RFC 6749 4.1.2.1: the error redirect of authorize ${label}`,
      ).toEqual([]);
      expect(
        query!.getAll('state'),
        `RFC 6749 4.1.2.1: the error redirect of authorize ${label} returns the state once and exactly as sent`,
      ).toEqual([state]);
    });
  });

  it('RFC 6749 3.1.2: the approving redirect keeps the query of the registered redirect URI', {
    tags: ['RFC6749-3.1.2-query-retained'],
  }, async (ctx) => {
    const registered =
      target.env.LP_REDIRECT_URI && URL.canParse(target.env.LP_REDIRECT_URI) ? new URL(target.env.LP_REDIRECT_URI) : undefined;
    skipIf(
      run,
      ctx,
      AUTHORIZE,
      approval,
      registered && registered.search === ''
        ? 'LP_REDIRECT_URI has no query component: there is nothing the redirect could drop'
        : undefined,
    );
    const answer = await authorizeWith(run);
    expect(redirectedBack(answer), `RFC 6749 3.1.2: authorize answered ${answered(answer)}`).toBe(true);
    for (const name of new Set(registered!.searchParams.keys()))
      expect(
        answer.location!.searchParams.getAll(name),
        `RFC 6749 3.1.2: the query parameter ${name} of LP_REDIRECT_URI is kept in the approving redirect`,
      ).toEqual(expect.arrayContaining(registered!.searchParams.getAll(name)));
    expect(answer.location!.searchParams.get('code'), 'RFC 6749 3.1.2: the code is added beside the kept query').toBeTruthy();
  });

  it('RFC 6749 4.1.2.1: authorize never redirects to the redirect URI for an unknown or missing client_id', {
    tags: ['RFC6749-4.1.2.1-no-redirect-invalid-client'],
  }, async (ctx) => {
    skipIf(run, ctx, AUTHORIZE, needsAuthorize(run.target), reasonIfCannot(target.name, 'verifiesCredentials'));
    const clientId = required(target, 'LP_CLIENT_ID');
    const cases = [
      {
        label: 'an unknown client_id (the configured one with a suffix)',
        overrides: { client_id: wrongValues(clientId, run.redactor)[0] },
      },
      { label: 'no client_id', overrides: { client_id: undefined } },
    ];
    await forEachConcurrently(cases, async ({ label, overrides }) => {
      const answer = await authorizeWith(run, overrides);
      expect(
        redirectedBack(answer),
        `RFC 6749 4.1.2.1: authorize with ${label} answered ${answered(answer)}: the user agent must not be sent to the redirect URI`,
      ).toBe(false);
    });
  });

  it('RFC 6749 10.14: authorize echoes no markup unescaped, in its pages or in its redirects', {
    tags: ['RFC6749-10.14-sanitize'],
  }, async (ctx) => {
    skipIf(run, ctx, AUTHORIZE, needsAuthorize(run.target), reasonIfCannot(target.name, 'hasDataSemantics'));
    const marker = `contract${randomToken(6).replace(/[-_]/g, 'x')}`;
    const markup = `"'><script>${marker}</script><img src=x onerror=${marker}>`;
    const cases = [
      {
        label: 'a redirect_uri with markup (unregistered)',
        overrides: { redirect_uri: `https://attacker.invalid/cb?x=${markup}`, state: markup },
      },
      { label: 'a client_id with markup (unknown)', overrides: { client_id: markup, state: markup } },
      { label: 'a state with markup (all else registered)', overrides: { state: markup } },
    ];
    await forEachConcurrently(cases, async ({ label, overrides }) => {
      const answer = await authorizeWith(run, overrides);
      const raw = [`<script>${marker}`, `<img src=x onerror=${marker}>`];
      const page = answer.seen.bodyText;
      expect(
        raw.some((text) => page.includes(text)),
        `RFC 6749 10.14: authorize with ${label} answered ${answered(answer)} with a page that contains the markup unescaped`,
      ).toBe(false);
      if (answer.header !== null) {
        expect(/[<>"\s]/.test(answer.header), `RFC 6749 10.14: authorize with ${label} answered a Location with unencoded markup`).toBe(
          false,
        );
        if (redirectedBack(answer) && overrides.state !== undefined && answer.location!.searchParams.has('state'))
          expect(
            answer.location!.searchParams.get('state'),
            `RFC 6749 10.14: authorize with ${label}: the state comes back exactly as sent`,
          ).toBe(overrides.state);
      }
    });
  });
});

// PKCE: the seed does not mention it and the spec assumes it accepted and optional (pkceAuthorize, pkceExchange). What
// any conforming server must do is asserted: a server without PKCE ignores the parameters (RFC 6749 3.1 and 3.2), one
// with PKCE implements S256 (RFC 7636 4.2); a server that shows PKCE support (refuses a wrong verifier) must keep 4.6
// and 4.4.1.
describe('OAuth clauses of PKCE (RFC 7636 4.2, 4.4, 4.4.1, 4.6)', () => {
  it('RFC 7636 4.2, 4.4, 4.6: authorize takes an S256 code_challenge, its code does not carry the challenge, and the matching code_verifier gets a token', {
    tags: ['RFC7636-4.2-server-s256', 'RFC7636-4.4-challenge-not-extractable', 'RFC7636-4.6-match-continues'],
  }, async (ctx) => {
    skipIf(run, ctx, CODE_GRANT, codeExchange());
    const answer = await authorizeWith(run, {}, { pkce: true });
    const code = answer.location?.searchParams.get('code');
    expect(
      redirectedBack(answer) && Boolean(code),
      `RFC 7636 4.2: authorize with an S256 code_challenge answered ${answered(answer)}${answer.location?.searchParams.has('error') ? ` and error=${answer.location.searchParams.get('error')}` : ''}, not the approving redirect with a code`,
    ).toBe(true);
    const challenge = answer.request.codeChallenge!;
    const challengeBytes = Buffer.from(challenge, 'base64url');
    const readings = [answer.header!, safeDecode(answer.header!), code!, safeDecode(code!)];
    const decoded = [code!, ...code!.split('.')].map((part) => Buffer.from(part, 'base64url'));
    expect(
      readings.some((text) => text.includes(challenge) || text.toLowerCase().includes(challengeBytes.toString('hex'))) ||
        decoded.some((bytes) => bytes.includes(challengeBytes) || bytes.toString('latin1').includes(challenge)),
      'RFC 7636 4.4: the redirect or its code carries the code_challenge in a form others can extract',
    ).toBe(false);
    const { response } = await exchangeCode(run, { code: code!, code_verifier: answer.request.codeVerifier });
    expect(
      statusClass(response.status),
      `RFC 7636 4.6: the code exchanged with its matching code_verifier answered ${response.status}`,
    ).toBe(2);
  });

  it('RFC 7636 4.6, 4.4.1: a server that refuses a wrong code_verifier refuses a missing one too with invalid_grant, and an unsupported code_challenge_method with invalid_request', {
    tags: ['RFC7636-4.4.1-unsupported-method', 'RFC7636-4.6-mismatch-invalid-grant'],
  }, async (ctx) => {
    skipIf(run, ctx, CODE_GRANT, codeExchange());
    const [first, second] = await mapConcurrently([0, 1], () => authorizeWith(run, {}, { pkce: true }));
    const codes = [first!, second!].map((answer) => answer.location?.searchParams.get('code'));
    expect(codes.every(Boolean), 'RFC 7636 4.2: authorize with an S256 code_challenge redirects with a code').toBe(true);
    const [wrong, none] = await mapConcurrently(
      [
        { code: codes[0]!, code_verifier: randomToken(32) },
        { code: codes[1]!, code_verifier: undefined },
      ],
      (fields) => exchangeCode(run, fields),
    );
    const refused = [wrong!, none!].map((seen) => statusClass(seen.response.status) === 4);
    if (!refused.some(Boolean)) {
      // A server without PKCE ignores code_verifier (RFC 6749 3.2) and conforms: nothing of RFC 7636 binds it.
      noteNotJudged(
        run.ledger,
        'requestIdentityProviderToken',
        `RFC 7636 4.6, 4.4.1: a PKCE-bound code was exchanged with a wrong code_verifier (${wrong!.response.status}) and with none (${none!.response.status}): the target does not support PKCE, so neither clause binds it (authorization-code.test.ts records the spec's guess pkceExchange)`,
      );
      return;
    }
    for (const [label, seen] of [
      ['a wrong code_verifier', wrong!],
      ['no code_verifier', none!],
    ] as const) {
      expect(
        seen.response.status,
        `RFC 7636 4.6: a PKCE-bound code exchanged with ${label} answered ${seen.response.status}, not 400 (invalid_grant)`,
      ).toBe(400);
      const body = jsonOf(seen.bodyText);
      expect(body?.access_token, `RFC 7636 4.6: the refusal of ${label} carries no access token`).toBeUndefined();
      observeAssumption(
        run,
        ASSUMPTIONS.oauthErrorBody,
        body?.error === 'invalid_grant',
        `a PKCE-bound code exchanged with ${label} answered error=${String(body?.error)} (RFC 7636 4.6: invalid_grant)`,
        seen,
      );
    }
    const state = `contract-${randomToken(8)}`;
    const unsupported = await authorizeWith(run, { code_challenge: unknownChallenge(), code_challenge_method: 'S512', state });
    const query = unsupported.location?.searchParams;
    expect(
      query?.has('code'),
      `RFC 7636 4.4.1: authorize with code_challenge_method=S512 answered ${answered(unsupported)} with a code`,
    ).toBe(false);
    const back = redirectedBack(unsupported);
    observeAssumption(
      run,
      ASSUMPTIONS.authorizeBehaviour,
      back,
      `authorize with code_challenge_method=S512 answered ${answered(unsupported)}`,
      unsupported.seen,
    );
    if (!back) return;
    expect(
      query!.getAll('error'),
      'RFC 7636 4.4.1: an unsupported code_challenge_method is redirected back with error=invalid_request',
    ).toEqual(['invalid_request']);
    expect(
      errorCharacterProblems({ error: query!.get('error'), error_description: query!.get('error_description') ?? undefined }),
      'RFC 6749 4.1.2.1: the error redirect of an unsupported code_challenge_method',
    ).toEqual([]);
    expect(query!.getAll('state'), 'RFC 6749 4.1.2.1: the error redirect returns the state once and exactly as sent').toEqual([state]);
  });
});
