// Before the checks of a live run: does each configured API answer, and does it accept the partner's own credentials?
// A target that refuses them, or that cannot be reached, has told us nothing about the contract: the run ends as
// "could not judge" (exit 2) with one line per API naming the LP_* variable to check, instead of a green run full of
// skips or a red one full of refusals. Calls go through the published client (what partners use) over the suite's
// transport (timeouts, retries, throttling, the proxy HTTPS_PROXY names), outside vitest. Their round trip decides how
// many test files the run takes on at once, unless the partner said (LP_CONTRACT_WORKERS, --workers).
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

/** The fleet list: a read, so the preflight may ask it again to measure the round trip (warmRoundTrip). */
const FLEET_PROBE: Probe = {
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
};

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
  FLEET_PROBE,
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

/** At most this many reads of the fleet list after the probes, to measure the round trip on a warm connection. */
const WARM_READS = 2;

/** The preflight's requests through the run's transport, each one's round trip noted. */
class TimedFetch {
  /** The least round trip of the requests so far, in ms (Infinity before the first answer). */
  least = Number.POSITIVE_INFINITY;
  /** The same of the requests sent once `quiet` settled, which this process's own start-up work delayed none of. */
  leastQuiet = Number.POSITIVE_INFINITY;
  private quietNow = false;
  constructor(
    private readonly transport: Transport,
    quiet: Promise<unknown>,
  ) {
    const settle = () => {
      this.quietNow = true;
    };
    quiet.then(settle, settle);
  }

  readonly fetch = (async (input: Request | string | URL, init?: RequestInit) => {
    const quiet = this.quietNow;
    const sent = await this.transport.send(new Request(input, init));
    this.least = Math.min(this.least, sent.stats.roundTripMs);
    if (quiet) this.leastQuiet = Math.min(this.leastQuiet, sent.stats.roundTripMs);
    return sent.response;
  }) as typeof globalThis.fetch;
}

/**
 * The least round trip once the probes' first answers are behind: those carry the target's cold start (its first
 * token signed, its code compiled), this process's, and a new connection's setup (TCP, TLS, a proxy's tunnel), and at
 * loopback read 5 to 61 ms where a warm answer takes 1 to 3, so a run on this machine took 1 to 4 workers by chance
 * (each extra worker about a CPU-second to start). Unless the first answers chose the fewest (a late answer only adds
 * workers), the fleet list (a read) is asked again on the connection now open, once `quiet` settled (the runner loads
 * vitest meanwhile, and an answer that comes while it does is read late), until the choice the quiet reads make holds,
 * at most WARM_READS times.
 */
async function warmRoundTrip(env: TargetEnv, timed: TimedFetch, here: boolean, quiet: Promise<unknown>): Promise<number> {
  const choice = (roundTripMs: number) => workersFor(roundTripMs, undefined, here);
  if (choice(timed.least) === choice(0)) return timed.least;
  await quiet;
  for (let read = 0; read < WARM_READS; read += 1) {
    const before = choice(timed.leastQuiet);
    // Its answer was judged by the probe already; here only its timing counts.
    await FLEET_PROBE.call(env, timed.fetch).catch(() => undefined);
    const now = choice(timed.leastQuiet);
    if (now === before || now === choice(0)) break;
  }
  // Late answers only read long: the least of all holds.
  return timed.least;
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
 * partner named the workers (`workersNamed`: --workers or LP_CONTRACT_WORKERS), they are chosen from the round trip met,
 * read again once `quiet` settles when the probes' answers chose more than the fewest.
 */
export async function preflight(
  env: TargetEnv,
  transport: Transport,
  workersNamed = true,
  // This process's own start-up work settled (the runner's vitest loaded): see warmRoundTrip.
  quiet: Promise<unknown> = Promise.resolve(),
): Promise<Preflight> {
  const redactor = redactorFromEnvironment(env);
  const timed = new TimedFetch(transport, quiet);
  // Side by side: a far target costs one round trip (and a connection's setup), not three.
  const probed = await Promise.all(PROBES.map((probe) => probeOne(probe, env, timed.fetch, transport, redactor)));
  const results = probed.filter((result): result is PreflightResult => result !== undefined);
  if (workersNamed || !Number.isFinite(timed.least)) return { results, workers: undefined };
  const here = onThisMachine(env, transport);
  const fleetProbed = Boolean(env[FLEET_PROBE.base]) && FLEET_PROBE.credentials.every((name) => env[name]);
  const least = fleetProbed && results.every((result) => result.ok) ? await warmRoundTrip(env, timed, here, quiet) : timed.least;
  const workers = workersFor(least, undefined, here);
  const line = `round trip ${Math.round(least)} ms at least${here ? ', the target on this machine' : ''}: ${workers} test files run side by side (--workers, LP_CONTRACT_WORKERS)`;
  results.push({ api: 'round trip', ok: true, line });
  return { results, workers };
}
