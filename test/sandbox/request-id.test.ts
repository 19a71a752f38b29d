// A request id on every answer of the sandbox (x-request-id, the first header the client's ApiError reads), and the
// client's errors against the sandbox carry it, so that the id a partner quotes to support names one request.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCredentials } from '../../sandbox/config.ts';
import { SWITCH_PATH, serveSwitchable, type SwitchableSandbox } from '../../sandbox/mutation-switch.ts';
import { buildSandbox, REQUEST_ID_HEADER } from '../../sandbox/server.ts';
import { ApiError, createLogisticsClient } from '../../src/index.ts';
import { authorize, defaults, fleetGet, postForm } from './api-calls.ts';
import { startInProcess, type InProcessSandbox } from './sandbox-process.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids', () => {
  let sandbox: InProcessSandbox;
  beforeAll(async () => {
    sandbox = await startInProcess();
  });
  afterAll(() => sandbox?.close());

  it('are on every kind of answer, a fresh random id each, never one the client sent', async () => {
    const origin = sandbox.origin;
    const json = { 'content-type': 'application/json' };
    const answers: Array<[string, Response]> = [
      [
        'service token 200',
        await postForm(`${origin}/svc/token`, {
          grant_type: 'client_credentials',
          client_id: defaults.LP_CLIENT_ID,
          client_secret: defaults.LP_CLIENT_SECRET,
        }),
      ],
      ['fleet list 200', await fleetGet(origin, '/vehicles')],
      ['fleet 401 (no API-Key)', await fetch(`${origin}/fleet/vehicles`)],
      ['fleet 404', await fleetGet(origin, '/vehicles/V-NOT-THERE')],
      ['unknown route 404', await fetch(`${origin}/nowhere`)],
      ['malformed percent-encoding 400', await fetch(`${origin}/fleet/vehicles/%zz`)],
      ['token 400 (not JSON)', await fetch(`${origin}/svc/token`, { method: 'POST', headers: json, body: '{' })],
      [
        'milestone 413',
        await fetch(`${origin}/svc/v1/load-milestone-events`, { method: 'POST', headers: json, body: 'x'.repeat(1024 * 1024 + 1) }),
      ],
      ['authorize 302', await authorize(origin, { state: 'st' })],
      ['sandbox health 200', await fetch(`${origin}/_sandbox/health`, { headers: { [REQUEST_ID_HEADER]: 'chosen-by-the-client' } })],
    ];
    const ids = answers.map(([label, response]) => [label, response.headers.get(REQUEST_ID_HEADER)] as const);
    for (const [label, id] of ids) expect(id, label).toMatch(UUID);
    expect(new Set(ids.map(([, id]) => id)).size).toBe(ids.length);
    await Promise.all(answers.map(([, response]) => response.body?.cancel()));
  });

  it("reach the client's ApiError: in requestIds and in its message", async () => {
    const lp = createLogisticsClient({ fleetBaseUrl: `${sandbox.origin}/fleet`, fleetApiKey: defaults.LP_FLEET_API_KEY });
    const error = await lp.fleet
      .GET('/vehicles/{vehicleNumber}', { params: { path: { vehicleNumber: 'V-DOES-NOT-EXIST' } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const id = (error as ApiError).requestIds[REQUEST_ID_HEADER];
    expect(id).toMatch(UUID);
    expect((error as ApiError).message).toContain(`(${REQUEST_ID_HEADER} ${id})`);

    const wrongKey = createLogisticsClient({ fleetBaseUrl: `${sandbox.origin}/fleet`, fleetApiKey: 'not-the-key' });
    const refused = await wrongKey.fleet.GET('/vehicles').catch((e: unknown) => e);
    expect((refused as ApiError).status).toBe(401);
    expect((refused as ApiError).requestIds[REQUEST_ID_HEADER]).toMatch(UUID);
  });
});

describe('request ids of a switchable sandbox', () => {
  let switchable: SwitchableSandbox;
  let origin: string;
  beforeAll(async () => {
    const credentials = readCredentials({});
    const build = () => buildSandbox({ credentials, logLevel: 'silent' });
    switchable = await serveSwitchable(build, build());
    await switchable.listen(0, '127.0.0.1');
    origin = `http://127.0.0.1:${(switchable.server.address() as AddressInfo).port}`;
  });
  afterAll(() => switchable?.close());

  it('are on the switch route and on the API behind it', async () => {
    const own = await fetch(`${origin}${SWITCH_PATH}`);
    const api = await fetch(`${origin}/fleet/vehicles`);
    expect(own.headers.get(REQUEST_ID_HEADER)).toMatch(UUID);
    expect(api.headers.get(REQUEST_ID_HEADER)).toMatch(UUID);
    await Promise.all([own.body?.cancel(), api.body?.cancel()]);
  });
});
