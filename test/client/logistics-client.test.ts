// createLogisticsClient: options checked once under the caller's names, each API client given only what it needs,
// the token provider on the token client, and a token one call away (lp.getToken()).
import { afterEach, describe, expect, it } from 'vitest';
import { buildAuthorizationUrl, createFleetClient, createLogisticsClient, createTokenProvider } from '../../src/index.ts';
import { sendJson, startLoopbackServer, VEHICLE, type LoopbackServer } from './loopback-server.ts';

const CLIENT_ID = 'app-client-id';
const CLIENT_SECRET = 'client-secret-DO-NOT-PRINT-1234';
const SUBSCRIPTION_KEY = 'subscription-key-DO-NOT-PRINT-5678';
const FLEET_API_KEY = 'fleet-api-key-DO-NOT-PRINT-9012';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Answers /token with a fresh token each time and everything else with a vehicle. */
async function tokenAndFleetServer(): Promise<LoopbackServer> {
  let issued = 0;
  return startLoopbackServer((request, response) => {
    if (request.url.endsWith('/token')) {
      issued += 1;
      return sendJson(response, 200, { access_token: `token-${issued}`, token_type: 'Bearer', expired_in: 3600 });
    }
    sendJson(response, 200, [VEHICLE]);
  });
}

/** A fetch that records every request it sends (url, headers, body), then sends it. */
function recordingFetch() {
  const sent: { url: string; headers: Record<string, string>; body: string }[] = [];
  const fetch = async (input: Request | string | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    sent.push({ url: request.url, headers: Object.fromEntries(request.headers), body: await request.clone().text() });
    return globalThis.fetch(request);
  };
  return { fetch, sent };
}

describe('createLogisticsClient configuration', () => {
  it('serves a fleet-only consumer from fleetBaseUrl and fleetApiKey alone', async () => {
    server = await tokenAndFleetServer();
    const lp = createLogisticsClient({ fleetBaseUrl: `${server.origin}/fleet`, fleetApiKey: FLEET_API_KEY });
    const { data } = await lp.fleet.GET('/vehicles');
    expect(data).toEqual([VEHICLE]);
    expect(server.requests.map((request) => request.url)).toEqual(['/fleet/vehicles']);
    // The APIs it did not configure fail when used, naming what they lack.
    expect(() =>
      lp.carriers.POST('/v1/load-milestone-events', {
        body: { load_id: 'L-1', milestone_type: 'PICKED_UP', event_time: '2024-01-01T00:00:00Z' },
      }),
    ).toThrow(/createLogisticsClient: option "baseUrl" is required for the carriers API/);
    await expect(lp.getToken()).rejects.toThrow(/createLogisticsClient: option "clientId" is required/);
  });

  it('fails at creation, naming the option the caller passed', () => {
    // A fleet key means the fleet API is wanted: its missing host fails now, under its own name, with or without other APIs.
    expect(() => createLogisticsClient({ fleetApiKey: FLEET_API_KEY })).toThrow(/createLogisticsClient: option "fleetBaseUrl" is required/);
    expect(() =>
      createLogisticsClient({
        baseUrl: 'http://127.0.0.1:9',
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        fleetApiKey: FLEET_API_KEY,
      }),
    ).toThrow(/createLogisticsClient: option "fleetBaseUrl" is required/);
    // Blank LP_* values configure nothing.
    expect(() => createLogisticsClient({ baseUrl: 'http://127.0.0.1:9', fleetBaseUrl: '', fleetApiKey: '' })).not.toThrow();
    // Transport options too are reported under the factory's name.
    expect(() => createLogisticsClient({ fleetBaseUrl: 'http://127.0.0.1:9', fleetApiKey: FLEET_API_KEY, timeoutMs: 0 })).toThrow(
      /^createLogisticsClient: option "timeoutMs" must be a positive number/,
    );
    expect(() => createLogisticsClient({ fleetBaseUrl: 'http://127.0.0.1:9', fleetApiKey: FLEET_API_KEY, retry: { attempts: 0 } })).toThrow(
      /^createLogisticsClient: option "retry.attempts" must be an integer/,
    );
    expect(() => createLogisticsClient({ fleetBaseUrl: 'http://127.0.0.1:9' })).toThrow(
      /createLogisticsClient: option "fleetApiKey" is required/,
    );
    expect(() => createLogisticsClient({ fleetBaseUrl: 'not a url', fleetApiKey: FLEET_API_KEY })).toThrow(
      /createLogisticsClient: option "fleetBaseUrl" must be an absolute http\(s\) URL/,
    );
    expect(() => createLogisticsClient({ baseUrl: 'ftp://host', clientId: CLIENT_ID, clientSecret: CLIENT_SECRET })).toThrow(
      /createLogisticsClient: option "baseUrl" must be an http\(s\) URL/,
    );
    expect(() => createLogisticsClient({ baseUrl: 'http://127.0.0.1:9', clientId: CLIENT_ID, clientSecret: '' })).toThrow(
      /createLogisticsClient: option "clientSecret" is required/,
    );
    expect(() => createLogisticsClient({ authUrl: 'http://127.0.0.1:9', clientId: CLIENT_ID, clientSecret: CLIENT_SECRET })).toThrow(
      /createLogisticsClient: option "baseUrl" is required/,
    );
  });

  it('fails on an unset variable passed as it is (undefined), naming the option and its LP_* variable, never the value', async () => {
    const unset: Record<string, string | undefined> = {};
    expect(() => createFleetClient({ baseUrl: unset.LP_FLEET_BASE_URL, fleetApiKey: FLEET_API_KEY })).toThrow(
      new TypeError(
        'createFleetClient: option "baseUrl" is required (a non-empty string), got undefined; from the environment? set LP_FLEET_BASE_URL',
      ),
    );
    expect(() => createLogisticsClient({ fleetBaseUrl: 'http://127.0.0.1:9', fleetApiKey: unset.LP_FLEET_API_KEY })).toThrow(
      new TypeError(
        'createLogisticsClient: option "fleetApiKey" is required (a non-empty string), got undefined; from the environment? set LP_FLEET_API_KEY',
      ),
    );
    expect(() => createTokenProvider({ baseUrl: 'http://127.0.0.1:9', clientId: CLIENT_ID, clientSecret: '' })).toThrow(
      new TypeError(
        'createTokenProvider: option "clientSecret" is required (a non-empty string), got an empty string; from the environment? set LP_CLIENT_SECRET',
      ),
    );
    await expect(
      buildAuthorizationUrl({ authUrl: 'http://127.0.0.1:9', clientId: CLIENT_ID, redirectUri: unset.LP_REDIRECT_URI, scope: 's' }),
    ).rejects.toThrow(
      'buildAuthorizationUrl: option "redirectUri" is required (a non-empty string), got undefined; from the environment? set LP_REDIRECT_URI',
    );
    // An API left unconfigured names its variables at its first call.
    const fleetOnly = createLogisticsClient({ fleetBaseUrl: 'http://127.0.0.1:9', fleetApiKey: FLEET_API_KEY, baseUrl: unset.LP_BASE_URL });
    expect(() => fleetOnly.carriers.GET).toThrow(
      'createLogisticsClient: option "baseUrl" is required for the carriers API; from the environment? set LP_BASE_URL',
    );
    // A value of another type is named by its type; a credential's value never appears.
    expect(() => createFleetClient({ baseUrl: 'http://127.0.0.1:9', fleetApiKey: 42 as unknown as string })).toThrow(
      new TypeError('createFleetClient: option "fleetApiKey" is required (a non-empty string), got a value of type number'),
    );
    expect(() => createLogisticsClient({ baseUrl: 'http://127.0.0.1:9', clientId: CLIENT_ID, clientSecret: ' ' })).toThrow(
      /got an empty string/,
    );
  });

  it('gives the fleet client only the fleet key: no client id, client secret or subscription key reaches a fleet request', async () => {
    server = await tokenAndFleetServer();
    const { fetch, sent } = recordingFetch();
    const lp = createLogisticsClient({
      baseUrl: server.origin,
      authUrl: server.origin,
      fleetBaseUrl: `${server.origin}/fleet`,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      scope: 'carriers.milestones',
      subscriptionKey: SUBSCRIPTION_KEY,
      fleetApiKey: FLEET_API_KEY,
      fetch,
    });
    await lp.getToken();
    await lp.fleet.GET('/vehicles');
    const fleetRequests = sent.filter((request) => request.url.startsWith(`${server!.origin}/fleet/`));
    expect(fleetRequests).toHaveLength(1);
    const [request] = fleetRequests;
    expect(request!.headers['api-key']).toBe(FLEET_API_KEY);
    const seen = JSON.stringify(request);
    for (const credential of [CLIENT_ID, CLIENT_SECRET, SUBSCRIPTION_KEY, 'token-1']) expect(seen.includes(credential)).toBe(false);
    // The recording fetch does see the client secret, in the token request: the check above can fail.
    expect(sent.some((sentRequest) => sentRequest.body.includes(encodeURIComponent(CLIENT_SECRET)))).toBe(true);
  });
});

describe('lp.getToken()', () => {
  it('returns the token info, cached until renewal, without asking for the credentials again', async () => {
    let time = 1_000_000;
    server = await tokenAndFleetServer();
    const lp = createLogisticsClient({ baseUrl: server.origin, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, now: () => time });
    const first = await lp.getToken();
    expect(first).toMatchObject({ accessToken: 'token-1', tokenType: 'Bearer', expiresInSeconds: 3600, expiresAt: 1_000_000 + 3_600_000 });
    expect((await lp.getToken()).accessToken).toBe('token-1');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.body).toContain('grant_type=client_credentials');
    time = first.refreshAt;
    expect((await lp.getToken()).accessToken).toBe('token-2');
    expect(server.requests).toHaveLength(2);
  });

  it('sends the token request through lp.token, so a middleware on lp.token sees it', async () => {
    server = await tokenAndFleetServer();
    const lp = createLogisticsClient({ baseUrl: server.origin, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
    const seen: string[] = [];
    lp.token.use({
      onRequest({ request }) {
        seen.push(`${request.method} ${new URL(request.url).pathname}`);
        return undefined;
      },
    });
    await lp.getToken();
    expect(seen).toEqual(['POST /token']);
  });
});
