// Type tests of the options a partner fills from the environment. `process.env.LP_X` is `string | undefined`, and the
// tsconfig `tsc --init` writes since TypeScript 5.9 turns on exactOptionalPropertyTypes, under which `option?: string`
// refuses `undefined`: every option that may come from the environment takes `string | undefined` explicitly, and a
// missing value fails at run time naming the option (test/client/logistics-client.test.ts). `npm run typecheck` compiles
// this file with exactOptionalPropertyTypes on (package/consumers/tsconfig.json) as well as off (the root tsconfig).
import { describe, expectTypeOf, it } from 'vitest';
import {
  buildAuthorizationUrl,
  createCarriersClient,
  createFleetClient,
  createLogisticsClient,
  createTokenClient,
  createTokenProvider,
  exchangeAuthorizationCode,
  type LogisticsClientOptions,
  type TransportOptions,
} from '../../src/index.ts';

const env = process.env;

describe('options from the environment (string | undefined)', () => {
  it('createLogisticsClient takes every LP_* variable as it is', () => {
    const lp = createLogisticsClient({
      baseUrl: env.LP_BASE_URL,
      authUrl: env.LP_AUTH_URL,
      fleetBaseUrl: env.LP_FLEET_BASE_URL,
      clientId: env.LP_CLIENT_ID,
      clientSecret: env.LP_CLIENT_SECRET,
      scope: env.LP_SCOPE,
      subscriptionKey: env.LP_SUBSCRIPTION_KEY,
      fleetApiKey: env.LP_FLEET_API_KEY,
      tokenEndpoint: env.LP_TOKEN_ENDPOINT === 'identity-provider' ? 'identity-provider' : undefined,
    });
    expectTypeOf(lp.getToken).toBeFunction();
    // And as a typed options object, built up before the call.
    const options: LogisticsClientOptions = { fleetBaseUrl: env.LP_FLEET_BASE_URL, fleetApiKey: env.LP_FLEET_API_KEY };
    expectTypeOf(createLogisticsClient(options).fleet.GET).toBeFunction();
  });

  it('each lower-level factory takes its settings as string | undefined', () => {
    createFleetClient({ baseUrl: env.LP_FLEET_BASE_URL, fleetApiKey: env.LP_FLEET_API_KEY });
    createCarriersClient({
      baseUrl: env.LP_BASE_URL,
      clientId: env.LP_CLIENT_ID,
      clientSecret: env.LP_CLIENT_SECRET,
      scope: env.LP_SCOPE,
      subscriptionKey: env.LP_SUBSCRIPTION_KEY,
      tokenProvider: undefined,
    });
    createTokenClient({ baseUrl: env.LP_BASE_URL, authUrl: env.LP_AUTH_URL, subscriptionKey: env.LP_SUBSCRIPTION_KEY });
    createTokenProvider({
      tokenEndpoint: 'identity-provider',
      authUrl: env.LP_AUTH_URL,
      clientId: env.LP_CLIENT_ID,
      clientSecret: env.LP_CLIENT_SECRET,
      scope: env.LP_SCOPE,
      subscriptionKey: env.LP_SUBSCRIPTION_KEY,
    });
  });

  it('the authorization code helpers take the variables and the codeVerifier of their own result', async () => {
    const request = await buildAuthorizationUrl({
      authUrl: env.LP_AUTH_URL,
      clientId: env.LP_CLIENT_ID,
      redirectUri: env.LP_REDIRECT_URI,
      scope: env.LP_SCOPE,
      pkce: env.LP_PKCE === undefined ? undefined : true,
    });
    // codeVerifier is optional in the result (no PKCE, no verifier): passed on as it is.
    expectTypeOf(request.codeVerifier).toEqualTypeOf<string | undefined>();
    await exchangeAuthorizationCode({
      authUrl: env.LP_AUTH_URL,
      clientId: env.LP_CLIENT_ID,
      clientSecret: env.LP_CLIENT_SECRET,
      subscriptionKey: env.LP_SUBSCRIPTION_KEY,
      redirectUri: request.redirectUri,
      code: 'from-the-callback',
      codeVerifier: request.codeVerifier,
    });
  });

  it('transport options from a settings object whose fields are optional', () => {
    const settings: { timeoutMs?: number; maxResponseBytes?: number; attempts?: number; retryWrites?: boolean } = {};
    const transport: TransportOptions = {
      timeoutMs: settings.timeoutMs,
      maxResponseBytes: settings.maxResponseBytes,
      retry: { attempts: settings.attempts, retryNonIdempotent: settings.retryWrites, baseDelayMs: undefined },
    };
    createFleetClient({ baseUrl: env.LP_FLEET_BASE_URL, fleetApiKey: env.LP_FLEET_API_KEY, ...transport });
  });

  it('still refuses what is wrong: a required key left out, a value of another type', () => {
    // @ts-expect-error: baseUrl is required (its value may be undefined, the key may not be missing)
    createFleetClient({ fleetApiKey: env.LP_FLEET_API_KEY });
    // @ts-expect-error: clientSecret is required by a token provider
    createTokenProvider({ baseUrl: env.LP_BASE_URL, clientId: env.LP_CLIENT_ID });
    // @ts-expect-error: a number of milliseconds, not a string from the environment
    createLogisticsClient({ fleetBaseUrl: env.LP_FLEET_BASE_URL, timeoutMs: env.LP_TIMEOUT_MS });
    // @ts-expect-error: 'service' or 'identity-provider'
    createLogisticsClient({ baseUrl: env.LP_BASE_URL, tokenEndpoint: 'password' });
  });
});
