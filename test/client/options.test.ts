// Every option a factory of the package checks, as a caller who forgot one or mistyped it reads the error: the factory's
// name, the option's name, what was given instead (never the value: it may be a credential), and the LP_* variable the
// package README's samples read it from. Also what a base URL may not carry, its trailing slashes, which APIs a
// logistics client builds at once and which at their first use, and the errors of the authorization callback.
import { describe, expect, it } from 'vitest';
import {
  AuthorizationError,
  buildAuthorizationUrl,
  createCarriersClient,
  createLogisticsClient,
  createTokenClient,
  exchangeAuthorizationCode,
  parseAuthorizationCallback,
} from '../../src/index.ts';
import { sendJson, startLoopbackServer, VEHICLE } from './loopback-server.ts';

const HOST = 'http://127.0.0.1:9';

/** The message of what `build` throws or rejects with. */
async function failure(build: () => unknown): Promise<string> {
  try {
    await build();
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as Error).message;
  }
  return 'no error';
}

const missing = (factory: string, option: string, variable?: string) =>
  `${factory}: option "${option}" is required (a non-empty string), got undefined${variable ? `; from the environment? set ${variable}` : ''}`;

describe('a missing option is named with its variable', () => {
  it('createCarriersClient: baseUrl, clientId, clientSecret', async () => {
    expect(await failure(() => createCarriersClient({ baseUrl: undefined, clientId: 'app', clientSecret: 's' }))).toBe(
      missing('createCarriersClient', 'baseUrl', 'LP_BASE_URL'),
    );
    expect(await failure(() => createCarriersClient({ baseUrl: HOST, clientId: undefined, clientSecret: 's' }))).toBe(
      missing('createCarriersClient', 'clientId', 'LP_CLIENT_ID'),
    );
  });

  it('buildAuthorizationUrl: authUrl, clientId, scope', async () => {
    const base = { authUrl: HOST, clientId: 'app', redirectUri: 'http://127.0.0.1:8765/cb', scope: 's' };
    expect(await failure(() => buildAuthorizationUrl({ ...base, authUrl: undefined }))).toBe(
      missing('buildAuthorizationUrl', 'authUrl', 'LP_AUTH_URL'),
    );
    expect(await failure(() => buildAuthorizationUrl({ ...base, clientId: undefined }))).toBe(
      missing('buildAuthorizationUrl', 'clientId', 'LP_CLIENT_ID'),
    );
    expect(await failure(() => buildAuthorizationUrl({ ...base, scope: undefined }))).toBe(
      missing('buildAuthorizationUrl', 'scope', 'LP_SCOPE'),
    );
  });

  it('exchangeAuthorizationCode: each of its options, the code without a variable', async () => {
    const base = {
      authUrl: HOST,
      clientId: 'app',
      clientSecret: 's',
      subscriptionKey: 'k',
      code: 'c',
      redirectUri: 'http://127.0.0.1:8765/cb',
    };
    const variables: Record<string, string | undefined> = {
      authUrl: 'LP_AUTH_URL',
      clientId: 'LP_CLIENT_ID',
      clientSecret: 'LP_CLIENT_SECRET',
      subscriptionKey: 'LP_SUBSCRIPTION_KEY',
      code: undefined,
      redirectUri: 'LP_REDIRECT_URI',
    };
    for (const [option, variable] of Object.entries(variables))
      expect(await failure(() => exchangeAuthorizationCode({ ...base, [option]: undefined })), option).toBe(
        missing('exchangeAuthorizationCode', option, variable),
      );
  });

  it('createLogisticsClient: the host of fleetBaseUrl; the token provider at once when clientId or clientSecret is given', async () => {
    expect(await failure(() => createLogisticsClient({ fleetApiKey: 'key' }))).toBe(
      missing('createLogisticsClient', 'fleetBaseUrl', 'LP_FLEET_BASE_URL'),
    );
    expect(await failure(() => createLogisticsClient({ baseUrl: HOST, clientId: 'app' }))).toBe(
      missing('createLogisticsClient', 'clientSecret', 'LP_CLIENT_SECRET'),
    );
    expect(await failure(() => createLogisticsClient({ baseUrl: HOST, clientSecret: 's' }))).toBe(
      missing('createLogisticsClient', 'clientId', 'LP_CLIENT_ID'),
    );
    expect(
      await failure(() => createLogisticsClient({ authUrl: HOST, tokenEndpoint: 'identity-provider', clientId: 'app', clientSecret: 's' })),
    ).toBe(missing('createLogisticsClient', 'scope', 'LP_SCOPE'));
    expect(
      await failure(() =>
        createLogisticsClient({ authUrl: HOST, tokenEndpoint: 'identity-provider', clientId: 'app', clientSecret: 's', scope: 's' }),
      ),
    ).toBe(missing('createLogisticsClient', 'subscriptionKey', 'LP_SUBSCRIPTION_KEY'));
    // Neither: a fleet-only consumer builds no token provider, and one asked for a token hears which option is missing.
    const fleetOnly = createLogisticsClient({ fleetBaseUrl: HOST, fleetApiKey: 'key' });
    expect(await failure(() => fleetOnly.getToken())).toBe(missing('createLogisticsClient', 'clientId', 'LP_CLIENT_ID'));
  });

  it('createLogisticsClient: an API without its host, at its first use', async () => {
    const fleetOnly = createLogisticsClient({ fleetBaseUrl: HOST, fleetApiKey: 'key' });
    expect(await failure(() => fleetOnly.token.POST)).toBe(
      'createLogisticsClient: option "baseUrl" or "authUrl" is required for the token API; from the environment? set LP_BASE_URL or LP_AUTH_URL',
    );
    const carriersOnly = createLogisticsClient({ baseUrl: HOST, clientId: 'app', clientSecret: 's' });
    expect(await failure(() => carriersOnly.fleet.GET)).toBe(
      'createLogisticsClient: option "fleetBaseUrl" is required for the fleet API (with "fleetApiKey"); from the environment? set LP_FLEET_BASE_URL and LP_FLEET_API_KEY',
    );
  });

  it('createTokenClient: a host for either endpoint', async () => {
    expect(await failure(() => createTokenClient({}))).toBe('createTokenClient: option "baseUrl" or "authUrl" is required');
    expect(await failure(() => createTokenClient({ baseUrl: '' }))).toBe('createTokenClient: option "baseUrl" or "authUrl" is required');
  });
});

describe('a base URL', () => {
  it('is an absolute http(s) URL, named by its option in each factory', async () => {
    expect(await failure(() => createTokenClient({ baseUrl: 'not a url' }))).toBe(
      'createTokenClient: option "baseUrl" must be an absolute http(s) URL',
    );
    expect(await failure(() => createTokenClient({ authUrl: 'not a url' }))).toBe(
      'createTokenClient: option "authUrl" must be an absolute http(s) URL',
    );
    expect(await failure(() => createLogisticsClient({ authUrl: 'ftp://idp.example' }))).toBe(
      'createLogisticsClient: option "authUrl" must be an http(s) URL',
    );
    const exchange = {
      authUrl: 'not a url',
      clientId: 'a',
      clientSecret: 's',
      subscriptionKey: 'k',
      code: 'c',
      redirectUri: 'http://x/cb',
    };
    expect(await failure(() => exchangeAuthorizationCode(exchange))).toBe(
      'exchangeAuthorizationCode: option "authUrl" must be an absolute http(s) URL',
    );
  });

  it('carries no query or fragment', async () => {
    for (const baseUrl of ['https://fleet.example/api?tenant=a', 'https://fleet.example/api#top'])
      expect(await failure(() => createCarriersClient({ baseUrl, clientId: 'app', clientSecret: 's' })), baseUrl).toBe(
        'createCarriersClient: option "baseUrl" must not carry a query or fragment',
      );
  });

  it('may end in slashes: the paths of the API follow its prefix once', async () => {
    const server = await startLoopbackServer((_request, response) => sendJson(response, 200, [VEHICLE]));
    try {
      const lp = createLogisticsClient({ fleetBaseUrl: `${server.origin}/gateway/fleet///`, fleetApiKey: 'key' });
      await lp.fleet.GET('/vehicles');
      expect(server.requests.map((request) => request.url)).toEqual(['/gateway/fleet/vehicles']);
    } finally {
      await server.close();
    }
  });
});

describe('the authorization callback', () => {
  it('fails as an AuthorizationError with a message a user can act on', () => {
    const failed = (url: string) => {
      try {
        parseAuthorizationCallback(url, { state: 's-1' });
      } catch (error) {
        expect(error).toBeInstanceOf(AuthorizationError);
        const { name, message, code, description } = error as AuthorizationError;
        return { name, message, code, description };
      }
      return undefined;
    };
    expect(failed('http://127.0.0.1:8765/cb?code=abc&state=other')).toEqual({
      name: 'AuthorizationError',
      message: 'The authorization callback state does not match the state sent: possible cross-site request forgery; start again.',
      code: 'state_mismatch',
      description: undefined,
    });
    expect(failed('http://127.0.0.1:8765/cb?error=access_denied&error_description=The+user+said+no&state=s-1')).toMatchObject({
      message: 'The identity provider refused the authorization: access_denied (The user said no)',
      code: 'access_denied',
      description: 'The user said no',
    });
    expect(failed('http://127.0.0.1:8765/cb?error=server_error&state=s-1')).toMatchObject({
      message: 'The identity provider refused the authorization: server_error',
      description: undefined,
    });
    expect(failed('/cb?state=s-1')).toMatchObject({ message: 'The authorization callback carries no code.', code: 'missing_code' });
  });

  it('takes the URL as a string or as a URL', () => {
    expect(parseAuthorizationCallback(new URL('http://127.0.0.1:8765/cb?code=abc&state=s-1'), { state: 's-1' })).toEqual({
      code: 'abc',
      state: 's-1',
    });
  });
});
