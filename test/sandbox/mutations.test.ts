// Every mutation (an injected contract violation) must be observable: its probe sees the violation on the mutated
// sandbox and not on the correct one. Also checks the --list-mutations catalogue and the
// --mutations-switchable switch that contract:mutation uses to change mutation without a restart.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCredentials } from '../../sandbox/config.ts';
import type { Vehicle } from '../../sandbox/fleet-fixtures.ts';
import { EXCHANGE_CHECKS } from '../../contract-tests/judge/exchange-checks.ts';
import { CROSSING_ID } from '../../contract-tests/send/ledger.ts';
import { OPERATORS } from '../../contract-tests/operators/operators.ts';
import { loadBundles } from '../../spec-core/bundles.ts';
import { operationsOf } from '../../spec-core/operations.ts';
import { MUTATIONS, type MutationId } from '../../sandbox/mutations.ts';
import { SWITCH_PATH, serveSwitchable, type SwitchableSandbox } from '../../sandbox/mutation-switch.ts';
import { buildSandbox } from '../../sandbox/server.ts';
import {
  advanceClock,
  aMilestone,
  authorizationCode,
  authorize,
  defaults,
  fleetGet,
  idpToken,
  postForm,
  recordMilestone,
  serviceToken,
} from './api-calls.ts';
import { repoRoot, startInProcess, startSandboxProcess } from './sandbox-process.ts';
import { testWaitMs } from '../../config/test-waits.ts';

type Target = { origin: string; foreignVehicleNumber: string };
/** Resolves true when the contract violation is observed. */
type Probe = (sandbox: Target) => Promise<boolean>;

const serviceTokenBody = async (origin: string, secret: string = defaults.LP_CLIENT_SECRET) => {
  const response = await postForm(`${origin}/svc/token`, {
    grant_type: 'client_credentials',
    client_id: defaults.LP_CLIENT_ID,
    client_secret: secret,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};
const ccFields = { grant_type: 'client_credentials', scope: defaults.LP_SCOPE };
const idpBody = async (origin: string) => (await (await idpToken(origin, ccFields)).json()) as Record<string, unknown>;
const exchange = (origin: string, code: string, extra: Record<string, string> = {}) =>
  idpToken(origin, { grant_type: 'authorization_code', code, redirect_uri: defaults.LP_REDIRECT_URI, ...extra });
const stateAfterRedirect = async (origin: string) =>
  new URL((await authorize(origin, { state: 'probe-state' })).headers.get('location')!).searchParams.get('state');
const vehicles = async (origin: string, query = '') => (await (await fleetGet(origin, `/vehicles${query}`)).json()) as Vehicle[];
const isJson = (response: Response) => /^application\/json/.test(response.headers.get('content-type') ?? '');

const PROBES: Record<MutationId, Probe> = {
  'service-token-expires-in': async ({ origin }) => {
    const { body } = await serviceTokenBody(origin);
    return !('expired_in' in body) || 'expires_in' in body;
  },
  'service-token-expired-in-string': async ({ origin }) => typeof (await serviceTokenBody(origin)).body.expired_in !== 'number',
  'service-token-lifetime-7200': async ({ origin }) => Number((await serviceTokenBody(origin)).body.expired_in) > 3600,
  'service-token-type-lowercase': async ({ origin }) => (await serviceTokenBody(origin)).body.token_type !== 'Bearer',
  'service-token-wrong-secret-accepted': async ({ origin }) => (await serviceTokenBody(origin, 'wrong')).status === 200,
  'service-token-error-not-rfc6749': async ({ origin }) => typeof (await serviceTokenBody(origin, 'wrong')).body.error !== 'string',
  'idp-token-type-jwt': async ({ origin }) => String((await idpBody(origin)).token_type).toLowerCase() !== 'bearer',
  'idp-missing-access-token': async ({ origin }) => typeof (await idpBody(origin)).access_token !== 'string',
  'idp-wrong-secret-accepted': async ({ origin }) => (await idpToken(origin, { ...ccFields, client_secret: 'wrong' })).status === 200,
  'idp-scope-not-required': async ({ origin }) => (await idpToken(origin, { grant_type: 'client_credentials' })).status === 200,
  'idp-subscription-key-not-required': async ({ origin }) => (await idpToken(origin, ccFields, null)).status === 200,
  'idp-code-replayable': async ({ origin }) => {
    const code = await authorizationCode(origin);
    await exchange(origin, code);
    return (await exchange(origin, code)).status === 200;
  },
  'idp-code-redirect-uri-unchecked': async ({ origin }) =>
    (await exchange(origin, await authorizationCode(origin), { redirect_uri: 'http://127.0.0.1:8765/elsewhere' })).status === 200,
  'idp-code-never-expires': async ({ origin }) => {
    const code = await authorizationCode(origin);
    await advanceClock(origin, 3600);
    return (await exchange(origin, code)).status === 200;
  },
  'idp-pkce-unchecked': async ({ origin }) => {
    const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
    const code = await authorizationCode(origin, { code_challenge: challenge, code_challenge_method: 'S256' });
    return (await exchange(origin, code, { code_verifier: randomBytes(32).toString('base64url') })).status === 200;
  },
  'authorize-open-redirect': async ({ origin }) =>
    (await authorize(origin, { redirect_uri: 'https://attacker.example/cb' })).status === 302,
  'authorize-drops-state': async ({ origin }) => (await stateAfterRedirect(origin)) !== 'probe-state',
  'authorize-changes-state': async ({ origin }) => (await stateAfterRedirect(origin)) !== 'probe-state',
  'milestone-no-token-accepted': async ({ origin }) => (await recordMilestone(origin, undefined, aMilestone)).status === 200,
  'milestone-garbage-token-accepted': async ({ origin }) => (await recordMilestone(origin, 'garbage', aMilestone)).status === 200,
  'milestone-expired-token-accepted': async ({ origin }) => {
    const token = await serviceToken(origin);
    await advanceClock(origin, 3601);
    return (await recordMilestone(origin, token, aMilestone)).status === 200;
  },
  'milestone-malformed-json-500': async ({ origin }) =>
    (await recordMilestone(origin, await serviceToken(origin), '{"load_id":')).status >= 500,
  'milestone-non-utc-accepted': async ({ origin }) =>
    (await recordMilestone(origin, await serviceToken(origin), { ...aMilestone, event_time: '2026-11-22T15:30:00+01:00' })).status === 200,
  'milestone-missing-field-accepted': async ({ origin }) => {
    const { milestone_type: _omitted, ...event } = aMilestone;
    return (await recordMilestone(origin, await serviceToken(origin), event)).status === 200;
  },
  'milestone-confirmation-without-message': async ({ origin }) => {
    const body = (await (await recordMilestone(origin, await serviceToken(origin), aMilestone)).json()) as Record<string, unknown>;
    return typeof body.message !== 'string';
  },
  'milestone-text-plain': async ({ origin }) => !isJson(await recordMilestone(origin, await serviceToken(origin), aMilestone)),
  'fleet-missing-key-accepted': async ({ origin }) => (await fleetGet(origin, '/vehicles', null)).status === 200,
  'list-leaks-foreign-vehicles': async ({ origin }) => (await vehicles(origin)).some((v) => v.customerNumber.startsWith('C-2')),
  'list-leaks-on-foreign-customer-filter': async ({ origin }) => (await vehicles(origin, '?customerNumber=C-200410')).length > 0,
  'list-filters-ignored': async ({ origin }) => {
    const [first] = await vehicles(origin);
    return (await vehicles(origin, `?vin=${first!.vin}`)).length !== 1;
  },
  'list-filters-ored': async ({ origin }) => {
    const all = await vehicles(origin);
    const other = all.find((v) => v.customerNumber !== all[0]!.customerNumber)!;
    return (await vehicles(origin, `?customerNumber=${all[0]!.customerNumber}&vin=${other.vin}`)).length !== 0;
  },
  'list-changes-between-reads': async ({ origin }) => {
    const [first, second] = [await vehicles(origin), await vehicles(origin)];
    return first.length !== second.length;
  },
  'list-first-value-only': async ({ origin }) => {
    const [a, b] = await vehicles(origin);
    return (await vehicles(origin, `?vehicleNumber=${a!.vehicleNumber}&vehicleNumber=${b!.vehicleNumber}`)).length !== 2;
  },
  'list-sort-ignored': async ({ origin }) => {
    const plates = (await vehicles(origin, '?sort=licensePlate%20asc')).map((v) => v.licensePlate);
    return plates.join() !== [...plates].sort().join();
  },
  'list-desc-ignored': async ({ origin }) => {
    const plates = (await vehicles(origin, '?sort=licensePlate%20desc')).map((v) => v.licensePlate);
    return plates.join() !== [...plates].sort().reverse().join();
  },
  'list-customervehiclenumber-ignored': async ({ origin }) => {
    const response = await fleetGet(origin, '/vehicles?customervehicleNumber=TRK-1');
    if (response.status !== 200) return true;
    return ((await response.json()) as Vehicle[]).some((v) => v.customerVehicleNumber !== 'TRK-1');
  },
  'list-sort-moves-field': async ({ origin }) => {
    const plates = new Map((await vehicles(origin)).map((v) => [v.vehicleNumber, v.licensePlate]));
    return (await vehicles(origin, '?sort=vehicleNumber%20desc')).some((v) => plates.get(v.vehicleNumber) !== v.licensePlate);
  },
  'list-field-renamed': async ({ origin }) => !('licensePlate' in (await vehicles(origin))[0]!),
  'list-wrong-content-type': async ({ origin }) => !isJson(await fleetGet(origin, '/vehicles')),
  'get-foreign-vehicle-returned': async ({ origin, foreignVehicleNumber }) =>
    (await fleetGet(origin, `/vehicles/${foreignVehicleNumber}`)).status === 200,
  'get-foreign-with-customer-query': async ({ origin, foreignVehicleNumber }) =>
    (await fleetGet(origin, `/vehicles/${foreignVehicleNumber}?customerNumber=C-1`)).status === 200,
  'get-foreign-refusal-names-customer': async ({ origin, foreignVehicleNumber }) =>
    /belongs to customer/.test(await (await fleetGet(origin, `/vehicles/${foreignVehicleNumber}`)).text()),
  'get-unknown-200': async ({ origin }) => (await fleetGet(origin, '/vehicles/V-NOPE')).status === 200,
  'get-unknown-500': async ({ origin }) => (await fleetGet(origin, '/vehicles/V-NOPE')).status >= 500,
  'get-field-missing': async ({ origin }) => {
    const [first] = await vehicles(origin);
    return !('vin' in ((await (await fleetGet(origin, `/vehicles/${first!.vehicleNumber}`)).json()) as object));
  },
  'service-token-secret-trimmed': async ({ origin }) => (await serviceTokenBody(origin, ` ${defaults.LP_CLIENT_SECRET} `)).status === 200,
  'authorize-redirect-uri-prefix-match': async ({ origin }) =>
    (await authorize(origin, { redirect_uri: `${defaults.LP_REDIRECT_URI}/extra` })).headers
      .get('location')
      ?.startsWith(`${defaults.LP_REDIRECT_URI}/extra`) === true,
  'fleet-wrong-key-with-unknown-query-accepted': async ({ origin }) =>
    (await fleetGet(origin, '/vehicles?contract_probe=1', `${defaults.LP_FLEET_API_KEY}x`)).status !== 401 &&
    (await fleetGet(origin, '/vehicles', `${defaults.LP_FLEET_API_KEY}x`)).status === 401,
  'fleet-key-case-insensitive': async ({ origin }) =>
    (await fleetGet(origin, '/vehicles', defaults.LP_FLEET_API_KEY.toUpperCase())).status === 200,
  // A code exchange without the subscription key header at all.
  'idp-code-grant-subscription-key-unchecked': async ({ origin }) =>
    (
      await fetch(`${origin}/idp/oauth2/default/v1/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: await authorizationCode(origin),
          redirect_uri: defaults.LP_REDIRECT_URI,
          client_id: defaults.LP_CLIENT_ID,
          client_secret: defaults.LP_CLIENT_SECRET,
        }),
      })
    ).status === 200,
  'authorize-unsupported-type-to-unregistered-uri': async ({ origin }) =>
    (await authorize(origin, { response_type: 'token', redirect_uri: 'https://elsewhere.invalid/cb' })).headers
      .get('location')
      ?.startsWith('https://elsewhere.invalid/') === true,
  'authorize-unknown-client-redirects': async ({ origin }) => (await authorize(origin, { client_id: 'not-registered' })).status === 302,
  'service-token-client-id-ignored': async ({ origin }) =>
    (
      await postForm(`${origin}/svc/token`, {
        grant_type: 'client_credentials',
        client_id: 'another-client',
        client_secret: defaults.LP_CLIENT_SECRET,
      })
    ).status === 200,
  'milestone-other-content-type-500': async ({ origin }) =>
    (await recordMilestone(origin, await serviceToken(origin), JSON.stringify(aMilestone), { 'content-type': 'text/plain' })).status >= 500,
  'fleet-subscription-key-accepted': async ({ origin }) =>
    (await fetch(`${origin}/fleet/vehicles`, { headers: { 'ocp-apim-subscription-key': defaults.LP_SUBSCRIPTION_KEY } })).status === 200,
  'fleet-refusal-discloses-vehicles': async ({ origin }) =>
    (await (await fleetGet(origin, '/vehicles', 'wrong-key')).text()).includes('vehicleNumber'),
  'fleet-other-methods-500': async ({ origin }) =>
    (await fetch(`${origin}/fleet/vehicles`, { method: 'DELETE', headers: { 'api-key': defaults.LP_FLEET_API_KEY } })).status >= 500,
  'get-non-ascii-500': async ({ origin }) => (await fleetGet(origin, `/vehicles/${encodeURIComponent('V-Ünï')}`)).status >= 500,
  'list-license-plate-ignored-with-sort': async ({ origin }) => {
    const [first] = await vehicles(origin);
    return (await vehicles(origin, `?licensePlate=${first!.licensePlate}&sort=vehicleNumber%20asc`)).length !== 1;
  },
  'list-desc-leaks-foreign': async ({ origin }) =>
    (await vehicles(origin, '?sort=vehicleNumber%20desc')).length > (await vehicles(origin)).length,
  'list-quote-filter-leaks-foreign': async ({ origin }) => (await vehicles(origin, "?vin=X'")).length > 0,
  'get-query-leaks-foreign': async ({ origin }) => {
    const [first] = await vehicles(origin);
    const answered = (await (await fleetGet(origin, `/vehicles/${first!.vehicleNumber}?x=1`)).json()) as Vehicle;
    return answered.vehicleNumber !== first!.vehicleNumber;
  },
  'milestone-blank-load-id-500': async ({ origin }) =>
    (await recordMilestone(origin, await serviceToken(origin), { ...aMilestone, load_id: ' \u3000' })).status >= 500,
  'milestone-null-body-500': async ({ origin }) => (await recordMilestone(origin, await serviceToken(origin), 'null')).status >= 500,
  'milestone-leap-second-500': async ({ origin }) =>
    (await recordMilestone(origin, await serviceToken(origin), { ...aMilestone, event_time: '2016-12-31T23:59:60Z' })).status >= 500,
  'idp-code-redirect-uri-omitted-accepted': async ({ origin }) =>
    (await idpToken(origin, { grant_type: 'authorization_code', code: await authorizationCode(origin) })).status === 200,
  'service-token-basic-secret-unchecked': async ({ origin }) => {
    const basic = Buffer.from(`${defaults.LP_CLIENT_ID}:not-the-secret`).toString('base64');
    return (
      (await postForm(`${origin}/svc/token`, { grant_type: 'client_credentials' }, { authorization: `Basic ${basic}` })).status === 200
    );
  },
  'service-token-basic-trimmed': async ({ origin }) => {
    const basic = Buffer.from(`${defaults.LP_CLIENT_ID}:+${encodeURIComponent(defaults.LP_CLIENT_SECRET)}+`).toString('base64');
    return (
      (await postForm(`${origin}/svc/token`, { grant_type: 'client_credentials' }, { authorization: `Basic ${basic}` })).status === 200
    );
  },
  'idp-repeated-parameter-accepted': async ({ origin }) => {
    const body = `${new URLSearchParams({ ...ccFields, client_id: defaults.LP_CLIENT_ID, client_secret: defaults.LP_CLIENT_SECRET })}&scope=${defaults.LP_SCOPE}`;
    const response = await fetch(`${origin}/idp/oauth2/default/v1/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'ocp-apim-subscription-key': defaults.LP_SUBSCRIPTION_KEY },
      body,
    });
    return response.status === 200;
  },
  'idp-password-grant-accepted': async ({ origin }) =>
    (await idpToken(origin, { grant_type: 'password', username: 'anyone', password: 'anything' })).status === 200,
  'token-refused-early': async ({ origin }) => {
    const token = await serviceToken(origin);
    await advanceClock(origin, 5);
    return (await recordMilestone(origin, token, aMilestone)).status === 401;
  },
  'list-empty-filter-500': async ({ origin }) => (await fleetGet(origin, '/vehicles?vin=')).status >= 500,
  'get-percent-encoded-500': async ({ origin }) => (await fleetGet(origin, '/vehicles/%56-000001')).status >= 500,
  'list-filter-decoded-twice': async ({ origin }) => {
    const [first] = await vehicles(origin);
    const twice = encodeURIComponent(encodeURIComponent(first!.vin).replace(/[A-Z]/g, (c) => `%${c.charCodeAt(0).toString(16)}`));
    return (await vehicles(origin, `?vin=${twice}`)).length > 0;
  },
  'list-over-limit-500': async ({ origin }) =>
    (await fleetGet(origin, `/vehicles?${Array.from({ length: 101 }, (_, i) => `vin=V${i}`).join('&')}`)).status >= 500,
  'idp-malformed-form-500': async ({ origin }) => {
    const response = await fetch(`${origin}/idp/oauth2/default/v1/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'ocp-apim-subscription-key': defaults.LP_SUBSCRIPTION_KEY },
      body: 'grant_type=client_credentials&scope=%zz',
    });
    return response.status >= 500;
  },
  'milestone-non-string-500': async ({ origin }) =>
    (await recordMilestone(origin, await serviceToken(origin), { ...aMilestone, milestone_type: 12345 })).status >= 500,
  'milestone-unknown-field-500': async ({ origin }) =>
    (await recordMilestone(origin, await serviceToken(origin), { ...aMilestone, extra: '1' })).status >= 500,
  'fleet-refusal-echoes-key': async ({ origin }) =>
    (await (await fleetGet(origin, '/vehicles', `${defaults.LP_FLEET_API_KEY}x`)).text()).includes(defaults.LP_FLEET_API_KEY),
  'service-token-cacheable': async ({ origin }) => {
    const response = await postForm(`${origin}/svc/token`, {
      grant_type: 'client_credentials',
      client_id: defaults.LP_CLIENT_ID,
      client_secret: defaults.LP_CLIENT_SECRET,
    });
    return !(response.headers.get('cache-control') ?? '').includes('no-store');
  },
  'milestone-401-without-challenge': async ({ origin }) =>
    (await recordMilestone(origin, 'garbage', aMilestone)).headers.get('www-authenticate') === null,
  'get-plate-differs-from-list': async ({ origin }) => {
    const [first] = await vehicles(origin);
    return ((await (await fleetGet(origin, `/vehicles/${first!.vehicleNumber}`)).json()) as Vehicle).licensePlate !== first!.licensePlate;
  },
  'get-case-mismatch-other-vehicle': async ({ origin }) => {
    const [first] = await vehicles(origin);
    const response = await fleetGet(origin, `/vehicles/${first!.vehicleNumber.toLowerCase()}`);
    return response.status === 200 && ((await response.json()) as Vehicle).vehicleNumber !== first!.vehicleNumber;
  },
};

/** The exchange checks and operators that no mutation is made for: each must have one, which contract:mutation proves
 * its check finds. */
function uncovered(mutations: ReadonlyArray<{ operator?: string; check?: string }>): string[] {
  const operators = new Set(mutations.map((m) => m.operator));
  const checks = new Set(mutations.map((m) => m.check));
  return [
    ...OPERATORS.filter((o) => !operators.has(o.id)).map((o) => `operator ${o.id}`),
    ...EXCHANGE_CHECKS.filter((c) => !checks.has(c.id)).map((c) => `exchange check ${c.id}`),
  ];
}

describe('an injected violation for every exchange check and every operator', () => {
  const annotated = MUTATIONS as ReadonlyArray<{ id: string; operator?: string; check?: string }>;

  it('each exchange check of the suite and each operator has a mutation made for it', () => {
    expect(uncovered(annotated)).toEqual([]);
  });

  it('fails when the only mutation of a check or an operator is gone', () => {
    const withoutEcho = annotated.filter((m) => m.check !== 'no-credential-echo');
    expect(uncovered(withoutEcho)).toContain('exchange check no-credential-echo');
    const withoutInjection = annotated.filter((m) => m.operator !== 'injection');
    expect(uncovered(withoutInjection)).toContain('operator injection');
  });

  it('names only checks and operators the suite has', () => {
    for (const m of annotated) {
      if (m.check)
        expect(
          EXCHANGE_CHECKS.map((c) => c.id),
          m.id,
        ).toContain(m.check);
      if (m.operator)
        expect(
          // A fault that shows only when two things are off at once is the pairwise crossings' (property/crossings.ts).
          [...OPERATORS.map((o) => o.id), CROSSING_ID],
          m.id,
        ).toContain(m.operator);
    }
  });
});

describe('--list-mutations', () => {
  // Through npm, as a user runs it: this also proves the npm script passes the flag on.
  const run = spawnSync('npm', ['run', '--silent', 'sandbox', '--', '--list-mutations'], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: testWaitMs(60_000),
  });
  const listed = JSON.parse(run.stdout) as { id: string; operation: string; description: string }[];

  it('prints a JSON array of at least 22 mutations with unique ids and exits 0, also through npm run sandbox', () => {
    expect(run.status).toBe(0);
    expect(listed.length).toBeGreaterThanOrEqual(22);
    expect(new Set(listed.map((m) => m.id)).size).toBe(listed.length);
    for (const mutation of listed)
      expect(mutation).toEqual({
        id: expect.any(String),
        operation: expect.any(String),
        description: expect.stringMatching(/\S/),
        ...('operator' in mutation ? { operator: expect.any(String) } : {}),
        ...('check' in mutation ? { check: expect.any(String) } : {}),
      });
  });

  it('covers every operation and every security scheme of the bundles', () => {
    const operations = new Set(listed.map((m) => m.operation));
    const bundles = loadBundles();
    const names = Object.values(bundles).flatMap((doc) => [
      ...operationsOf(doc).map((o) => String(o.op.operationId)),
      ...Object.keys(doc.components?.securitySchemes ?? {}),
    ]);
    expect(names.length).toBeGreaterThan(6);
    for (const name of new Set(names)) expect(operations).toContain(name);
  });

  it('refuses an unknown mutation id with a clear error', () => {
    const bad = spawnSync(process.execPath, ['--import', 'tsx', 'sandbox/main.ts', '--port', '0', '--mutation', 'no-such-thing'], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('unknown mutation "no-such-thing"');
  });
});

/** A switchable sandbox in this process on a free loopback port, with the default credentials. */
async function startSwitchable(): Promise<Target & { switchable: SwitchableSandbox }> {
  const credentials = readCredentials({});
  const build = (mutation: MutationId | undefined) => buildSandbox({ credentials, logLevel: 'silent', mutation });
  const first = build(undefined);
  const switchable = await serveSwitchable(build, first);
  await switchable.listen(0, '127.0.0.1');
  const { port } = switchable.server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, foreignVehicleNumber: first.foreignVehicleNumber, switchable };
}

const postSwitch = (origin: string, body: string) =>
  fetch(`${origin}${SWITCH_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('each mutation is observable', () => {
  // One server switched back and forth: every probe also proves that a switch resets the state the previous
  // probe changed (probes move the clock and use up codes), which contract:mutation relies on.
  let target: Awaited<ReturnType<typeof startSwitchable>>;
  beforeAll(async () => {
    target = await startSwitchable();
  });
  afterAll(() => target?.switchable.close());

  it.each(MUTATIONS.map((m) => m.id))('%s: seen on the mutated sandbox, not on the correct one', async (id) => {
    expect((await postSwitch(target.origin, JSON.stringify({ mutation: id }))).status).toBe(200);
    expect(await PROBES[id](target)).toBe(true);
    expect((await postSwitch(target.origin, JSON.stringify({ mutation: null }))).status).toBe(200);
    expect(await PROBES[id](target)).toBe(false);
  });
});

describe('--mutations-switchable', () => {
  it('switches through the route with fresh state and refuses bad switch requests clearly', async () => {
    const { origin, switchable } = await startSwitchable();
    try {
      expect(await (await fetch(`${origin}${SWITCH_PATH}`)).json()).toEqual({ mutation: null });
      // State from before the switch is gone: a token issued before it is unknown afterwards.
      const token = await serviceToken(origin);
      expect((await recordMilestone(origin, token, aMilestone)).status).toBe(200);
      const switched = await postSwitch(origin, '{"mutation": "get-unknown-500"}');
      expect(switched.status).toBe(200);
      expect(await switched.json()).toEqual({ mutation: 'get-unknown-500' });
      expect((await recordMilestone(origin, token, aMilestone)).status).toBe(401);
      expect(await (await fetch(`${origin}/_sandbox/health`)).json()).toMatchObject({ mutation: 'get-unknown-500' });

      const unknown = await postSwitch(origin, '{"mutation": "no-such-thing"}');
      expect(unknown.status).toBe(400);
      expect(((await unknown.json()) as { message: string }).message).toContain('unknown mutation "no-such-thing"');
      expect((await postSwitch(origin, '{"mutation": 7}')).status).toBe(400);
      expect(((await (await postSwitch(origin, '{"mutation":')).json()) as { message: string }).message).toBe(
        'The body is not valid JSON.',
      );
      expect((await postSwitch(origin, JSON.stringify({ mutation: 'x'.repeat(2000) }))).status).toBe(413);
      const put = await fetch(`${origin}${SWITCH_PATH}`, { method: 'PUT' });
      expect([put.status, put.headers.get('allow')]).toEqual([405, 'GET, POST']);
      // Refused switches leave the mutation in place.
      expect(await (await fetch(`${origin}${SWITCH_PATH}`)).json()).toEqual({ mutation: 'get-unknown-500' });
    } finally {
      await switchable.close();
    }
  });

  it('is off on a plain sandbox', async () => {
    const plain = await startInProcess();
    try {
      expect((await postSwitch(plain.origin, '{"mutation": "get-unknown-500"}')).status).toBe(404);
      expect((await fleetGet(plain.origin, '/vehicles/V-NOPE')).status).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it("works through a sandbox process started with the flag, and a switched sandbox keeps the started one's caps", async () => {
    const running = await startSandboxProcess(['--mutations-switchable', '--max-tokens', '2', '--log-level', 'warn']);
    try {
      const base = new URL(running.env.LP_FLEET_BASE_URL!).origin;
      const unknownVehicle = () => fleetGet(base, '/vehicles/V-NOPE');
      expect((await unknownVehicle()).status).toBe(404);
      expect((await postSwitch(base, '{"mutation": "get-unknown-500"}')).status).toBe(200);
      expect((await unknownVehicle()).status).toBe(500);
      expect((await postSwitch(base, '{"mutation": null}')).status).toBe(200);
      expect((await unknownVehicle()).status).toBe(404);
      for (let i = 0; i < 3; i += 1) await serviceToken(base);
      const health = (await (await fetch(`${base}/_sandbox/health`)).json()) as { stored: { tokens: number } };
      expect(health.stored.tokens, '--max-tokens 2 after two switches').toBe(2);
    } finally {
      expect(await running.stop()).toBe(0);
    }
  });

  it('refuses --data, whose events a switch would bring back, with a clear message', () => {
    const bad = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'sandbox/main.ts', '--port', '0', '--mutations-switchable', '--data', 'events.jsonl'],
      { cwd: repoRoot, encoding: 'utf8' },
    );
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--data cannot be combined with --mutations-switchable');
  });
});
