// The sandbox's answers, successes and errors alike, use statuses the specs document and
// bodies that validate against the bundled response schemas: the sandbox tells the truth.
import { describe, expect, it } from 'vitest';
import { OTHER_LESSEE_API_KEY } from '../../sandbox/config.ts';
import { aMilestone, authorizationCode, authorize, defaults, fleetGet, idpToken, postForm, recordMilestone } from './api-calls.ts';
import { startInProcess, useSandboxWithToken } from './sandbox-process.ts';
import { createSpecAjv } from '../../spec-core/ajv.ts';
import { API_NAMES } from '../../spec-core/apis.ts';
import { loadBundles } from '../../spec-core/bundles.ts';
import { operationsOf } from '../../spec-core/operations.ts';

type Operation = { responses: Record<string, { content?: Record<string, unknown> }> };

const bundles = loadBundles();
const ajv = createSpecAjv(bundles, (spec) => `${spec}.json`);
const operations = new Map<string, { spec: string; pointer: string; operation: Operation }>();
for (const spec of API_NAMES) {
  for (const { pointer, op } of operationsOf(bundles[spec])) {
    if (op.operationId) operations.set(op.operationId, { spec, pointer, operation: op as Operation });
  }
}

/** Problems of a response against the operation's documented responses; [] when it conforms. */
async function problems(operationId: string, response: Response): Promise<string[]> {
  const { spec, pointer, operation } = operations.get(operationId)!;
  const status = String(response.status);
  const documented = operation.responses[status];
  if (!documented) return [`status ${status} is not documented for ${operationId}`];
  const text = await response.text();
  if (!documented.content) return [];
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
  if (!(mediaType in documented.content)) return [`content type ${mediaType} is not documented for ${operationId} ${status}`];
  if (mediaType !== 'application/json') return [];
  const validate = ajv.getSchema(`${spec}.json#${pointer}/responses/${status}/content/application~1json/schema`)!;
  return validate(JSON.parse(text)) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
}

const shared = useSandboxWithToken();

const serviceFields = { grant_type: 'client_credentials', client_id: defaults.LP_CLIENT_ID, client_secret: defaults.LP_CLIENT_SECRET };

const cases: [string, string, () => Promise<Response>][] = [
  ['requestServiceToken', '200', () => postForm(`${shared.sandbox.origin}/svc/token`, serviceFields)],
  ['requestServiceToken', '400 missing field', () => postForm(`${shared.sandbox.origin}/svc/token`, { grant_type: 'client_credentials' })],
  [
    'requestServiceToken',
    '400 wrong grant',
    () => postForm(`${shared.sandbox.origin}/svc/token`, { ...serviceFields, grant_type: 'password' }),
  ],
  [
    'requestServiceToken',
    '400 JSON body',
    () => fetch(`${shared.sandbox.origin}/svc/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }),
  ],
  ['requestServiceToken', '401', () => postForm(`${shared.sandbox.origin}/svc/token`, { ...serviceFields, client_secret: 'x' })],
  [
    'requestIdentityProviderToken',
    '200 client credentials',
    () => idpToken(shared.sandbox.origin, { grant_type: 'client_credentials', scope: defaults.LP_SCOPE }),
  ],
  [
    'requestIdentityProviderToken',
    '200 code',
    async () =>
      idpToken(shared.sandbox.origin, {
        grant_type: 'authorization_code',
        code: await authorizationCode(shared.sandbox.origin),
        redirect_uri: defaults.LP_REDIRECT_URI,
      }),
  ],
  [
    'requestIdentityProviderToken',
    '400 bad code',
    () => idpToken(shared.sandbox.origin, { grant_type: 'authorization_code', code: 'x', redirect_uri: defaults.LP_REDIRECT_URI }),
  ],
  [
    'requestIdentityProviderToken',
    '400 invalid scope',
    () => idpToken(shared.sandbox.origin, { grant_type: 'client_credentials', scope: 'nope' }),
  ],
  [
    'requestIdentityProviderToken',
    '401 no key',
    () => idpToken(shared.sandbox.origin, { grant_type: 'client_credentials', scope: defaults.LP_SCOPE }, null),
  ],
  [
    'requestIdentityProviderToken',
    '401 wrong secret',
    () => idpToken(shared.sandbox.origin, { grant_type: 'client_credentials', scope: defaults.LP_SCOPE, client_secret: 'x' }),
  ],
  ['requestAuthorization', '302', () => authorize(shared.sandbox.origin, { state: 's' })],
  ['requestAuthorization', '302 error', () => authorize(shared.sandbox.origin, { response_type: 'token' })],
  ['requestAuthorization', '400', () => authorize(shared.sandbox.origin, { redirect_uri: 'https://elsewhere.example/' })],
  ['recordLoadMilestoneEvent', '200', () => recordMilestone(shared.sandbox.origin, shared.token, aMilestone)],
  ['recordLoadMilestoneEvent', '400 malformed', () => recordMilestone(shared.sandbox.origin, shared.token, '{')],
  [
    'recordLoadMilestoneEvent',
    '400 non-UTC',
    () => recordMilestone(shared.sandbox.origin, shared.token, { ...aMilestone, event_time: '2026-11-22T14:30:00+02:00' }),
  ],
  [
    'recordLoadMilestoneEvent',
    '400 content type',
    () => recordMilestone(shared.sandbox.origin, shared.token, 'x', { 'content-type': 'application/xml' }),
  ],
  ['recordLoadMilestoneEvent', '401', () => recordMilestone(shared.sandbox.origin, 'nope', aMilestone)],
  [
    'recordLoadMilestoneEvent',
    '404 unknown path',
    () => fetch(`${shared.sandbox.origin}/svc/v2/load-milestone-events`, { method: 'POST' }),
  ],
  ['listVehicles', '200', () => fleetGet(shared.sandbox.origin, '/vehicles?sort=vin%20desc')],
  ['listVehicles', '200 other lessee', () => fleetGet(shared.sandbox.origin, '/vehicles', OTHER_LESSEE_API_KEY)],
  ['listVehicles', '400 sort', () => fleetGet(shared.sandbox.origin, '/vehicles?sort=vin')],
  ['listVehicles', '400 unknown parameter', () => fleetGet(shared.sandbox.origin, '/vehicles?customerVehicleNumber=TRK-1')],
  ['listVehicles', '401', () => fleetGet(shared.sandbox.origin, '/vehicles', null)],
  ['listVehicles', '404 dropped base path', () => fetch(`${shared.sandbox.origin}/vehicles`)],
  ['getVehicle', '200', () => fleetGet(shared.sandbox.origin, '/vehicles/V-000001')],
  ['getVehicle', '401', () => fleetGet(shared.sandbox.origin, '/vehicles/V-000001', 'nope')],
  ['getVehicle', '404', () => fleetGet(shared.sandbox.origin, '/vehicles/V-000002')],
];

describe('responses conform to the bundled specs', () => {
  it.each(cases)('%s %s', async (operationId, label, send) => {
    const response = await send();
    expect(String(response.status)).toBe(label.split(' ')[0]);
    expect(await problems(operationId, response)).toEqual([]);
  });

  it('would notice a non-conforming answer (the list-field-renamed mutation)', async () => {
    const broken = await startInProcess({ mutation: 'list-field-renamed' });
    try {
      expect(await problems('listVehicles', await fleetGet(broken.origin, '/vehicles'))).not.toEqual([]);
    } finally {
      await broken.close();
    }
  });
});
