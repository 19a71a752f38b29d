// The published client, built from the target's LP_* settings and sending through the contract fetch: positive
// flows go through it (we use what partners use). Retries are off so that every answer the target gives is seen.
// A positive check that the target refuses fails with a message that names the LP_* variables to check, and without
// a stack trace into the client's sources: the failure is the target's answer, not a bug of the kit.
import {
  ApiError,
  createFleetClient,
  createLogisticsClient,
  createTokenProvider,
  type FleetClient,
  type LogisticsClient,
  type TokenProvider,
} from '../../src/index.ts';
import { contractFetch, redactor } from './fetch.ts';
import { couldNotJudgeOf } from './transport.ts';
import { required, type Target } from './target.ts';

// The contract fetch's transport times out, retries and waits out throttling; the client's own timer only backs it up.
const transport = { fetch: contractFetch, retry: { attempts: 1 }, timeoutMs: 600_000 };

/** What to check when a call of an operation is refused as unauthenticated (keys: ApiError's `METHOD /path`). */
const CREDENTIALS_OF: Record<string, string> = {
  'POST /token': 'LP_CLIENT_ID and LP_CLIENT_SECRET (the client credentials of the service token endpoint at LP_BASE_URL)',
  'POST /oauth2/default/v1/token':
    'LP_CLIENT_ID, LP_CLIENT_SECRET, LP_SUBSCRIPTION_KEY and LP_SCOPE (the identity provider at LP_AUTH_URL)',
  'POST /v1/load-milestone-events': 'LP_CLIENT_ID and LP_CLIENT_SECRET (they obtain the bearer token sent) and LP_SUBSCRIPTION_KEY',
  'GET /vehicles': 'LP_FLEET_API_KEY (and that LP_FLEET_BASE_URL is the fleet API the key belongs to)',
  'GET /vehicles/{vehicleNumber}': 'LP_FLEET_API_KEY (and that LP_FLEET_BASE_URL is the fleet API the key belongs to)',
};

/** A refused positive check, told in one line: the stack would only point into the client's error handling. */
export class CheckFailure extends Error {
  override readonly name = 'CheckFailure';

  constructor(message: string) {
    super(message);
    this.stack = `${this.name}: ${message}`;
  }
}

/** Turns the client's ApiError into a CheckFailure naming the next step; other errors pass unchanged. */
function explain(error: unknown): unknown {
  // A request the transport could not get judged is "could not judge", never a refusal of the check.
  const unjudged = couldNotJudgeOf(error);
  if (unjudged) return unjudged;
  if (!(error instanceof ApiError)) return error;
  const next =
    error.status === 401
      ? `: the target refused the credentials; check ${CREDENTIALS_OF[error.operation] ?? 'the LP_* credentials of this API'}`
      : error.status === 403
        ? ': the credentials were accepted but not allowed this call; check that the application is approved for this API product'
        : '';
  return new CheckFailure(redactor.redact(`${error.message}${next}`));
}

/** Awaits a call of the published client, explaining a refusal (see `explain`). */
export async function explaining<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw explain(error);
  }
}

/** The same client (or token provider), with every call's refusal explained; nested clients too. */
export function explained<T extends object>(client: T): T {
  return new Proxy(client, {
    get(object, property, receiver) {
      const value: unknown = Reflect.get(object, property, receiver);
      if (typeof value === 'function') {
        return (...args: unknown[]) => {
          try {
            const result: unknown = value.apply(object, args);
            return result instanceof Promise ? explaining(result) : result;
          } catch (error) {
            throw explain(error);
          }
        };
      }
      return value && typeof value === 'object' ? explained(value) : value;
    },
  });
}

export function logisticsClient(target: Target): LogisticsClient {
  const env = target.env;
  return explained(
    createLogisticsClient({
      ...transport,
      baseUrl: required(target, 'LP_BASE_URL'),
      authUrl: env.LP_AUTH_URL,
      fleetBaseUrl: env.LP_FLEET_BASE_URL,
      clientId: env.LP_CLIENT_ID,
      clientSecret: env.LP_CLIENT_SECRET,
      scope: env.LP_SCOPE,
      subscriptionKey: env.LP_SUBSCRIPTION_KEY,
      fleetApiKey: env.LP_FLEET_API_KEY,
    }),
  );
}

/** The fleet client alone: a partner may configure only the fleet settings. */
export function fleetClient(target: Target): FleetClient {
  return explained(
    createFleetClient({ ...transport, baseUrl: required(target, 'LP_FLEET_BASE_URL'), fleetApiKey: required(target, 'LP_FLEET_API_KEY') }),
  );
}

/** A client-credentials token source for one endpoint; each call gives a provider with an empty cache (a fresh token). */
export function tokenProvider(target: Target, endpoint: 'service' | 'identity-provider'): TokenProvider {
  const env = target.env;
  return explained(
    createTokenProvider({
      ...transport,
      tokenEndpoint: endpoint,
      baseUrl: env.LP_BASE_URL,
      authUrl: env.LP_AUTH_URL,
      clientId: required(target, 'LP_CLIENT_ID'),
      clientSecret: required(target, 'LP_CLIENT_SECRET'),
      scope: env.LP_SCOPE,
      subscriptionKey: env.LP_SUBSCRIPTION_KEY,
    }),
  );
}

export { transport as clientTransport };
