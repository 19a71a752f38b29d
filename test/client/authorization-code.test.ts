// Authorization code grant: authorize URL with random state and PKCE, callback checks, and the code exchange.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { buildAuthorizationUrl, exchangeAuthorizationCode, parseAuthorizationCallback } from '../../src/index.ts';
import { sendJson, startLoopbackServer, type LoopbackServer } from './loopback-server.ts';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const BASE = {
  authUrl: 'https://idp.example/tenant-a',
  clientId: 'app',
  redirectUri: 'http://127.0.0.1:8765/callback',
  scope: 'carriers.milestones openid',
};

describe('buildAuthorizationUrl', () => {
  it('builds the authorize URL under the auth URL prefix, with a fresh random state each time', async () => {
    const first = await buildAuthorizationUrl(BASE);
    const second = await buildAuthorizationUrl(BASE);
    const url = new URL(first.url);
    expect(url.origin + url.pathname).toBe('https://idp.example/tenant-a/oauth2/default/v1/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'app',
      response_type: 'code',
      redirect_uri: BASE.redirectUri,
      scope: BASE.scope,
      state: first.state,
    });
    expect(first.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second.state).not.toBe(first.state);
    expect(first.codeVerifier).toBeUndefined();
  });

  it('adds a PKCE S256 challenge of the returned verifier when asked', async () => {
    const request = await buildAuthorizationUrl({ ...BASE, pkce: true });
    const url = new URL(request.url);
    expect(request.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    const expected = createHash('sha256').update(request.codeVerifier!).digest('base64url');
    expect(url.searchParams.get('code_challenge')).toBe(expected);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  });
});

describe('parseAuthorizationCallback', () => {
  it('returns the code when the state matches', () => {
    expect(parseAuthorizationCallback('http://127.0.0.1:8765/callback?code=abc&state=s-1', { state: 's-1' })).toEqual({
      code: 'abc',
      state: 's-1',
    });
  });

  it('rejects a mismatched, missing or prefix-only state', () => {
    for (const url of [
      '/callback?code=abc&state=s-2',
      '/callback?code=abc',
      '/callback?code=abc&state=s-',
      '/callback?code=abc&state=s-11',
    ]) {
      expect(() => parseAuthorizationCallback(url, { state: 's-1' })).toThrow(expect.objectContaining({ code: 'state_mismatch' }));
    }
  });

  it('surfaces the error parameters of a refused authorization', () => {
    expect(() =>
      parseAuthorizationCallback('/callback?error=access_denied&error_description=User+said+no&state=s-1', { state: 's-1' }),
    ).toThrow(
      expect.objectContaining({ code: 'access_denied', description: 'User said no', message: expect.stringContaining('access_denied') }),
    );
  });

  it('rejects a callback without a code', () => {
    expect(() => parseAuthorizationCallback('/callback?state=s-1', { state: 's-1' })).toThrow(
      expect.objectContaining({ code: 'missing_code' }),
    );
  });
});

describe('exchangeAuthorizationCode', () => {
  it('posts the code form-encoded with the exact redirect_uri, the verifier and the subscription key', async () => {
    server = await startLoopbackServer((_request, response) =>
      sendJson(response, 200, { access_token: 'at', token_type: 'Bearer', expires_in: 3600, scope: 'openid' }),
    );
    const redirectUri = 'http://127.0.0.1:8765/callback?tenant=a%20b';
    const token = await exchangeAuthorizationCode({
      authUrl: `${server.origin}/idp`,
      clientId: 'app',
      clientSecret: 'secret-value',
      subscriptionKey: 'sub-key',
      code: 'the-code',
      redirectUri,
      codeVerifier: 'verifier-1',
    });
    expect(token.expires_in).toBe(3600);
    const [request] = server.requests;
    expect(request?.url).toBe('/idp/oauth2/default/v1/token');
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request?.headers['ocp-apim-subscription-key']).toBe('sub-key');
    expect(Object.fromEntries(new URLSearchParams(request?.body))).toEqual({
      grant_type: 'authorization_code',
      client_id: 'app',
      client_secret: 'secret-value',
      code: 'the-code',
      redirect_uri: redirectUri,
      code_verifier: 'verifier-1',
    });
  });

  it('an answer without an access_token is ApiError invalid_response, as for the token provider', async () => {
    server = await startLoopbackServer((_request, response) => sendJson(response, 200, { token_type: 'Bearer', expires_in: 3600 }));
    const exchange = exchangeAuthorizationCode({
      authUrl: server.origin,
      clientId: 'app',
      clientSecret: 'secret-value',
      subscriptionKey: 'sub-key',
      code: 'c',
      redirectUri: 'http://127.0.0.1:8765/cb',
    });
    await expect(exchange).rejects.toMatchObject({
      name: 'ApiError',
      kind: 'invalid_response',
      status: 200,
      operation: 'POST /oauth2/default/v1/token',
    });
    await expect(exchange).rejects.toThrow(/the token response has no access_token/);
  });
});
