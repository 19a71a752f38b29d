// Authorization code grant: auto-approved redirect with code and state, only to the
// registered URI; codes single-use, expiring, bound to redirect URI and PKCE challenge.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, aMilestone, authorizationCode, authorize, defaults, idpToken, recordMilestone } from './api-calls.ts';
import { startInProcess, type InProcessSandbox } from './sandbox-process.ts';

let sandbox: InProcessSandbox;
beforeAll(async () => {
  sandbox = await startInProcess();
});
afterAll(() => sandbox?.close());

const exchange = (code: string, extra: Record<string, string> = {}) =>
  idpToken(sandbox.origin, { grant_type: 'authorization_code', code, redirect_uri: defaults.LP_REDIRECT_URI, ...extra });

describe('GET {auth_url}/oauth2/default/v1/authorize', () => {
  it('redirects to the registered redirect URI with a code and the unchanged state', async () => {
    const state = 'st&te with spaces/=?';
    const response = await authorize(sandbox.origin, { state });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(defaults.LP_REDIRECT_URI);
    expect(location.searchParams.get('state')).toBe(state);
    expect(location.searchParams.get('code')).toMatch(/^\S{16,}$/);
  });

  it('omits state when the caller sent none', async () => {
    const response = await authorize(sandbox.origin, {});
    expect(new URL(response.headers.get('location')!).searchParams.has('state')).toBe(false);
  });

  it.each([
    ['another host', 'https://attacker.example/callback'],
    ['another path', `${defaults.LP_REDIRECT_URI}/../evil`],
    ['an extra query', `${defaults.LP_REDIRECT_URI}?next=https://attacker.example`],
    ['a prefix match', `${defaults.LP_REDIRECT_URI}x`],
    ['not a URL', 'not a url'],
  ])('answers an unregistered redirect_uri (%s) with a 400 page, never a redirect', async (_label, redirectUri) => {
    const response = await authorize(sandbox.origin, { redirect_uri: redirectUri, state: 'abc' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain('redirect_uri');
  });

  it('answers an unknown client_id with a 400 page, never a redirect', async () => {
    const response = await authorize(sandbox.origin, { client_id: 'unknown-client' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
  });

  it('redirects a wrong response_type back with error=unsupported_response_type and the state', async () => {
    const response = await authorize(sandbox.origin, { response_type: 'token', state: 's1' });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('unsupported_response_type');
    expect(location.searchParams.get('state')).toBe('s1');
    expect(location.searchParams.has('code')).toBe(false);
  });

  it('redirects an ungranted scope back with error=invalid_scope', async () => {
    const response = await authorize(sandbox.origin, { scope: 'fleet.admin' });
    expect(new URL(response.headers.get('location')!).searchParams.get('error')).toBe('invalid_scope');
  });
});

describe('exchanging the code', () => {
  it('gives a token that records a milestone', async () => {
    const response = await exchange(await authorizationCode(sandbox.origin));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { access_token: string; token_type: string; expires_in: number };
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect((await recordMilestone(sandbox.origin, body.access_token, aMilestone)).status).toBe(200);
  });

  it('cannot replay a code, and the replay revokes the token issued from it', async () => {
    const code = await authorizationCode(sandbox.origin);
    const first = await exchange(code);
    expect(first.status).toBe(200);
    const { access_token: token } = (await first.json()) as { access_token: string };
    const second = await exchange(code);
    expect(second.status).toBe(400);
    expect(await second.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await recordMilestone(sandbox.origin, token, aMilestone)).status).toBe(401);
  });

  it('refuses a redirect_uri different from the authorization request', async () => {
    const response = await exchange(await authorizationCode(sandbox.origin), { redirect_uri: 'http://127.0.0.1:8765/other' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses a code that was never issued', async () => {
    const response = await exchange('made-up-code');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses a code after it expires (10 minutes)', async () => {
    const code = await authorizationCode(sandbox.origin);
    await advanceClock(sandbox.origin, 601);
    const response = await exchange(code);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('requires the client secret', async () => {
    const response = await exchange(await authorizationCode(sandbox.origin), { client_secret: 'wrong' });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('requires redirect_uri in the exchange', async () => {
    const code = await authorizationCode(sandbox.origin);
    const response = await idpToken(sandbox.origin, { grant_type: 'authorization_code', code });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining('redirect_uri') });
  });
});

describe('PKCE S256', () => {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const withChallenge = { code_challenge: challenge, code_challenge_method: 'S256' };

  it('accepts the matching code_verifier', async () => {
    const code = await authorizationCode(sandbox.origin, withChallenge);
    expect((await exchange(code, { code_verifier: verifier })).status).toBe(200);
  });

  it('refuses a wrong code_verifier', async () => {
    const code = await authorizationCode(sandbox.origin, withChallenge);
    const response = await exchange(code, { code_verifier: randomBytes(32).toString('base64url') });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses a missing code_verifier when a challenge was sent', async () => {
    const response = await exchange(await authorizationCode(sandbox.origin, withChallenge));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses the plain method (only S256 is supported)', async () => {
    const response = await authorize(sandbox.origin, { code_challenge: challenge, code_challenge_method: 'plain' });
    expect(new URL(response.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  });
});
