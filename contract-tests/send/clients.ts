// The published client, built from the target's LP_* settings and sending through the contract fetch: positive
// flows go through it (we use what partners use). Retries are off so that every answer the target gives is seen; what
// the client still sends again (the replay after a 401 with a renewed token, a re-send on a new connection) it tells
// through its onResend, and each re-sent exchange carries that event (`resendOf`) for the judge to note.
// A positive check that the target refuses fails with a message that names the LP_* variables to check, and without
// a stack trace into the client's sources: the failure is the target's answer, not a bug of the kit.
import {
  ApiError,
  createFleetClient,
  createLogisticsClient,
  createTokenProvider,
  type FleetClient,
  type LogisticsClient,
  type ResendEvent,
  type TokenProvider,
} from '../../src/index.ts';
import { CREDENTIALS } from '../model/credentials.ts';
import { type Exchange, type ExchangeMeta, exchange } from './fetch.ts';
import { specRegistry, registryEntry } from '../model/operations.ts';
import { couldNotJudgeOf } from './transport.ts';
import type { Redactor } from './redact.ts';
import type { Run } from './run.ts';
import { required } from './target.ts';

/** The re-send the client has just announced: it hands that request to its fetch at once, before anything else runs
 * (src/client-options.ts, onResend), so the next request clientFetch is given is that re-send. */
let announced: ResendEvent | undefined;
/** The client's event of each re-sent exchange, by the exchange's meta (the one fetch hands its listeners that object). */
const resends = new WeakMap<ExchangeMeta, ResendEvent>();

/** The contract fetch of a run, for the client: each exchange marked as the client's, and a re-send with its event. */
const clientFetch =
  (run: Run) =>
  async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const meta: ExchangeMeta = { client: true };
    if (announced) resends.set(meta, announced);
    announced = undefined;
    return (await exchange(run, input, init, meta)).response;
  };

/** What the published client said of this exchange when it sent it again (undefined: sent once, or not by the client). */
export const resendOf = (seen: Exchange): ResendEvent | undefined => resends.get(seen.meta);

/** The client's transport options for a run: its requests go through the run's contract fetch. The contract fetch's
 * transport times out, retries and waits out throttling; the client's own timer only backs it up. */
export const clientTransport = (run: Run) => ({
  fetch: clientFetch(run),
  retry: { attempts: 1 },
  timeoutMs: 600_000,
  onResend: (event: ResendEvent) => {
    announced = event;
  },
});

/** What to check when a call of an operation is refused as unauthenticated (`operation`: ApiError's `METHOD /path`):
 * the LP_* variables behind the credentials the registry says it carries, and its server's. */
function credentialsToCheck(operation: string): string | undefined {
  const entry = specRegistry().find((e) => `${e.operation.method} ${e.operation.path}` === operation);
  if (!entry) return undefined;
  const names = [...new Set([...entry.credentials, ...entry.optional].flatMap((id) => CREDENTIALS[id].variables))].filter(
    (name) => name !== entry.operation.baseVariable,
  );
  return `${names.join(', ')} (and that ${entry.operation.baseVariable} is the address they belong to)`;
}

/** A refused positive check, told in one line: the stack would only point into the client's error handling. */
export class CheckFailure extends Error {
  override readonly name = 'CheckFailure';

  constructor(message: string) {
    super(message);
    this.stack = `${this.name}: ${message}`;
  }
}

/** Turns the client's ApiError into a CheckFailure naming the next step (redacted); other errors pass unchanged. */
function explain(redactor: Redactor, error: unknown): unknown {
  // A request the transport could not get judged is "could not judge", never a refusal of the check.
  const unjudged = couldNotJudgeOf(error);
  if (unjudged) return unjudged;
  if (!(error instanceof ApiError)) return error;
  const next =
    error.status === 401
      ? `: the target refused the credentials; check ${credentialsToCheck(error.operation) ?? 'the LP_* credentials of this API'}`
      : error.status === 403
        ? ': the credentials were accepted but not allowed this call; check that the application is approved for this API product'
        : '';
  return new CheckFailure(redactor.redact(`${error.message}${next}`));
}

/** Awaits a call of the published client, explaining a refusal (see `explain`). */
export async function explaining<T>(redactor: Redactor, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw explain(redactor, error);
  }
}

/** The same client (or token provider), with every call's refusal explained; nested clients too. */
export function explained<T extends object>(redactor: Redactor, client: T): T {
  return new Proxy(client, {
    get(object, property, receiver) {
      const value: unknown = Reflect.get(object, property, receiver);
      if (typeof value === 'function') {
        return (...args: unknown[]) => {
          try {
            const result: unknown = value.apply(object, args);
            return result instanceof Promise ? explaining(redactor, result) : result;
          } catch (error) {
            throw explain(redactor, error);
          }
        };
      }
      return value && typeof value === 'object' ? explained(redactor, value) : value;
    },
  });
}

/** The published client of the run's target, sending through the run. */
export function logisticsClient(run: Run): LogisticsClient {
  const { target } = run;
  const env = target.env;
  return explained(
    run.redactor,
    createLogisticsClient({
      ...clientTransport(run),
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
export function fleetClient(run: Run): FleetClient {
  const { target } = run;
  return explained(
    run.redactor,
    createFleetClient({
      ...clientTransport(run),
      baseUrl: required(target, 'LP_FLEET_BASE_URL'),
      fleetApiKey: required(target, 'LP_FLEET_API_KEY'),
    }),
  );
}

/** A client-credentials token source for one endpoint; each call gives a provider with an empty cache (a fresh token). */
export function tokenProvider(run: Run, endpoint: 'service' | 'identity-provider'): TokenProvider {
  const { target } = run;
  const env = target.env;
  return explained(
    run.redactor,
    createTokenProvider({
      ...clientTransport(run),
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

type Caller = Record<string, (path: string, init?: unknown) => Promise<{ data?: unknown; response: Response }>>;

/** Calls an operation through the published client (one of its openapi-fetch clients), method and path from the
 * registry: a check names the operation, never its path. */
export function callOperation<T = unknown>(
  client: object,
  operationId: string,
  init: Record<string, unknown> = {},
): Promise<{ data?: T; response: Response }> {
  const { method, path } = registryEntry(operationId).operation;
  return (client as Caller)[method]!(path, init) as Promise<{ data?: T; response: Response }>;
}
