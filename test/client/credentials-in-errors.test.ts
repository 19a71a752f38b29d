// No error of the client carries a credential: not in message, toString, toJSON, stack or inspection, even when
// a server echoes the request's headers and body back in its error body.
import { afterEach, describe, expect, it } from 'vitest';
import { type ApiError, createLogisticsClient, createTokenProvider, exchangeAuthorizationCode } from '../../src/index.ts';
import { dropConnection, sendJson, startLoopbackServer, type LoopbackServer } from './loopback-server.ts';
import { expectNoCredentials as expectCredentialFree } from './no-credentials.ts';

const SECRETS = {
  clientSecret: 'client-secret-DO-NOT-PRINT-1234',
  subscriptionKey: 'subscription-key-DO-NOT-PRINT-5678',
  fleetApiKey: 'fleet-api-key-DO-NOT-PRINT-9012',
  accessToken: 'access-token-DO-NOT-PRINT-3456',
};

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const expectNoCredentials = (error: unknown) => expectCredentialFree(error, Object.values(SECRETS));

/** Echoes everything it received, as a careless gateway might. */
async function echoingServer(status: (url: string) => number | 'drop'): Promise<LoopbackServer> {
  return startLoopbackServer((request, response) => {
    if (request.url.endsWith('/token') && status(request.url) === 200) {
      return sendJson(response, 200, { access_token: SECRETS.accessToken, token_type: 'Bearer', expired_in: 3600 });
    }
    const code = status(request.url);
    if (code === 'drop') return dropConnection(response);
    sendJson(response, code, { message: 'echo', headers: request.headers, body: request.body, url: request.url });
  });
}

function client(origin: string) {
  return createLogisticsClient({
    baseUrl: origin,
    authUrl: origin,
    fleetBaseUrl: origin,
    clientId: 'app',
    ...SECRETS,
    scope: 'carriers.milestones',
  });
}

/** A client whose clock the test moves (an hour makes the token expire, so getToken asks for a new one). */
function clientWithClock(origin: string) {
  const clock = { now: 0 };
  const lp = createLogisticsClient({
    baseUrl: origin,
    clientId: 'app',
    clientSecret: SECRETS.clientSecret,
    subscriptionKey: SECRETS.subscriptionKey,
    now: () => clock.now,
  });
  return { lp, clock };
}

describe('credentials are absent from every error', () => {
  it('token endpoint failure', async () => {
    server = await echoingServer(() => 400);
    const error = await client(server.origin)
      .tokenProvider.getToken()
      .catch((e: unknown) => e);
    expect((error as ApiError).status).toBe(400);
    expectNoCredentials(error);
    expect(JSON.stringify((error as ApiError).body)).toContain('[REDACTED]');
  });

  it('carriers failure after the token was issued (token, subscription key echoed)', async () => {
    server = await echoingServer((url) => (url.endsWith('/token') ? 200 : 403));
    const lp = createLogisticsClient({ baseUrl: server.origin, fleetBaseUrl: server.origin, clientId: 'app', ...SECRETS });
    const error = await lp.carriers
      .POST('/v1/load-milestone-events', { body: { load_id: SECRETS.clientSecret, milestone_type: 'X', event_time: 'now' } })
      .catch((e: unknown) => e);
    expect((error as ApiError).status).toBe(403);
    expectNoCredentials(error);
  });

  it('fleet failure (API-Key echoed) and fleet network failure', async () => {
    server = await echoingServer(() => 500);
    const lp = client(server.origin);
    expectNoCredentials(await lp.fleet.GET('/vehicles', { params: { query: { vin: ['x'] } } }).catch((e: unknown) => e));
    await server.close();
    server = await echoingServer(() => 'drop');
    const dropped = await client(server.origin)
      .fleet.GET('/vehicles')
      .catch((e: unknown) => e);
    expect((dropped as ApiError).kind).toBe('network');
    expectNoCredentials(dropped);
  });

  it('identity-provider code exchange failure', async () => {
    server = await echoingServer(() => 400);
    const error = await exchangeAuthorizationCode({
      authUrl: server.origin,
      clientId: 'app',
      clientSecret: SECRETS.clientSecret,
      subscriptionKey: SECRETS.subscriptionKey,
      code: 'the-code',
      redirectUri: 'http://127.0.0.1:1/cb',
    }).catch((e: unknown) => e);
    expect((error as ApiError).status).toBe(400);
    expectNoCredentials(error);
  });

  it('a secret with characters that encode differently is redacted in every spelling a server may echo', async () => {
    // Azure AD style secret: ~ is kept by encodeURIComponent but escaped by form encoding, a space becomes +.
    const secret = "Ab8Q~Zr.x_y-z!'()* and+more/é";
    const form = new URLSearchParams({ client_secret: secret }).toString().split('=')[1]!;
    const spellings = [
      secret,
      encodeURIComponent(secret),
      form,
      form.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
      form.replaceAll('+', '%20'),
      JSON.stringify(secret).slice(1, -1),
    ];
    expect(new Set(spellings).size).toBeGreaterThan(3);
    server = await startLoopbackServer((request, response) => {
      // The echo is text, so each spelling reaches the error as written.
      response.writeHead(400, { 'content-type': 'text/plain' }).end(`invalid_client: ${request.body} | ${spellings.slice(1).join(' | ')}`);
    });
    const error = await createTokenProvider({ baseUrl: server.origin, clientId: 'app', clientSecret: secret })
      .getToken()
      .catch((e: unknown) => e);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message).toContain('invalid_client: grant_type=client_credentials&client_id=app&client_secret=[REDACTED]');
    expectCredentialFree(error, spellings);
  });

  it('a long-lived client still redacts its secret and keys after 40 token renewals', async () => {
    let issued = 0;
    let failing = false;
    server = await startLoopbackServer((request, response) => {
      if (failing)
        return sendJson(response, 400, { error: 'invalid_request', echo: request.body, key: request.headers['ocp-apim-subscription-key'] });
      issued += 1;
      sendJson(response, 200, { access_token: `issued-token-${issued}`, token_type: 'Bearer', expired_in: 3600 });
    });
    const { lp, clock } = clientWithClock(server.origin);
    for (let hour = 0; hour < 40; hour += 1) {
      await lp.tokenProvider.getToken();
      clock.now += 3600_000;
    }
    expect(issued).toBe(40);
    failing = true;
    const error = await lp.tokenProvider.getToken().catch((e: unknown) => e);
    expect((error as ApiError).status).toBe(400);
    expect(JSON.stringify((error as ApiError).body)).toContain('client_secret=[REDACTED]');
    expectNoCredentials(error);
  });

  it('hides an issued token a server echoes bare while it is among the latest 32; the one before them is forgotten', async () => {
    // The first answer issues, by a server's mistake, the subscription key as the token: it stays hidden all the same.
    const tokens = [SECRETS.subscriptionKey, ...Array.from({ length: 33 }, (_, n) => `issued-token-${String(n + 1).padStart(2, '0')}-x`)];
    let issued = 0;
    let failing = false;
    server = await startLoopbackServer((_request, response) => {
      if (failing) return sendJson(response, 400, { error: 'invalid_request', echo: tokens });
      sendJson(response, 200, { access_token: tokens[issued++], token_type: 'Bearer', expired_in: 3600 });
    });
    const { lp, clock } = clientWithClock(server.origin);
    for (const _ of tokens) {
      await lp.tokenProvider.getToken();
      clock.now += 3600_000;
    }
    expect(issued).toBe(34);
    failing = true;
    const error = (await lp.tokenProvider.getToken().catch((e: unknown) => e)) as ApiError;
    expect((error.body as { echo: string[] }).echo).toEqual(['[REDACTED]', 'issued-token-01-x', ...Array(32).fill('[REDACTED]')]);
  });

  it('configuration errors name the option, never the value', () => {
    const error = (() => {
      try {
        createLogisticsClient({ baseUrl: `https://${SECRETS.clientSecret}@`, clientId: 'app', clientSecret: SECRETS.clientSecret });
      } catch (e) {
        return e;
      }
    })();
    expect((error as Error).message).toMatch(/option "baseUrl"/);
    expectNoCredentials(error);
  });
});
