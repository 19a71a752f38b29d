// Every x-codeSample runs as shown against a sandbox with its default data: the curl samples with the LP_* settings
// the sandbox prints, the TypeScript samples against the client's source. The identifiers they name (vehicle numbers,
// VINs, customer numbers) are vehicles the sandbox's default fleet key may read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type TargetServer } from '../../tools/targets.ts';
import { SANDBOX_DEFAULTS } from '../../sandbox/config.ts';
import { buildLessees, buildVehicles, DEFAULT_VEHICLE_COUNT, type Vehicle } from '../../sandbox/fleet-fixtures.ts';
import { API_NAMES } from '../../spec-core/apis.ts';
import { loadBundle } from '../../spec-core/bundles.ts';
import { operationsOf } from '../../spec-core/operations.ts';
import { runShellSample, runTypeScriptSamples, type SampleRun } from './run-sample.ts';
import { testWaitMs } from '../../config/test-waits.ts';

interface Sample {
  operationId: string;
  lang: string;
  source: string;
}

const samples: Sample[] = API_NAMES.flatMap((api) =>
  operationsOf(loadBundle(api)).flatMap(({ op }) =>
    (op['x-codeSamples'] as Array<{ lang: string; source: string }>).map(({ lang, source }) => ({
      operationId: op.operationId as string,
      lang,
      source,
    })),
  ),
);

/** The vehicles `npm run sandbox` serves to its default fleet key (lessee L-4100). */
const lessees = buildLessees(SANDBOX_DEFAULTS.LP_FLEET_API_KEY, 'other-lessee-key');
const ownCustomers = new Set(lessees[0]!.customerNumbers);
const ownVehicles: Vehicle[] = buildVehicles(DEFAULT_VEHICLE_COUNT, lessees).filter((v) => ownCustomers.has(v.customerNumber));

/** Identifiers a sample or example names: vehicle numbers, customer numbers and VINs (17 characters, no I, O or Q). */
const identifiersIn = (text: string) =>
  text.match(/\bV-\d+\b|\bC-\d{6}\b|\b(?=[A-HJ-NPR-Z0-9]*\d)(?=[A-HJ-NPR-Z0-9]*[A-Z])[A-HJ-NPR-Z0-9]{17}\b/g) ?? [];
const known = new Set(ownVehicles.flatMap((v) => [v.vehicleNumber, v.vin, v.customerNumber]));

describe('sample identifiers', () => {
  it("every vehicle, VIN and customer number in the fleet samples and examples is in the sandbox's default data", () => {
    // Error examples name an unknown vehicle on purpose; every other example and sample names a real one.
    const fleet = loadBundle('fleet');
    for (const { op } of operationsOf(fleet))
      for (const status of Object.keys(op.responses)) if (!status.startsWith('2')) delete op.responses[status];
    const named = identifiersIn(JSON.stringify(fleet));
    expect(named.length).toBeGreaterThan(5);
    expect([...new Set(named)].filter((id) => !known.has(id))).toEqual([]);
    expect(identifiersIn('V-1004 1FUJGLDR5CLBP8834').filter((id) => !known.has(id))).toEqual(['V-1004', '1FUJGLDR5CLBP8834']);
  });
});

describe('every sample against the sandbox', () => {
  let sandbox: TargetServer;
  const runs = new Map<Sample, SampleRun>();

  beforeAll(async () => {
    sandbox = await startSandbox();
    const env: Record<string, string> = { ...sandbox.env };
    // What a reader has from the steps before: a service token ($ACCESS_TOKEN) and an authorization code ($CODE).
    const token = JSON.parse(
      runShellSample(samples.find((s) => s.operationId === 'requestServiceToken' && s.lang === 'Shell')!.source, env).stdout,
    );
    env.ACCESS_TOKEN = token.access_token;
    const authorize = runShellSample(samples.find((s) => s.operationId === 'requestAuthorization' && s.lang === 'Shell')!.source, env);
    env.CODE = new URL(authorize.stdout.trim().split(' ')[1] ?? 'http://x').searchParams.get('code') ?? '';
    for (const sample of samples.filter((s) => s.lang === 'Shell')) runs.set(sample, runShellSample(sample.source, env));
    const typescript = samples.filter((s) => s.lang === 'TypeScript');
    for (const [i, run] of runTypeScriptSamples(
      typescript.map((s) => s.source),
      env,
    ).entries()) {
      runs.set(typescript[i]!, run);
    }
  }, testWaitMs(90_000));
  afterAll(() => sandbox?.stop());

  /** The JSON values a curl sample printed (several commands print several, back to back). */
  const jsonOutputs = (stdout: string): any[] =>
    stdout
      .replace(/\}\s*([[{])/g, '}\n$1')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));

  it.each(samples)('$operationId ($lang) runs without an error', (sample) => {
    const run = runs.get(sample)!;
    // Only the status and the error text are compared: the output can hold a (sandbox) token.
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).not.toMatch(/"error"|unknown, or not in your fleet/);
  });

  it('the curl samples answer what the docs say', () => {
    const out = (id: string) => runs.get(samples.find((s) => s.operationId === id && s.lang === 'Shell')!)!.stdout;
    expect(jsonOutputs(out('requestServiceToken'))[0]).toMatchObject({ token_type: 'Bearer', expired_in: 3600 });
    expect(jsonOutputs(out('requestIdentityProviderToken')).map((t) => [t.token_type, typeof t.expires_in])).toEqual([
      ['Bearer', 'number'],
      ['Bearer', 'number'],
    ]);
    expect(out('requestAuthorization')).toMatch(/^302 \S+[?&]code=/);
    expect(jsonOutputs(out('recordLoadMilestoneEvent'))[0].message).toMatch(/recorded/);
    const listed = jsonOutputs(out('listVehicles'))[0] as Vehicle[];
    expect(listed.length).toBe(2);
    for (const vehicle of [...listed, jsonOutputs(out('getVehicle'))[0]]) expect(ownVehicles).toContainEqual(vehicle);
  });

  it('the TypeScript samples print what the docs say', () => {
    const out = (id: string) => runs.get(samples.find((s) => s.operationId === id && s.lang === 'TypeScript')!)!.stdout;
    expect(out('requestServiceToken')).toBe('token valid for 3600 s\n');
    expect(out('recordLoadMilestoneEvent')).toMatch(/recorded/);
    expect(out('listVehicles').trim().split('\n')).toHaveLength(2);
    expect(ownVehicles.map((v) => v.vin)).toContain(out('getVehicle').split(' ')[0]);
  });
});
