// Token provider: single flight, caching and renewal ahead of expiry, both lifetime spellings, clear failures, its
// request sent again after a busy answer (a client-credentials grant; an authorization-code exchange is not), when a
// failed renewal tries again and which token it falls back on, invalidate, and the options each endpoint needs.
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, createLogisticsClient, createTokenClient, createTokenProvider, exchangeAuthorizationCode } from '../../src/index.ts';
import { sendJson, startLoopbackServer, type LoopbackServer } from './loopback-server.ts';
import { recordingSleep } from './recording-sleep.ts';

const CLIENT_SECRET = 'client-secret-DO-NOT-PRINT-1234';
const SUBSCRIPTION_KEY = 'subscription-key-DO-NOT-PRINT-5678';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * A token endpoint that issues token-1, token-2, ... Callers that ask together overlap whatever the machine's speed: all
 * of them ask before an answer can arrive (it needs a turn of the event loop), so no pause of the server is needed.
 */
async function tokenServer(lifetimeField: 'expired_in' | 'expires_in', lifetime = 3600): Promise<LoopbackServer> {
  let issued = 0;
  return startLoopbackServer((_request, response) => {
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
    const provider = createTokenProvider({
      baseUrl: `${server.origin}/svc`,
      clientId: 'app',
      clientSecret: CLIENT_SECRET,
      now: () => 0,
      refreshSkewSeconds: 0,
    });
    const info = await provider.getTokenInfo();
    expect(info.expiresInSeconds).toBe(1800);
    expect(info.refreshAt).toBe(1_800_000);
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/svc/token');
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(request?.body))).toEqual({
      grant_type: 'client_credentials',
      client_id: 'app',
      client_secret: CLIENT_SECRET,
    });
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
    server = await tokenServer('expired_in', 3600);
    let clock = 1_000_000;
    const provider = createTokenProvider({
      baseUrl: server.origin,
      clientId: 'app',
      clientSecret: CLIENT_SECRET,
      refreshSkewSeconds: 120,
      now: () => clock,
    });
    expect(await provider.getToken()).toBe('token-1');
    clock += (3600 - 121) * 1000; // one second before the renewal point
    expect(await provider.getToken()).toBe('token-1');
    expect(server.requests).toHaveLength(1);
    clock += 1000; // renewal point: 120 s before expiry
    expect(await provider.getToken()).toBe('token-2');
    expect(server.requests).toHaveLength(2);
  });

  it('invalidate(token) drops only the token that is still cached', async () => {
    server = await tokenServer('expired_in', 3600);
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

  it('keeps using a still-valid token when a renewal ahead of expiry fails, and renews once the endpoint is back', async () => {
    let issued = 0;
    let down = false;
    server = await startLoopbackServer((_request, response) => {
      if (down) return sendJson(response, 503, { message: 'maintenance' });
      issued += 1;
      sendJson(response, 200, { access_token: `token-${issued}`, token_type: 'Bearer', expired_in: 3600 });
    });
    let clock = 0;
    const provider = createTokenProvider({
      baseUrl: server.origin,
      clientId: 'app',
      clientSecret: CLIENT_SECRET,
      now: () => clock,
      retry: { attempts: 1 },
    });
    expect(await provider.getToken()).toBe('token-1');
    down = true;
    clock = 3590_000; // past the renewal point (60 s ahead), 10 s before expiry
    expect(await provider.getToken()).toBe('token-1');
    expect(server.requests).toHaveLength(2);
    expect(await provider.getToken()).toBe('token-1'); // the next attempt waits a quarter of the remaining life
    expect(server.requests).toHaveLength(2);
    clock += 2_500;
    down = false;
    expect(await provider.getToken()).toBe('token-2');
    expect(server.requests).toHaveLength(3);
  });

  it('fails once the token has expired and no renewal succeeded, and after invalidate', async () => {
    let down = false;
    server = await startLoopbackServer((_request, response) =>
      down
        ? sendJson(response, 503, { message: 'maintenance' })
        : sendJson(response, 200, { access_token: 'token-1', token_type: 'Bearer', expired_in: 3600 }),
    );
    let clock = 0;
    const provider = createTokenProvider({
      baseUrl: server.origin,
      clientId: 'app',
      clientSecret: CLIENT_SECRET,
      now: () => clock,
      retry: { attempts: 1 },
    });
    await provider.getToken();
    down = true;
    clock = 3600_000;
    expect(((await provider.getToken().catch((e: unknown) => e)) as ApiError).status).toBe(503);
    down = false;
    await provider.getToken();
    down = true;
    clock += 3590_000; // renewal due, token still valid, but the server rejected it with a 401
    provider.invalidate('token-1');
    expect(((await provider.getToken().catch((e: unknown) => e)) as ApiError).status).toBe(503);
  });

  it('routes /oauth2 paths to authUrl and /token to baseUrl even when URL parsing rewrites a base URL', async () => {
    server = await startLoopbackServer((_request, response) =>
      sendJson(response, 200, { access_token: 'token-1', token_type: 'Bearer', expires_in: 900, expired_in: 900 }),
    );
    // `/x/../svc` is normalised to `/svc` by the URL parser: the request URL is shorter than the base URL as written.
    const lp = createLogisticsClient({
      baseUrl: `${server.origin}/x/../svc`,
      authUrl: `${server.origin}/idp/./v2`,
      subscriptionKey: SUBSCRIPTION_KEY,
    });
    const body = { grant_type: 'client_credentials', client_id: 'app', client_secret: CLIENT_SECRET } as const;
    await lp.token.POST('/oauth2/default/v1/token', { body: { ...body, scope: 'carriers.milestones' } });
    await lp.token.POST('/token', { body });
    expect(server.requests.map((r) => r.url)).toEqual(['/idp/v2/oauth2/default/v1/token', '/svc/token']);
    expect(server.requests.map((r) => r.headers['ocp-apim-subscription-key'])).toEqual([SUBSCRIPTION_KEY, undefined]);
  });

  it('a token client without the base URL a path needs rejects the call naming the option', async () => {
    const onlyIdentityProvider = createTokenClient({ authUrl: 'http://127.0.0.1:9' });
    await expect(
      onlyIdentityProvider.POST('/token', { body: { grant_type: 'client_credentials', client_id: 'a', client_secret: 'b' } }),
    ).rejects.toThrow(/createTokenClient: option "baseUrl" is required to call \/token/);
    const onlyService = createTokenClient({ baseUrl: 'http://127.0.0.1:9' });
    await expect(onlyService.GET('/oauth2/default/v1/authorize', { params: { query: {} as never } })).rejects.toThrow(
      /option "authUrl" is required/,
    );
  });

  it('rejects bad configuration naming the option, not its value', () => {
    expect(() => createTokenProvider({ baseUrl: 'not a url', clientId: 'app', clientSecret: CLIENT_SECRET }).getToken()).toThrow(
      /option "baseUrl"/,
    );
    expect(() =>
      createTokenProvider({
        tokenEndpoint: 'identity-provider',
        authUrl: 'http://127.0.0.1:9',
        clientId: 'app',
        clientSecret: CLIENT_SECRET,
      }),
    ).toThrow(/option "scope" is required/);
    expect(() => createTokenProvider({ baseUrl: 'http://127.0.0.1:9', clientId: 'app', clientSecret: '' })).toThrow(
      /option "clientSecret" is required/,
    );
  });
});

describe('the token lifetime', () => {
  /** A service token endpoint whose answers carry `fields` (raw JSON text when a string), with token-1, token-2, ... */
  async function answering(fields: Record<string, unknown> | string): Promise<LoopbackServer> {
    let issued = 0;
    return startLoopbackServer((_request, response) => {
      issued += 1;
      if (typeof fields === 'string')
        return void response.writeHead(200, { 'content-type': 'application/json' }).end(`{"access_token":"token-${issued}",${fields}}`);
      sendJson(response, 200, { access_token: `token-${issued}`, token_type: 'Bearer', ...fields });
    });
  }

  const HOUR_MS = 3_600_000;

  it('takes a lifetime that is missing, zero, negative, not a number or not finite as one hour (seed 8), and keeps the token that long', async () => {
    const answers: Array<[string, Record<string, unknown> | string]> = [
      ['missing', {}],
      ['zero', { expired_in: 0 }],
      ['negative', { expired_in: -30 }],
      ['a numeric string', { expired_in: '1800' }],
      ['null', { expired_in: null }],
      // JSON.parse reads 1e999 as Infinity.
      ['not finite', '"expired_in":1e999'],
    ];
    for (const [what, fields] of answers) {
      server = await answering(fields);
      let clock = 1_000_000;
      const provider = createTokenProvider({ baseUrl: server.origin, clientId: 'app', clientSecret: CLIENT_SECRET, now: () => clock });
      const info = await provider.getTokenInfo();
      expect(info, what).toMatchObject({ accessToken: 'token-1', expiresInSeconds: 3600, expiresAt: 1_000_000 + HOUR_MS });
      expect(info.refreshAt, what).toBe(info.expiresAt - 60_000);
      // Not a token per call: the next call, a minute later, uses the cached token.
      clock += 60_000;
      expect(await provider.getToken(), what).toBe('token-1');
      expect(server.requests, what).toHaveLength(1);
      await server.close();
      server = undefined;
    }
  });

  it('reads expires_in when expired_in is there but not a usable lifetime', async () => {
    server = await answering({ expired_in: 0, expires_in: 900 });
    const provider = createTokenProvider({ baseUrl: server.origin, clientId: 'app', clientSecret: CLIENT_SECRET, now: () => 0 });
    expect(await provider.getTokenInfo()).toMatchObject({ expiresInSeconds: 900, expiresAt: 900_000 });
  });

  it('renews the refreshSkewSeconds ahead of expiry (default 60), but a short-lived token at half its lifetime', async () => {
    const refreshAhead = async (lifetime: number, refreshSkewSeconds?: number) => {
      server = await answering({ expired_in: lifetime });
      const provider = createTokenProvider({
        baseUrl: server.origin,
        clientId: 'app',
        clientSecret: CLIENT_SECRET,
        now: () => 0,
        ...(refreshSkewSeconds === undefined ? {} : { refreshSkewSeconds }),
      });
      const info = await provider.getTokenInfo();
      await server.close();
      server = undefined;
      return info.expiresAt - info.refreshAt;
    };
    expect(await refreshAhead(3600)).toBe(60_000);
    expect(await refreshAhead(100)).toBe(50_000);
    expect(await refreshAhead(60)).toBe(30_000);
    expect(await refreshAhead(3600, 0)).toBe(0);
    expect(await refreshAhead(3600, 600)).toBe(600_000);
  });

  it('refuses a negative or non-numeric refreshSkewSeconds, naming the option', () => {
    for (const refreshSkewSeconds of [-1, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() =>
        createTokenProvider({ baseUrl: 'http://127.0.0.1:9', clientId: 'app', clientSecret: CLIENT_SECRET, refreshSkewSeconds }),
      ).toThrow(new TypeError('createTokenProvider: option "refreshSkewSeconds" must be a non-negative number'));
  });

  it('takes the token type from the answer, Bearer when it names none', async () => {
    server = await answering({ token_type: undefined, expired_in: 3600 });
    expect(
      (await createTokenProvider({ baseUrl: server.origin, clientId: 'app', clientSecret: CLIENT_SECRET }).getTokenInfo()).tokenType,
    ).toBe('Bearer');
    await server.close();
    server = await answering({ token_type: 'DPoP', expired_in: 3600 });
    expect(
      (await createTokenProvider({ baseUrl: server.origin, clientId: 'app', clientSecret: CLIENT_SECRET }).getTokenInfo()).tokenType,
    ).toBe('DPoP');
  });
});

describe('a token request that meets a busy server', () => {
  /** Answers 503 `busy` times, then issues token-1. */
  async function busyFor(busy: number): Promise<LoopbackServer> {
    return startLoopbackServer((_request, response, index) =>
      index < busy
        ? sendJson(response, 503, { message: 'busy' })
        : sendJson(response, 200, { access_token: 'token-1', token_type: 'Bearer', expires_in: 3600 }),
    );
  }

  it('is sent again like a read (a client-credentials grant changes nothing), with retryNonIdempotent off', async () => {
    server = await busyFor(2);
    const { sleep, waits } = recordingSleep();
    for (const endpoint of ['service', 'identity-provider'] as const) {
      const provider = createTokenProvider({
        tokenEndpoint: endpoint,
        baseUrl: server.origin,
        authUrl: server.origin,
        clientId: 'app',
        clientSecret: CLIENT_SECRET,
        scope: 'carriers.milestones',
        subscriptionKey: SUBSCRIPTION_KEY,
        retry: { sleep, retryNonIdempotent: false },
      });
      expect(await provider.getToken(), endpoint).toBe('token-1');
    }
    expect(server.requests.map((request) => request.url)).toEqual(['/token', '/token', '/token', '/oauth2/default/v1/token']);
    expect(waits).toHaveLength(2);
  });

  it('fails after retry.attempts, saying how often it was sent', async () => {
    server = await busyFor(Number.POSITIVE_INFINITY);
    const { sleep } = recordingSleep();
    const provider = createTokenProvider({ baseUrl: server.origin, clientId: 'app', clientSecret: CLIENT_SECRET, retry: { sleep } });
    const error = (await provider.getToken().catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(503);
    expect(error.attempts).toBe(3);
    expect(server.requests).toHaveLength(3);
  });

  it('is not sent again when it exchanges an authorization code, good for one use', async () => {
    server = await busyFor(1);
    const { sleep, waits } = recordingSleep();
    const exchange = exchangeAuthorizationCode({
      authUrl: server.origin,
      clientId: 'app',
      clientSecret: CLIENT_SECRET,
      subscriptionKey: SUBSCRIPTION_KEY,
      code: 'the-code',
      redirectUri: 'http://127.0.0.1:8765/callback',
      retry: { sleep },
    });
    expect(((await exchange.catch((e: unknown) => e)) as ApiError).status).toBe(503);
    expect(server.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it("is not sent again when a caller's body serializer made its form into bytes: its grant cannot be told", async () => {
    server = await busyFor(1);
    const { sleep, waits } = recordingSleep();
    const tokens = createTokenClient({ baseUrl: server.origin, retry: { sleep } });
    const body = { grant_type: 'client_credentials', client_id: 'app', client_secret: CLIENT_SECRET } as const;
    const bodySerializer = (form: Record<string, string>) => new TextEncoder().encode(new URLSearchParams(form).toString());
    expect(((await tokens.POST('/token', { body, bodySerializer }).catch((e: unknown) => e)) as ApiError).status).toBe(503);
    expect(server.requests.map((request) => request.body)).toEqual([new URLSearchParams(body).toString()]);
    expect(waits).toEqual([]);
  });

  it('is sent again only as a POST: another method that carries the same form is not', async () => {
    server = await busyFor(1);
    const { sleep, waits } = recordingSleep();
    const tokens = createTokenClient({ baseUrl: server.origin, retry: { sleep } });
    // The Token API has no PATCH; any method can be sent through request().
    const send = tokens.request as unknown as (method: string, path: string, init?: object) => Promise<unknown>;
    const body = { grant_type: 'client_credentials', client_id: 'app', client_secret: CLIENT_SECRET };
    expect(((await send('patch', '/token', { body }).catch((e: unknown) => e)) as ApiError).status).toBe(503);
    expect(server.requests.map((request) => request.method)).toEqual(['PATCH']);
    expect(waits).toEqual([]);
  });
});

describe('a renewal that fails', () => {
  /** token-1, token-2, ... while up; a 503 while down; while `held`, a request waits for `release` before it is answered. */
  async function flaky() {
    const state = { down: false, issued: 0, held: undefined as Promise<void> | undefined, arrived: () => {} };
    server = await startLoopbackServer(async (_request, response) => {
      state.arrived();
      await state.held;
      if (state.down) return sendJson(response, 503, { message: 'maintenance' });
      state.issued += 1;
      sendJson(response, 200, { access_token: `token-${state.issued}`, token_type: 'Bearer', expired_in: 3600 });
    });
    return state;
  }

  /** A provider on the flaky server at the injected clock, with one attempt per token request. */
  const provider = (clock: { now: number }) =>
    createTokenProvider({
      baseUrl: server!.origin,
      clientId: 'app',
      clientSecret: CLIENT_SECRET,
      now: () => clock.now,
      retry: { attempts: 1 },
    });

  it('tries again after a quarter of the remaining life of the current token, and at least a second later', async () => {
    const state = await flaky();
    for (const [left, wait] of [
      [10_000, 2_500],
      [2_000, 1_000],
    ] as const) {
      const clock = { now: 0 };
      const tokens = provider(clock);
      const token = await tokens.getToken();
      const sent = server!.requests.length;
      state.down = true;
      clock.now = 3_600_000 - left; // past the renewal point (60 s ahead), `left` before expiry
      expect(await tokens.getToken(), `${left} ms left`).toBe(token);
      expect(server!.requests, `${left} ms left`).toHaveLength(sent + 1);
      state.down = false;
      clock.now += wait - 1;
      expect(await tokens.getToken(), `${left} ms left`).toBe(token);
      expect(server!.requests, `${left} ms left`).toHaveLength(sent + 1);
      clock.now += 1;
      expect(await tokens.getToken(), `${left} ms left`).not.toBe(token);
      expect(server!.requests, `${left} ms left`).toHaveLength(sent + 2);
    }
  });

  it('does not fall back on a token the server rejected (invalidated) while the renewal was on its way', async () => {
    const state = await flaky();
    const clock = { now: 0 };
    const tokens = provider(clock);
    expect(await tokens.getToken()).toBe('token-1');
    state.down = true;
    let release = () => {};
    state.held = new Promise((resolve) => {
      release = resolve;
    });
    const arrived = new Promise<void>((resolve) => {
      state.arrived = resolve;
    });
    clock.now = 3_590_000; // renewal due, token-1 still valid
    const renewal = tokens.getToken().catch((error: unknown) => error);
    await arrived;
    tokens.invalidate('token-1'); // a 401 for token-1 came back meanwhile
    release();
    expect(((await renewal) as ApiError).status).toBe(503);
  });
});

describe('a token answer without a token', () => {
  it('fails naming the operation of its endpoint', async () => {
    server = await startLoopbackServer((_request, response) => sendJson(response, 200, { token_type: 'Bearer', expires_in: 3600 }));
    const operations: string[] = [];
    for (const tokenEndpoint of ['service', 'identity-provider'] as const) {
      const provider = createTokenProvider({
        tokenEndpoint,
        baseUrl: server.origin,
        authUrl: server.origin,
        clientId: 'app',
        clientSecret: CLIENT_SECRET,
        scope: 's',
        subscriptionKey: SUBSCRIPTION_KEY,
      });
      const error = (await provider.getToken().catch((e: unknown) => e)) as ApiError;
      expect(error.kind).toBe('invalid_response');
      operations.push(error.operation);
    }
    expect(operations).toEqual(['POST /token', 'POST /oauth2/default/v1/token']);
  });
});

describe('what is not a token', () => {
  it('an access_token that is empty, not a string, or an answer that is null: invalid_response', async () => {
    const answers = ['{"access_token":"","token_type":"Bearer"}', '{"access_token":42,"token_type":"Bearer"}', 'null'];
    server = await startLoopbackServer((_request, response, index) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(answers[index]);
    });
    for (const answer of answers) {
      const provider = createTokenProvider({
        baseUrl: server.origin,
        clientId: 'app',
        clientSecret: CLIENT_SECRET,
        retry: { attempts: 1 },
      });
      const error = (await provider.getToken().catch((e: unknown) => e)) as ApiError;
      expect(error, answer).toBeInstanceOf(ApiError);
      expect(error.kind, answer).toBe('invalid_response');
    }
  });

  it("from a caller's fetch that builds its own answer (no URL), the error says about:blank", async () => {
    const fetch = async () => Response.json({ token_type: 'Bearer', expires_in: 3600 });
    const provider = createTokenProvider({ baseUrl: 'http://127.0.0.1:9', clientId: 'app', clientSecret: CLIENT_SECRET, fetch });
    const error = (await provider.getToken().catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ kind: 'invalid_response', url: 'about:blank' });
  });
});

describe("a token request a caller's middleware rebuilt", () => {
  it('is not sent again after a 503: the client cannot tell its grant', async () => {
    server = await startLoopbackServer((_request, response) => sendJson(response, 503, { message: 'busy' }));
    const lp = createLogisticsClient({ baseUrl: server.origin, retry: { sleep: async () => undefined } });
    lp.token.use({
      onRequest: async ({ request }) => new Request(request.url, { method: 'POST', headers: request.headers, body: await request.text() }),
    });
    const error = await lp.token
      .POST('/token', { body: { grant_type: 'client_credentials', client_id: 'app', client_secret: CLIENT_SECRET } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(503);
    expect(server.requests).toHaveLength(1);
  });
});

describe('invalidate', () => {
  it('without a token drops whichever token is cached', async () => {
    server = await tokenServer('expired_in', 3600);
    const provider = createTokenProvider({ baseUrl: server.origin, clientId: 'app', clientSecret: CLIENT_SECRET });
    expect(await provider.getToken()).toBe('token-1');
    provider.invalidate();
    expect(await provider.getToken()).toBe('token-2');
    expect(server.requests).toHaveLength(2);
  });
});

describe('the options of each token endpoint', () => {
  const base = { clientId: 'app', clientSecret: CLIENT_SECRET };
  const idp = { ...base, tokenEndpoint: 'identity-provider', authUrl: 'http://127.0.0.1:9', scope: 's', subscriptionKey: 'k' } as const;

  it('refuses an endpoint that is neither, naming the option', () => {
    expect(() => createTokenProvider({ ...base, baseUrl: 'http://127.0.0.1:9', tokenEndpoint: 'password' as never })).toThrow(
      new TypeError(`createTokenProvider: option "tokenEndpoint" must be 'service' or 'identity-provider'`),
    );
  });

  it('names each option the endpoint needs when it is missing or not a URL, and asks nothing of the other one', () => {
    const failure = (options: Parameters<typeof createTokenProvider>[0]) => {
      try {
        createTokenProvider(options);
        return 'no error';
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(failure({ ...base, baseUrl: undefined })).toMatch(/^createTokenProvider: option "baseUrl" is required/);
    expect(failure({ ...idp, authUrl: undefined })).toMatch(/^createTokenProvider: option "authUrl" is required/);
    expect(failure({ ...idp, scope: undefined })).toMatch(/^createTokenProvider: option "scope" is required/);
    expect(failure({ ...idp, subscriptionKey: undefined })).toMatch(/^createTokenProvider: option "subscriptionKey" is required/);
    expect(failure({ ...idp, authUrl: 'not a url' })).toBe('createTokenProvider: option "authUrl" must be an absolute http(s) URL');
    expect(failure({ ...base, baseUrl: 'not a url' })).toBe('createTokenProvider: option "baseUrl" must be an absolute http(s) URL');
    // The identity provider needs no baseUrl, the service no authUrl, scope or subscription key.
    expect(failure({ ...idp, baseUrl: 'not a url' })).toBe('no error');
    expect(failure({ ...base, baseUrl: 'http://127.0.0.1:9', authUrl: 'not a url' })).toBe('no error');
  });
});
