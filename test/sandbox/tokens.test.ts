// Token endpoints: the service endpoint's expired_in quirk, RFC 6749 errors, the identity
// provider's subscription key and scope, and the 3600 s lifetime enforced by the clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, aMilestone, defaults, idpToken, postForm, recordMilestone, serviceToken } from './api-calls.ts';
import { startInProcess, type InProcessSandbox } from './sandbox-process.ts';

let sandbox: InProcessSandbox;
beforeAll(async () => {
  sandbox = await startInProcess();
});
afterAll(() => sandbox?.close());

const serviceFields = { grant_type: 'client_credentials', client_id: defaults.LP_CLIENT_ID, client_secret: defaults.LP_CLIENT_SECRET };

describe('POST {base_url}/token', () => {
  it('issues a Bearer token with expired_in 3600 (and no expires_in)', async () => {
    const response = await postForm(`${sandbox.origin}/svc/token`, serviceFields);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({ access_token: expect.stringMatching(/^\S{20,}$/), token_type: 'Bearer', expired_in: 3600 });
  });

  it('issues a different token on every request', async () => {
    expect(await serviceToken(sandbox.origin)).not.toBe(await serviceToken(sandbox.origin));
  });

  it('rejects a wrong client secret with 401 invalid_client', async () => {
    const response = await postForm(`${sandbox.origin}/svc/token`, { ...serviceFields, client_secret: 'wrong' });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('rejects an unknown client id with 401 invalid_client', async () => {
    const response = await postForm(`${sandbox.origin}/svc/token`, { ...serviceFields, client_id: 'someone-else' });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('rejects a missing client_secret with 400 invalid_request naming the field', async () => {
    const { client_secret: _omitted, ...fields } = serviceFields;
    const response = await postForm(`${sandbox.origin}/svc/token`, fields);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; error_description: string };
    expect(body.error).toBe('invalid_request');
    expect(body.error_description).toContain('client_secret');
  });

  it('rejects another grant type with 400 unsupported_grant_type', async () => {
    const response = await postForm(`${sandbox.origin}/svc/token`, { ...serviceFields, grant_type: 'password' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'unsupported_grant_type' });
  });

  it('rejects a JSON body: the request must be form-encoded', async () => {
    const response = await fetch(`${sandbox.origin}/svc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(serviceFields),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('rejects a repeated form field (RFC 6749 section 3.2)', async () => {
    const body = `${new URLSearchParams(serviceFields)}&client_id=${defaults.LP_CLIENT_ID}`;
    const response = await fetch(`${sandbox.origin}/svc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_request' });
  });
});

describe('POST {auth_url}/oauth2/default/v1/token, client credentials', () => {
  const fields = { grant_type: 'client_credentials', scope: defaults.LP_SCOPE };

  it('issues an RFC 6749 token response with expires_in 3600 and the scope', async () => {
    const response = await idpToken(sandbox.origin, fields);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      access_token: expect.stringMatching(/^\S{20,}$/),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: defaults.LP_SCOPE,
    });
  });

  it('requires the subscription key: missing → 401', async () => {
    const response = await idpToken(sandbox.origin, fields, null);
    expect(response.status).toBe(401);
    expect(((await response.json()) as { message: string }).message).toMatch(/subscription key/);
  });

  it('refuses a wrong subscription key with 401', async () => {
    const response = await idpToken(sandbox.origin, fields, 'not-the-key');
    expect(response.status).toBe(401);
  });

  it('requires scope: missing → 400 invalid_request', async () => {
    const response = await idpToken(sandbox.origin, { grant_type: 'client_credentials' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining('scope') });
  });

  it('refuses a scope not granted to the client with 400 invalid_scope', async () => {
    const response = await idpToken(sandbox.origin, { grant_type: 'client_credentials', scope: 'fleet.admin' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_scope' });
  });

  it('rejects a wrong client secret with 401 invalid_client', async () => {
    const response = await idpToken(sandbox.origin, { ...fields, client_secret: 'wrong' });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('rejects an unknown grant type with 400 unsupported_grant_type', async () => {
    const response = await idpToken(sandbox.origin, { grant_type: 'refresh_token' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'unsupported_grant_type' });
  });
});

describe('token lifetime', () => {
  it('accepts a service token for up to an hour and refuses it after 3600 s', async () => {
    const token = await serviceToken(sandbox.origin);
    expect((await advanceClock(sandbox.origin, 3590)).status).toBe(200);
    expect((await recordMilestone(sandbox.origin, token, aMilestone)).status).toBe(200);
    await advanceClock(sandbox.origin, 11);
    const expired = await recordMilestone(sandbox.origin, token, aMilestone);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('refuses an identity provider token after 3600 s', async () => {
    const response = await idpToken(sandbox.origin, { grant_type: 'client_credentials', scope: defaults.LP_SCOPE });
    const { access_token: token } = (await response.json()) as { access_token: string };
    expect((await recordMilestone(sandbox.origin, token, aMilestone)).status).toBe(200);
    await advanceClock(sandbox.origin, 3600);
    expect((await recordMilestone(sandbox.origin, token, aMilestone)).status).toBe(401);
  });

  it.each([{ advanceSeconds: 'soon' }, { advanceSeconds: 1e300 }, { offsetSeconds: -1e12 }, { advanceSeconds: 1, offsetSeconds: 1 }, {}])(
    'rejects the clock request %j with 400 and leaves the clock alone',
    async (body) => {
      const before = ((await (await fetch(`${sandbox.origin}/_sandbox/clock`)).json()) as { offsetSeconds: number }).offsetSeconds;
      const response = await fetch(`${sandbox.origin}/_sandbox/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(400);
      const after = ((await (await fetch(`${sandbox.origin}/_sandbox/clock`)).json()) as { offsetSeconds: number }).offsetSeconds;
      expect(after).toBe(before);
    },
  );
});
