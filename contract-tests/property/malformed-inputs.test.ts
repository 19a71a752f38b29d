// No operation answers a 5xx to a bad parameter or field: each one of every operation (the token endpoints' form
// fields included) is sent missing, empty, without "=", malformed (a lone %, invalid UTF-8, a NUL byte, JSON),
// repeated, repeated a hundred times and oversize, and each request also gets unknown and oversize unknown fields.
// A table, not random inputs: every run sends the same few hundred requests, so it is fast and a failure names
// the operation, the field and the kind of damage (never a value: base requests carry the configured credentials).
import { beforeAll, describe, expect, it } from 'vitest';
import { tokenProvider } from '../send/clients.ts';
import { FORM, JSON_TYPE, send } from '../send/requests.ts';
import { skipIf } from '../support/skips.ts';
import { operationById } from '../send/spec.ts';
import { reasonIfUnset, target, type LpVariable } from '../send/target.ts';
import { forEachConcurrently } from '../send/transport.ts';
import { fleetGet } from '../send/raw.ts';

/** One name=value pair, its value already percent-encoded (so that malformed encodings can be sent); undefined
 * sends the bare name without "=". */
type Pair = [name: string, encoded: string | undefined];
const wire = (pairs: Pair[]) => pairs.map(([name, value]) => (value === undefined ? name : `${name}=${value}`)).join('&');
const pairsOf = (fields: Record<string, string | undefined>): Pair[] =>
  Object.entries(fields).flatMap(([name, value]): Pair[] => (value === undefined ? [] : [[name, encodeURIComponent(value)]]));

const KIB = 1024;
/** Damage to one field of a request. */
const FIELD_DAMAGE: Array<[kind: string, damage: (pairs: Pair[], name: string, oversize: number) => Pair[]]> = [
  ['missing', (pairs, name) => pairs.filter(([n]) => n !== name)],
  ['empty', (pairs, name) => pairs.map(([n, v]) => [n, n === name ? '' : v])],
  ['without "="', (pairs, name) => pairs.map(([n, v]) => [n, n === name ? undefined : v])],
  ['a lone %', (pairs, name) => pairs.map(([n, v]) => [n, n === name ? '%' : v])],
  ['invalid UTF-8', (pairs, name) => pairs.map(([n, v]) => [n, n === name ? '%C3%28%FF' : v])],
  ['a NUL byte', (pairs, name) => pairs.map(([n, v]) => [n, n === name ? `${v ?? ''}%00` : v])],
  ['a JSON object', (pairs, name) => pairs.map(([n, v]) => [n, n === name ? encodeURIComponent('{"$ne":null}') : v])],
  ['repeated with another value', (pairs, name) => [...pairs, [name, 'contract-other']]],
  ['repeated 100 times', (pairs, name) => [...pairs, ...Array.from({ length: 100 }, (_, i): Pair => [name, `contract-${i}`])]],
  ['oversize', (pairs, name, oversize) => pairs.map(([n, v]) => [n, n === name ? 'x'.repeat(oversize) : v])],
];
/** Damage to the request as a whole. */
const REQUEST_DAMAGE: Array<[kind: string, damage: (pairs: Pair[], oversize: number) => Pair[]]> = [
  ['no fields at all', () => []],
  ['an unknown field', (pairs) => [...pairs, ['contract_probe', '1']]],
  ['an unknown field with an oversize name and value', (pairs, oversize) => [...pairs, ['q'.repeat(300), 'v'.repeat(oversize)]]],
  ['200 unknown fields', (pairs) => [...pairs, ...Array.from({ length: 200 }, (_, i): Pair => [`contract_probe_${i}`, '1'])]],
  ['a field name with brackets', (pairs) => [...pairs, ['client_id[]', 'x'], ['a[b][c]', 'y']]],
];

interface Channel {
  operationId: string;
  /** Why the channel cannot run, if it cannot. */
  skip: () => string | undefined;
  /** The valid (or nearly valid) request, as pairs. */
  base: () => Pair[];
  /** Sends the pairs; answers the status. */
  send: (pairs: Pair[]) => Promise<number>;
  /** Longest value sent: query strings stay under common 8 to 16 KiB request-line limits. */
  oversize: number;
}

const statusOf = async (request: ReturnType<typeof send>) => (await request).response.status;
const formPost =
  (base: LpVariable, path: string, headers: Record<string, string> = {}) =>
  (pairs: Pair[]) =>
    statusOf(send(target, base, path, { method: 'POST', headers: { ...FORM, ...headers }, body: wire(pairs) }));
const subscriptionKey = () => ({ 'Ocp-Apim-Subscription-Key': target.env.LP_SUBSCRIPTION_KEY ?? '' });
const queryParameters = (operationId: string) =>
  operationById(operationId)
    .parameters.filter((p) => p.in === 'query')
    .map((p) => String(p.name));

let token = '';
const CHANNELS: Channel[] = [
  {
    operationId: 'requestServiceToken',
    skip: () => reasonIfUnset(target, 'LP_BASE_URL', 'LP_CLIENT_ID', 'LP_CLIENT_SECRET'),
    base: () =>
      pairsOf({ grant_type: 'client_credentials', client_id: target.env.LP_CLIENT_ID, client_secret: target.env.LP_CLIENT_SECRET }),
    send: formPost('LP_BASE_URL', '/token'),
    oversize: 64 * KIB,
  },
  {
    operationId: 'requestIdentityProviderToken',
    skip: () => reasonIfUnset(target, 'LP_AUTH_URL', 'LP_CLIENT_ID', 'LP_CLIENT_SECRET', 'LP_SUBSCRIPTION_KEY'),
    base: () =>
      pairsOf({
        grant_type: 'client_credentials',
        client_id: target.env.LP_CLIENT_ID,
        client_secret: target.env.LP_CLIENT_SECRET,
        scope: target.env.LP_SCOPE ?? 'contract',
      }),
    send: (pairs) => formPost('LP_AUTH_URL', '/oauth2/default/v1/token', subscriptionKey())(pairs),
    oversize: 64 * KIB,
  },
  {
    // The code grant's fields, with a code the target never issued: nothing can be redeemed by accident.
    operationId: 'requestIdentityProviderToken',
    skip: () => reasonIfUnset(target, 'LP_AUTH_URL', 'LP_CLIENT_ID', 'LP_CLIENT_SECRET', 'LP_SUBSCRIPTION_KEY'),
    base: () =>
      pairsOf({
        grant_type: 'authorization_code',
        client_id: target.env.LP_CLIENT_ID,
        client_secret: target.env.LP_CLIENT_SECRET,
        code: `contract-never-issued-${crypto.randomUUID()}`,
        redirect_uri: target.env.LP_REDIRECT_URI ?? 'http://127.0.0.1:8765/callback',
        code_verifier: 'v'.repeat(43),
      }),
    send: (pairs) => formPost('LP_AUTH_URL', '/oauth2/default/v1/token', subscriptionKey())(pairs),
    oversize: 64 * KIB,
  },
  {
    operationId: 'requestAuthorization',
    skip: () => reasonIfUnset(target, 'LP_AUTH_URL', 'LP_CLIENT_ID'),
    base: () => {
      const values: Record<string, string | undefined> = {
        client_id: target.env.LP_CLIENT_ID,
        response_type: 'code',
        redirect_uri: target.env.LP_REDIRECT_URI ?? 'http://127.0.0.1:8765/callback',
        scope: target.env.LP_SCOPE ?? 'contract',
        state: 'contract-state',
        code_challenge: 'c'.repeat(43),
        code_challenge_method: 'S256',
      };
      return pairsOf(Object.fromEntries(queryParameters('requestAuthorization').map((name) => [name, values[name] ?? 'contract-probe'])));
    },
    send: (pairs) => statusOf(send(target, 'LP_AUTH_URL', `/oauth2/default/v1/authorize?${wire(pairs)}`)),
    oversize: 4 * KIB,
  },
  {
    operationId: 'listVehicles',
    skip: () => reasonIfUnset(target, 'LP_FLEET_BASE_URL', 'LP_FLEET_API_KEY'),
    base: () => {
      const values: Record<string, string> = { sort: 'vehicleNumber asc' };
      return pairsOf(Object.fromEntries(queryParameters('listVehicles').map((name) => [name, values[name] ?? 'CONTRACT-PROBE'])));
    },
    send: async (pairs) => (await fleetGet(`/vehicles?${wire(pairs)}`)).status,
    oversize: 4 * KIB,
  },
];

/** Every damaged request of a channel, named. */
function damaged(channel: Channel): Array<[string, Pair[]]> {
  const base = channel.base();
  const names = [...new Set(base.map(([name]) => name))];
  return [
    ...names.flatMap((name) =>
      FIELD_DAMAGE.map(([kind, damage]): [string, Pair[]] => [`${name} ${kind}`, damage(base, name, channel.oversize)]),
    ),
    ...REQUEST_DAMAGE.map(([kind, damage]): [string, Pair[]] => [kind, damage(base, channel.oversize)]),
  ];
}

beforeAll(async () => {
  if (!reasonIfUnset(target, 'LP_BASE_URL', 'LP_CLIENT_ID', 'LP_CLIENT_SECRET')) token = await tokenProvider(target, 'service').getToken();
});

describe('no 5xx for a missing, malformed, unknown, repeated or oversize parameter or field', () => {
  it.for(
    CHANNELS.map(
      (channel) => [`${channel.operationId} (${channel.base().find(([n]) => n === 'grant_type')?.[1] ?? 'parameters'})`, channel] as const,
    ),
  )('%s', async ([, channel], ctx) => {
    skipIf(ctx, [channel.operationId], channel.skip());
    // Independent requests: sent concurrently, within the transport's bounds.
    await forEachConcurrently(damaged(channel), async ([kind, pairs]) => {
      const status = await channel.send(pairs);
      expect(status, `${channel.operationId} with ${kind} answered ${status}`).toBeLessThan(500);
    });
  });

  it.for([
    ['empty, NUL, encoded-slash and oversize vehicle numbers and unknown query parameters', false],
    ['vehicle numbers with a malformed percent-encoding', true],
  ] as const)('getVehicle: %s', async ([, malformedEncoding], ctx) => {
    skipIf(ctx, ['getVehicle'], reasonIfUnset(target, 'LP_FLEET_BASE_URL', 'LP_FLEET_API_KEY'));
    const paths: Array<[string, string]> = malformedEncoding
      ? [
          ['a lone %', '/vehicles/%'],
          ['invalid UTF-8', '/vehicles/%C3%28%FF'],
        ]
      : [
          ['an empty number', '/vehicles/'],
          ['a NUL byte', '/vehicles/V%00'],
          ['an encoded slash', '/vehicles/V%2F1'],
          ['an oversize number', `/vehicles/${'9'.repeat(4 * KIB)}`],
          ['an unknown query parameter', '/vehicles/V-CONTRACT-PROBE?contract_probe=1'],
          ['an oversize unknown query parameter', `/vehicles/V-CONTRACT-PROBE?${'q'.repeat(300)}=${'v'.repeat(4 * KIB)}`],
          ['a repeated unknown query parameter', `/vehicles/V-CONTRACT-PROBE?${Array.from({ length: 200 }, (_, i) => `p=${i}`).join('&')}`],
        ];
    await forEachConcurrently(paths, async ([kind, path]) => {
      const { status } = await fleetGet(path);
      expect(status, `getVehicle with ${kind} answered ${status}`).toBeLessThan(500);
    });
  });

  it('recordLoadMilestoneEvent: each field missing, null, of another type, empty, repeated or oversize', async (ctx) => {
    // A damaged event may still be valid to a lenient server, which would record it: only for the test load, and
    // only when writes are allowed. load_id itself is never damaged into another valid load number.
    const gate = target.writesAllowed
      ? undefined
      : 'writes are not allowed (LP_ALLOW_WRITES=1 and LP_TEST_LOAD_ID): a lenient server would record a damaged event';
    skipIf(ctx, ['recordLoadMilestoneEvent'], reasonIfUnset(target, 'LP_BASE_URL', 'LP_CLIENT_ID', 'LP_CLIENT_SECRET'), gate);
    const event: Record<string, unknown> = {
      load_id: target.env.LP_TEST_LOAD_ID,
      milestone_type: 'ARRIVED_AT_PICKUP',
      event_time: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    };
    const bodies: Array<[string, string]> = [
      ['no fields at all', '{}'],
      ['an unknown field', JSON.stringify({ ...event, contract_probe: 1 })],
    ];
    for (const field of Object.keys(event)) {
      const { [field]: _, ...without } = event;
      bodies.push(
        [`${field} missing`, JSON.stringify(without)],
        [`${field} null`, JSON.stringify({ ...event, [field]: null })],
        [`${field} a number`, JSON.stringify({ ...event, [field]: 12345 })],
        [`${field} an array`, JSON.stringify({ ...event, [field]: [event[field]] })],
        [`${field} an object`, JSON.stringify({ ...event, [field]: { $ne: null } })],
        // Repeated keys: the first is of the wrong type, so whichever a server keeps, nothing lands on another load.
        [`${field} repeated`, `{"${field}":12345,${JSON.stringify(event).slice(1)}`],
      );
      if (field !== 'load_id') {
        bodies.push(
          [`${field} empty`, JSON.stringify({ ...event, [field]: '' })],
          [`${field} with a NUL byte`, JSON.stringify({ ...event, [field]: `${String(event[field])}\u0000` })],
          [`${field} oversize`, JSON.stringify({ ...event, [field]: 'X'.repeat(64 * KIB) })],
        );
      }
    }
    await forEachConcurrently(bodies, async ([kind, body]) => {
      const { response } = await send(target, 'LP_BASE_URL', '/v1/load-milestone-events', {
        method: 'POST',
        headers: { ...JSON_TYPE, authorization: `Bearer ${token}` },
        body,
      });
      expect(response.status, `recordLoadMilestoneEvent with ${kind} answered ${response.status}`).toBeLessThan(500);
    });
  });
});
