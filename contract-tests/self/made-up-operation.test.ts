// ARCHITECTURE.md's recipe for adding an operation, proven on a made-up one: added to a copy of the fleet bundle (one
// path, with its x-seed-section and a request example), it is found by everything the suite derives from the bundles,
// with no other edit: the registry (its parameters and credentials), a valid request from the spec's examples, every
// operator on every parameter, the authentication matrix, the coverage table, the promise its violations are titled
// by, the exchange checks that judge it by its role, the property-based inputs of its path and the probe of the size
// limit its x-assumption sets. Pure: nothing is sent.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seedSections } from '../../spec-core/seed-sections.ts';
import { EXCHANGE_CHECKS } from '../judge/exchange-checks.ts';
import { promiseOf } from '../judge/promises.ts';
import { fuzzTargets } from '../operators/fuzz-inputs.ts';
import { limitProbes } from '../operators/input-limits.ts';
import { isInapplicable } from '../operators/operator.ts';
import { applicationsOf, operatorProblems } from '../operators/operators.ts';
import { coverage, dimensionCoverage } from '../report/coverage.ts';
import { matrixCases, matrixProblems } from '../security/auth-matrix.ts';
import { validParts } from '../send/model.ts';
import { modelEntryOf, modelProblems } from '../model/model-entries.ts';
import { registryOf, registryProblems, rolesOf } from '../model/operations.ts';
import { specBundles, listOperations } from '../model/spec.ts';
import { workerRun } from '../support/worker-run.ts';
import { standIns } from './stand-ins.ts';

const run = workerRun();

const MADE_UP = 'getVehicleByVin';

/** A copy of the bundles whose fleet API has one more operation: GET /vehicles/by-vin/{vin}. */
function withMadeUpOperation() {
  const docs = structuredClone(specBundles());
  (docs.fleet.paths as Record<string, unknown>)['/vehicles/by-vin/{vin}'] = {
    get: {
      operationId: MADE_UP,
      'x-seed-section': '4.7',
      'x-assumption': {
        what: '`vin` is at most 64 characters; a longer one is refused with 400.',
        why: 'Size limits are not shown (seed 8).',
        seed: '8',
      },
      tags: ['Vehicles'],
      summary: 'Get one vehicle by its vin',
      description: 'Returns the vehicle with this VIN, if it is accessible to your account.',
      parameters: [
        { name: 'vin', in: 'path', required: true, schema: { type: 'string', minLength: 1, maxLength: 64, example: '1ZE2UH9DLLZRK1GLX' } },
      ],
      responses: {
        '200': { description: 'The vehicle.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Vehicle' } } } },
        '401': {
          description: 'No or a wrong API-Key.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
        '4XX': { description: 'Any other client error.' },
      },
    },
  };
  const operations = listOperations(docs);
  const registry = registryOf(docs, operations);
  return { docs, operations, registry, entry: registry.find((e) => e.operationId === MADE_UP)! };
}

describe('an operation added to the specs, and nothing else', () => {
  const { docs, operations, registry, entry } = withMadeUpOperation();
  const model = modelEntryOf(entry, { registry, roles: rolesOf(registry, docs) });

  it('is in the registry with its path parameter, its credential and its seed section', () => {
    expect(entry.operation).toMatchObject({
      method: 'GET',
      path: '/vehicles/by-vin/{vin}',
      baseVariable: 'LP_FLEET_BASE_URL',
      seedSection: '4.7',
    });
    expect(entry.parameters.map((p) => `${p.in} ${p.name}${p.credential ? ` (${p.credential})` : ''}`)).toEqual([
      'path vin',
      'header API-Key (fleetApiKey)',
    ]);
    expect(entry.credentials).toEqual(['fleetApiKey']);
    expect(registryProblems([entry], seedSections())).toEqual([]);
    expect(modelProblems(registry, operations)).toEqual([]);
  });

  it('gets a valid request from the examples of its spec, with no entry in the table of valid requests', async () => {
    expect((await validParts(run, model)).path).toEqual({ vin: '1ZE2UH9DLLZRK1GLX' });
  });

  it('meets every operator on each parameter and credential', () => {
    expect(operatorProblems([entry], standIns)).toEqual([]);
    const applied = applicationsOf(entry, standIns(entry)).filter((a) => !isInapplicable(a.made));
    expect(new Set(applied.map((a) => a.parameter?.name ?? '(the request)'))).toEqual(new Set(['vin', 'API-Key', '(the request)']));
  });

  it('is in the authentication matrix, every scheme of it exercised', () => {
    const values = {
      bearer: 'stand-in-bearer',
      subscriptionKey: 'stand-in-key',
      fleetApiKey: 'stand-in-fleet',
      clientId: 'c',
      clientSecret: 's',
    };
    const cases = matrixCases(model, values);
    expect(cases.map((c) => c.kind)).toContain('no credential');
    expect(matrixProblems([model], [entry.operation], (e) => matrixCases(e, values))).toEqual([]);
  });

  it('has its rows in the coverage table and the negative-space table', () => {
    expect(
      coverage([], operations)
        .filter((r) => r.operationId === MADE_UP)
        .map((r) => r.status),
    ).toEqual(['200', '401', '4XX']);
    expect(dimensionCoverage([], operations).map((r) => r.operationId)).toContain(MADE_UP);
  });

  it("titles its violations by the published documentation's section", () => {
    expect(promiseOf('answers the vehicle', 'answer', MADE_UP, operations)).toBe(
      `Published documentation, section 4.7 (${seedSections()['4.7']!.title}): answers the vehicle`,
    );
  });

  it('is judged by the exchange checks of every exchange and of its role (it answers vehicles: lessee isolation)', () => {
    const roles = rolesOf(registry, docs);
    expect(roles.answersVehicles).toContain(MADE_UP);
    expect(EXCHANGE_CHECKS.filter((c) => c.operations === '*').map((c) => c.id)).toEqual(
      expect.arrayContaining(['no-server-error', 'documented-answer', 'no-credential-echo', 'refusals-disclose-nothing']),
    );
    expect(registry.filter((e) => e.credentials.length).map((e) => e.operationId)).toContain(MADE_UP);
  });

  it('gets property-based inputs of its path, valid and invalid, from its schema', () => {
    const fuzz = fuzzTargets([model]);
    expect(fuzz.map((t) => `${t.place}: ${t.what} (${t.replaced.map((p) => p.name).join(', ')})`)).toEqual(['path: path parameters (vin)']);
    const [target] = fuzz;
    const valid = fc.sample(target!.arbitrary('valid'), { numRuns: 20, seed: 1 }).map((input) => String(input.vin));
    expect(valid.every((vin) => vin.length >= 1 && vin.length <= 64)).toBe(true);
    const invalid = fc.sample(target!.arbitrary('invalid'), { numRuns: 40, seed: 1 }).map((input) => String(input.vin));
    expect(invalid.some((vin) => vin.length > 64 || vin.trim() === '' || vin.includes('%'))).toBe(true);
    expect(target!.change({ vin: 'V-1' })({ path: {}, query: [], headers: {} }).path).toEqual({ vin: 'V-1' });
  });

  it('has its size limit probed one over, on its path parameter, by the x-assumption that sets it', () => {
    const [probe] = limitProbes([model], docs);
    expect(probe).toMatchObject({ parameter: { in: 'path', name: 'vin' }, max: 64, assumption: { api: 'fleet', seed: '8' } });
    expect(probe!.assumption.what).toMatch(/^`vin` is at most 64 characters/);
    expect(limitProbes([model])).toEqual([]);
  });
});
