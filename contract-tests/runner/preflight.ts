// Before the checks of a live run: does each configured API answer, and does it accept the partner's own credentials?
// A target that refuses them, or that cannot be reached, has told us nothing about the contract: the run ends as
// "could not judge" (exit 2) with one line per API naming the LP_* variable to check, instead of a green run full of
// skips or a red one full of refusals. Calls go through the published client (what partners use) over the suite's
// transport (timeouts, retries, throttling, the proxy HTTPS_PROXY names), outside vitest. Their round trip decides how
// many test files the run takes on at once, unless the partner said (LP_CONTRACT_WORKERS, --workers).
import { leastRequestRoundTrip } from '../../src/connections.ts';
import { ApiError, createFleetClient, createTokenProvider } from '../../src/index.ts';
import type { TargetEnv } from '../../tools/targets.ts';
import { registryEntry } from '../model/operations.ts';
import { type Redactor, redactorFromEnvironment } from '../send/redact.ts';
import { couldNotJudgeOf, type Transport, workersFor } from '../send/transport.ts';

export interface PreflightResult {
  api: string;
  /** ok: answered and accepted the credentials (or none were configured to try). */
  ok: boolean;
  /** One line: what was tried and, when not ok, what to check. */
  line: string;
}

interface Probe {
  api: string;
  /** The base URL variable. */
  base: 'LP_BASE_URL' | 'LP_AUTH_URL' | 'LP_FLEET_BASE_URL';
  /** The credential variables the probe sends; the probe runs only when all are set. */
  credentials: (keyof TargetEnv)[];
  /** What to name when the target refuses them. */
  check: string;
  call(env: TargetEnv, fetch: typeof globalThis.fetch): Promise<unknown>;
}

const transportOf = (fetch: typeof globalThis.fetch) => ({ fetch, retry: { attempts: 1 }, timeoutMs: 600_000 });

const PROBES: Probe[] = [
  {
    api: 'token service (POST {base_url}/token)',
    base: 'LP_BASE_URL',
    credentials: ['LP_CLIENT_ID', 'LP_CLIENT_SECRET'],
    check: 'LP_CLIENT_ID and LP_CLIENT_SECRET',
    call: (env, fetch) =>
      createTokenProvider({
        ...transportOf(fetch),
        tokenEndpoint: 'service',
        baseUrl: env.LP_BASE_URL,
        clientId: env.LP_CLIENT_ID!,
        clientSecret: env.LP_CLIENT_SECRET!,
        scope: env.LP_SCOPE,
      }).getToken(),
  },
  {
    api: 'identity provider (POST {auth_url}/oauth2/default/v1/token)',
    base: 'LP_AUTH_URL',
    credentials: ['LP_CLIENT_ID', 'LP_CLIENT_SECRET', 'LP_SUBSCRIPTION_KEY'],
    check: 'LP_CLIENT_ID, LP_CLIENT_SECRET, LP_SUBSCRIPTION_KEY and LP_SCOPE',
    call: (env, fetch) =>
      createTokenProvider({
        ...transportOf(fetch),
        tokenEndpoint: 'identity-provider',
        authUrl: env.LP_AUTH_URL,
        clientId: env.LP_CLIENT_ID!,
        clientSecret: env.LP_CLIENT_SECRET!,
        scope: env.LP_SCOPE,
        subscriptionKey: env.LP_SUBSCRIPTION_KEY,
      }).getToken(),
  },
  {
    api: 'fleet API (GET {fleet_base_url}/vehicles)',
    base: 'LP_FLEET_BASE_URL',
    credentials: ['LP_FLEET_API_KEY'],
    check: 'LP_FLEET_API_KEY (and that LP_FLEET_BASE_URL is the fleet API the key belongs to)',
    call: (env, fetch) => {
      // The list's method and path from the operations registry, as every request of the suite.
      const { method, path } = registryEntry('listVehicles').operation;
      const client = createFleetClient({ ...transportOf(fetch), baseUrl: env.LP_FLEET_BASE_URL!, fleetApiKey: env.LP_FLEET_API_KEY! });
      return (client as unknown as Record<string, (path: string) => Promise<unknown>>)[method]!(path);
    },
  },
];

/** OAuth error codes (RFC 6749 5.2) that mean "these credentials": the client, or the scope it asked for. */
const CREDENTIAL_ERRORS = new Set(['invalid_client', 'unauthorized_client', 'invalid_scope']);

function verdictOfRefusal(probe: Probe, error: ApiError): string | undefined {
  const code = (error.body as { error?: unknown } | undefined)?.error;
  if (error.status === 401 || error.status === 403 || (error.status === 400 && typeof code === 'string' && CREDENTIAL_ERRORS.has(code)))
    return `refused the configured credentials (${error.status}${typeof code === 'string' ? ` ${code}` : ''}): check ${probe.check}`;
  if (error.status === 404) return `answered 404 for the documented address: check ${probe.base} (a missing or extra path prefix?)`;
  // Any other answer (a 400 of its own kind, a 5xx) is the target's behaviour: the checks judge it.
  return undefined;
}

/** One probe's line; undefined when its API is not configured. */
async function probeOne(
  probe: Probe,
  env: TargetEnv,
  fetch: typeof globalThis.fetch,
  transport: Transport,
  redactor: Redactor,
): Promise<PreflightResult | undefined> {
  const base = env[probe.base];
  if (!base) return undefined;
  const proxy = URL.canParse(base) ? transport.proxyOf(base) : undefined;
  const where = `${probe.api} at ${probe.base}=${base}${proxy ? ` (through the proxy ${proxy})` : ''}`;
  const unset = probe.credentials.filter((name) => !env[name]);
  if (unset.length) return { api: probe.api, ok: true, line: `${where}: not probed (${unset.join(', ')} not set)` };
  try {
    await probe.call(env, fetch);
    return { api: probe.api, ok: true, line: `${where}: answers and accepts the configured credentials` };
  } catch (error) {
    const unjudged = couldNotJudgeOf(error);
    const kind = unjudged?.kind;
    const why = unjudged
      ? `${kind === 'throttled' ? 'stayed throttled' : kind === 'tls' ? 'could not be reached over TLS' : 'could not be reached'}: ${unjudged.message}`
      : error instanceof ApiError
        ? verdictOfRefusal(probe, error)
        : `the probe failed: ${(error as Error).message}`;
    return why === undefined
      ? { api: probe.api, ok: true, line: `${where}: answers (${(error as ApiError).status}; the checks judge that answer)` }
      : { api: probe.api, ok: false, line: redactor.redact(`${where} ${why}`) };
  }
}

/** Loopback hosts: a target there (the sandbox, a proxy in front of it) answers from this machine's cores. */
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** Whether every configured API is reached directly at a loopback address, not through a proxy. */
function onThisMachine(env: TargetEnv, transport: Transport): boolean {
  const bases = PROBES.map((probe) => env[probe.base]).filter((base): base is string => Boolean(base));
  return bases.length > 0 && bases.every((base) => URL.canParse(base) && LOOPBACK.test(new URL(base).hostname) && !transport.proxyOf(base));
}

/** What the preflight found: a line per API, and the test files to run side by side when the partner named none. */
export interface Preflight {
  results: PreflightResult[];
  workers: number | undefined;
}

/**
 * Probes each API the LP_* settings configure; APIs without a base URL are left out (their checks skip). Unless the
 * partner named the workers (`workersNamed`: --workers or LP_CONTRACT_WORKERS), they are chosen from the round trip met.
 */
export async function preflight(env: TargetEnv, transport: Transport, workersNamed = true): Promise<Preflight> {
  const redactor = redactorFromEnvironment(env);
  const fetch = (async (input: Request | string | URL, init?: RequestInit) =>
    (await transport.send(new Request(input, init))).response) as typeof globalThis.fetch;
  // Side by side: a far target costs one round trip (and a connection's setup), not three.
  const probed = await Promise.all(PROBES.map((probe) => probeOne(probe, env, fetch, transport, redactor)));
  const results = probed.filter((result): result is PreflightResult => result !== undefined);
  // The round trip of a request on an open connection: a new connection's TCP, TLS or tunnel would count two or three.
  const least = leastRequestRoundTrip();
  if (workersNamed || !Number.isFinite(least)) return { results, workers: undefined };
  const here = onThisMachine(env, transport);
  const workers = workersFor(least, undefined, here);
  const line = `round trip ${Math.round(least)} ms at least${here ? ', the target on this machine' : ''}: ${workers} test files run side by side (--workers, LP_CONTRACT_WORKERS)`;
  results.push({ api: 'round trip', ok: true, line });
  return { results, workers };
}
