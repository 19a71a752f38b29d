// Token provider: single flight, caching and renewal ahead of expiry, both lifetime spellings, clear failures.
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, createTokenProvider } from '../../src/index.ts';
import { sendJson, startLoopbackServer, type LoopbackServer } from './loopback-server.ts';

const CLIENT_SECRET = 'client-secret-DO-NOT-PRINT-1234';
const SUBSCRIPTION_KEY = 'subscription-key-DO-NOT-PRINT-5678';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A token endpoint that issues token-1, token-2, ... slowly enough for concurrent callers to overlap. */
async function tokenServer(lifetimeField: 'expired_in' | 'expires_in', lifetime = 3600, delayMs = 30): Promise<LoopbackServer> {
  let issued = 0;
  return startLoopbackServer(async (_request, response) => {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    issued += 1;
    sendJson(response, 200, { access_token: `token-${issued}`, token_type: 'Bearer', [lifetimeField]: lifetime });
  });
}

describe('createTokenProvider', () => {
  it('shares one token request among 200 concurrent callers (single flight)', async () => {
    server = await tokenServer('expired_in');
    const provider = createTokenProvider({ baseUrl: server.origin, clientId: 'app', clientSecret: CLIENT_SECRET });
    const tokens = await Promise.all(Array.from({ length: 200 }, () => provider.getToken()));
    expect(new Set(tokens)).toEqual(new Set(['token-1']));
    expect(server.requests).toHaveLength(1);
  });

  it('reads expired_in from the service endpoint, with a form-encoded client credentials request', async () => {
    server = await tokenServer('expired_in', 1800);
    const provider = createTokenProvider({ baseUrl: `${server.origin}/svc`, clientId: 'app', clientSecret: CLIENT_SECRET, now: () => 0, refreshSkewSeconds: 0 });
    const info = await provider.getTokenInfo();
    expect(info.expiresInSeconds).toBe(1800);
    expect(info.refreshAt).toBe(1_800_000);
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/svc/token');
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(request?.body))).toEqual({ grant_type: 'client_credentials', client_id: 'app', client_secret: CLIENT_SECRET });
    expect(request?.headers['ocp-apim-subscription-key']).toBeUndefined();
  });

  it('reads expires_in from the identity provider, sending scope and the subscription key', async () => {
    server = await tokenServer('expires_in', 900);
    const provider = createTokenProvider({
      tokenEndpoint: 'identity-provider',
      authUrl: `${server.origin}/idp`,
      clientId: 'app',
      clientSecret: CLIENT_SECRET,
      scope: 'carriers.milestones',
      subscriptionKey: SUBSCRIPTION_KEY,
    });
    const info = await provider.getTokenInfo();
    expect(info.expiresInSeconds).toBe(900);
    const [request] = server.requests;
    expect(request?.url).toBe('/idp/oauth2/default/v1/token');
    expect(request?.headers['ocp-apim-subscription-key']).toBe(SUBSCRIPTION_KEY);
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(request?.body))).toEqual({
      grant_type: 'client_credentials',
      client_id: 'app',
      client_secret: CLIENT_SECRET,
      scope: 'carriers.milestones',
    });
  });

  it('caches the token and renews it the configured skew ahead of expiry (injected clock)', async () => {
    server = await tokenServer('expired_in', 3600, 0);
    let clock = 1_000_000;
    const provider = createTokenProvider({ baseUrl: server.origin, clientId: 'app', clientSecret: CLIENT_SECRET, refreshSkewSeconds: 120, now: () => clock });
    expect(await provider.getToken()).toBe('token-1');
    clock += (3600 - 121) * 1000; // one second before the renewal point
    expect(await provider.getToken()).toBe('token-1');
    expect(server.requests).toHaveLength(1);
    clock += 1000; // renewal point: 120 s before expiry
    expect(await provider.getToken()).toBe('token-2');
    expect(server.requests).toHaveLength(2);
  });

  it('invalidate(token) drops only the token that is still cached', async () => {
    server = await tokenServer('expired_in', 3600, 0);
    const provider = createTokenProvider({ baseUrl: server.origin, clientId: 'app', clientSecret: CLIENT_SECRET });
    expect(await provider.getToken()).toBe('token-1');
    provider.invalidate('token-1');
    expect(await provider.getToken()).toBe('token-2');
    provider.invalidate('token-1'); // stale: a late 401 for the old token must not discard the new one
    expect(await provider.getToken()).toBe('token-2');
    expect(server.requests).toHaveLength(2);
  });

  it('fails with an ApiError naming the endpoint and status but not the secret, and tries again on the next call', async () => {
    let calls = 0;
    server = await startLoopbackServer((request, response) => {
      calls += 1;
      // A careless server that echoes the form back.
      if (calls === 1) sendJson(response, 401, { error: 'invalid_client', error_description: `bad credentials in ${request.body}` });
      else sendJson(response, 200, { access_token: 'token-ok', token_type: 'Bearer', expired_in: 3600 });
    });
    const provider = createTokenProvider({ baseUrl: server.origin, clientId: 'app', clientSecret: CLIENT_SECRET });
    const failure = await provider.getToken().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    const error = failure as ApiError;
    expect(error.status).toBe(401);
    expect(error.message).toContain('POST /token');
    expect(error.message).toContain('401');
    expect(error.message).toContain(`${server.origin}/token`);
    expect(error.message).toContain('invalid_client');
    for (const text of [error.message, String(error), JSON.stringify(error), error.stack ?? '']) expect(text).not.toContain(CLIENT_SECRET);
    expect(await provider.getToken()).toBe('token-ok');
  });

  it('rejects bad configuration naming the option, not its value', () => {
    expect(() => createTokenProvider({ baseUrl: 'not a url', clientId: 'app', clientSecret: CLIENT_SECRET }).getToken()).toThrow(/option "baseUrl"/);
    expect(() => createTokenProvider({ tokenEndpoint: 'identity-provider', authUrl: 'http://127.0.0.1:9', clientId: 'app', clientSecret: CLIENT_SECRET })).toThrow(
      /option "scope" is required/,
    );
    expect(() => createTokenProvider({ baseUrl: 'http://127.0.0.1:9', clientId: 'app', clientSecret: '' })).toThrow(/option "clientSecret" is required/);
  });
});
