// The Prism mock script: starts, prints the three LP_* base URLs, validates requests,
// honours Prefer: example=..., and stops its Prism child on SIGTERM.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle } from '../../spec-core/bundles.ts';
import { startProcess, type RunningProcess } from './sandbox-process.ts';

let mock: RunningProcess;
let origin: string;
beforeAll(async () => {
  mock = await startProcess('scripts/mock.ts', ['--port', '0'], 'mock ready');
  origin = mock.env.LP_BASE_URL!;
});
afterAll(() => mock?.stop());

/** Prism processes started by the given mock process (Prism listens on a loopback port behind the mock's guard). */
const prismProcessesOf = (parent: number) =>
  execFileSync('ps', ['-eo', 'ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes('prism-cli') && Number(line.trim().split(/\s+/)[0]) === parent);

describe('scripts/mock.ts', () => {
  it('prints the three base URLs, all the same loopback origin, the placeholder credentials, then "mock ready"', () => {
    expect(mock.stdout).toMatch(
      /^LP_BASE_URL=http:\/\/127\.0\.0\.1:\d+\nLP_AUTH_URL=\S+\nLP_FLEET_BASE_URL=\S+\n(LP_\w+=\S+\n)+mock ready\n$/,
    );
    expect(mock.env.LP_AUTH_URL).toBe(origin);
    expect(mock.env.LP_FLEET_BASE_URL).toBe(origin);
  });

  it('validates security: a fleet request without API-Key is answered 401', async () => {
    expect((await fetch(`${origin}/vehicles`)).status).toBe(401);
  });

  it('validates bodies: a milestone without required fields is answered 4xx', async () => {
    const response = await fetch(`${origin}/v1/load-milestone-events`, {
      method: 'POST',
      headers: { authorization: 'Bearer anything', 'content-type': 'application/json' },
      body: JSON.stringify({ load_id: 'LD-1' }),
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });

  it('serves the identity provider paths (path-level servers do not get in the way)', async () => {
    const response = await fetch(`${origin}/oauth2/default/v1/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'ocp-apim-subscription-key': 'k' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'a', client_secret: 'b', scope: 's' }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
  });

  it('honours Prefer: example=listVehicles200Example', async () => {
    const fleet = loadBundle('fleet');
    const example = fleet.paths['/vehicles'].get.responses['200'].content['application/json'].examples.listVehicles200Example.value;
    const response = await fetch(`${origin}/vehicles`, { headers: { 'api-key': 'any', prefer: 'example=listVehicles200Example' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(example);
  });

  it('honours Prefer: code=404', async () => {
    const response = await fetch(`${origin}/vehicles/V-1`, { headers: { 'api-key': 'any', prefer: 'code=404' } });
    expect(response.status).toBe(404);
  });

  it('answers a malformed percent-encoding with a 400 and keeps serving (Prism alone exits on it)', async () => {
    for (const path of ['/vehicles/%', '/vehicles/%E0%A4%A', '/v1/%zz']) {
      const response = await fetch(`${origin}${path}`, { headers: { 'api-key': 'any' } });
      expect(response.status, path).toBe(400);
      expect(await response.json(), path).toMatchObject({ code: 'invalid_request' });
    }
    // A malformed query is Prism's to answer (it does, without exiting).
    expect((await fetch(`${origin}/vehicles?vin=%zz`, { headers: { 'api-key': 'any' } })).status).toBeLessThan(500);
    expect((await fetch(`${origin}/vehicles/V-1`, { headers: { 'api-key': 'any', prefer: 'code=404' } })).status).toBe(404);
  });

  it('stops its Prism child on SIGTERM', async () => {
    const pid = mock.child.pid!;
    expect(prismProcessesOf(pid)).toHaveLength(1);
    expect(await mock.stop()).toBe(0);
    await expect(fetch(`${origin}/vehicles`)).rejects.toThrow();
    expect(prismProcessesOf(pid)).toEqual([]);
  });
});

describe('scripts/mock.ts --dynamic --seed', () => {
  it('generates schema-shaped data, the same for the same seed', async () => {
    const dynamic = await startProcess('scripts/mock.ts', ['--port', '0', '--dynamic', '--seed', 'fixed-seed'], 'mock ready');
    try {
      const get = async () => (await fetch(`${dynamic.env.LP_FLEET_BASE_URL}/vehicles/V-1`, { headers: { 'api-key': 'any' } })).json();
      const [first, second] = [await get(), await get()];
      expect(first).toEqual(second);
      expect(Object.keys(first as object).sort()).toEqual([
        'customerNumber',
        'customerVehicleNumber',
        'domicileLocationName',
        'domicileLocationNumber',
        'licensePlate',
        'vehicleNumber',
        'vehicleType',
        'vin',
      ]);
    } finally {
      await dynamic.stop();
    }
  });
});
