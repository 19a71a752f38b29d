// Type tests of the transport option onResend: every factory takes it, the event's fields and reasons are exact, an
// async listener is accepted, and the event has no headers or body to read.
import { describe, expectTypeOf, it } from 'vitest';
import {
  createCarriersClient,
  createFleetClient,
  createLogisticsClient,
  createTokenClient,
  createTokenProvider,
  exchangeAuthorizationCode,
  type ResendEvent,
  type ResendListener,
  type ResendReason,
  type TransportOptions,
} from '../../src/index.ts';

const env = process.env;
const log: ResendListener = (event) => console.warn(`${event.operation} sent again (${event.reason})`);

describe('onResend', () => {
  it('types the event exactly', () => {
    expectTypeOf<ResendReason>().toEqualTypeOf<'retry' | 'renewed-credential' | 'new-connection'>();
    expectTypeOf<ResendEvent>().toEqualTypeOf<{
      reason: ResendReason;
      operation: string;
      method: string;
      url: string;
      attempt: number;
      status: number;
    }>();
    expectTypeOf<TransportOptions['onResend']>().toEqualTypeOf<ResendListener | undefined>();
  });

  it('is taken by every factory, as a function, an async one, or undefined', () => {
    createLogisticsClient({ fleetBaseUrl: env.LP_FLEET_BASE_URL, fleetApiKey: env.LP_FLEET_API_KEY, onResend: log });
    createFleetClient({ baseUrl: env.LP_FLEET_BASE_URL, fleetApiKey: env.LP_FLEET_API_KEY, onResend: async (event) => void event });
    createCarriersClient({ baseUrl: env.LP_BASE_URL, clientId: env.LP_CLIENT_ID, clientSecret: env.LP_CLIENT_SECRET, onResend: log });
    createTokenClient({ baseUrl: env.LP_BASE_URL, onResend: undefined });
    createTokenProvider({ baseUrl: env.LP_BASE_URL, clientId: env.LP_CLIENT_ID, clientSecret: env.LP_CLIENT_SECRET, onResend: log });
    void exchangeAuthorizationCode({
      authUrl: env.LP_AUTH_URL,
      clientId: env.LP_CLIENT_ID,
      clientSecret: env.LP_CLIENT_SECRET,
      subscriptionKey: env.LP_SUBSCRIPTION_KEY,
      redirectUri: env.LP_REDIRECT_URI,
      code: 'from-the-callback',
      onResend: log,
    });
  });

  it('refuses a listener of something else, and gives no headers or body to read', () => {
    // @ts-expect-error: the listener is given a ResendEvent, not a Request
    createFleetClient({ baseUrl: env.LP_FLEET_BASE_URL, fleetApiKey: env.LP_FLEET_API_KEY, onResend: (request: Request) => request });
    createFleetClient({
      baseUrl: env.LP_FLEET_BASE_URL,
      fleetApiKey: env.LP_FLEET_API_KEY,
      // @ts-expect-error: the event carries no headers (they hold the credentials)
      onResend: (event) => event.headers,
    });
    // @ts-expect-error: not a function
    createFleetClient({ baseUrl: env.LP_FLEET_BASE_URL, fleetApiKey: env.LP_FLEET_API_KEY, onResend: 'console.warn' });
  });
});
