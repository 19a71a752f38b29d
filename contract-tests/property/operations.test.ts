// Property-based checks of every operation: fast-check generates valid and invalid inputs from the bundled schemas;
// whatever the target answers must not be a 5xx and must conform to the spec. LP_CONTRACT_RUNS sets the runs per
// property (small by default; large on demand). Valid milestones are posted only when writes are allowed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../send/fetch.ts';
import { modelEntry, request, variablesOf } from '../send/model.ts';
import { type Change, withPath } from '../send/parts.ts';
import { invalidObjectArbitrary, validArbitrary, type Schema } from '../operators/schema-arbitrary.ts';
import { skipIf } from '../support/skips.ts';
import { operationById } from '../send/spec.ts';
import { reasonIfUnset, target } from '../send/target.ts';
import { forEachConcurrently } from '../send/transport.ts';
import { integerVariable } from '../../config/environment.ts';

const RUNS = integerVariable('LP_CONTRACT_RUNS', 5, 1);
// A fixed random seed by default keeps a red run reproducible; LP_CONTRACT_RANDOM_SEED explores other inputs.
const SEED = integerVariable('LP_CONTRACT_RANDOM_SEED', 20261122, Number.MIN_SAFE_INTEGER);

const bodySchema = (operationId: string, mediaType: string): Schema => {
  const schema = operationById(operationId).requestBody?.content[mediaType]?.schema;
  if (!schema) throw new Error(`${operationId} documents no ${mediaType} request body`);
  return schema as Schema;
};
const parameterSchemas = (operationId: string) =>
  Object.fromEntries(
    operationById(operationId).parameters.map((p) => [
      String(p.name),
      { in: String(p.in), required: Boolean(p.required), schema: p.schema as Schema },
    ]),
  );

const formOf = (value: Record<string, unknown>) =>
  new URLSearchParams(Object.entries(value).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();

function queryOf(value: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, v] of Object.entries(value))
    for (const item of Array.isArray(v) ? v : [v]) params.append(key, typeof item === 'string' ? item : JSON.stringify(item));
  return params.toString();
}

/** An object arbitrary over the query parameters of an operation. */
function queryArbitrary(operationId: string, invalid: boolean): fc.Arbitrary<Record<string, unknown>> {
  const params = Object.entries(parameterSchemas(operationId)).filter(([, p]) => p.in === 'query');
  const schema: Schema = {
    type: 'object',
    properties: Object.fromEntries(params.map(([name, p]) => [name, p.schema])),
    required: params.filter(([, p]) => p.required).map(([name]) => name),
  };
  return invalid ? invalidObjectArbitrary('token', schema) : (validArbitrary('token', schema) as fc.Arbitrary<Record<string, unknown>>);
}

/**
 * Runs the property: each generated request's answer is below 500 and conforms (the contract fetch checks that). The
 * inputs are drawn up front from the fixed random seed and sent concurrently (the transport bounds what is in
 * flight): a far target costs one round trip per batch, not per run. Without shrinking (fast-check's would send a
 * request per step), a failure names its run and its input.
 */
async function holds<T>(arbitrary: fc.Arbitrary<T>, request: (input: T) => Promise<Exchange>): Promise<void> {
  const inputs = fc.sample(arbitrary, { numRuns: RUNS, seed: SEED });
  await forEachConcurrently(inputs, async (input, index) => {
    const { response, problems } = await request(input);
    const which = `run ${index + 1} of ${RUNS} (random seed ${SEED}), input ${JSON.stringify(input)?.slice(0, 200)}`;
    expect(response.status, `no 5xx: ${which}`).toBeLessThan(500);
    expect(problems, which).toEqual([]);
  });
}

/** The generated body in place of the valid request's (the credential headers stay). */
const body =
  (text: string): Change =>
  (parts) => ({ ...parts, form: undefined, json: undefined, raw: { ...parts.raw, body: text } });
/** The generated query in place of the valid request's. */
const query =
  (text: string): Change =>
  (parts) => ({ ...parts, query: [], raw: { ...parts.raw, query: text } });

const KINDS = ['valid', 'invalid'] as const;
/** Why the requests of an operation cannot be built here: a variable its valid request needs is unset. */
const unset = (operationId: string, variant?: string) => reasonIfUnset(target, ...variablesOf(modelEntry(operationId, variant)));
/** The generated query replaces the authorize request's: the valid values only stand in (none is needed). */
const AUTHORIZE_STAND_INS = { client_id: 'contract', redirect_uri: 'https://client.invalid/cb', scope: 'contract' };

describe(`property-based requests (${RUNS} runs each)`, () => {
  it.for(KINDS)('requestServiceToken: %s form bodies never get a 5xx and always conform', async (kind, ctx) => {
    skipIf(ctx, ['requestServiceToken'], unset('requestServiceToken'));
    const schema = bodySchema('requestServiceToken', 'application/x-www-form-urlencoded');
    const arbitrary =
      kind === 'valid'
        ? (validArbitrary('token', schema) as fc.Arbitrary<Record<string, unknown>>)
        : invalidObjectArbitrary('token', schema);
    await holds(arbitrary, (fields) => request('requestServiceToken', body(formOf(fields))));
  });

  it.for(KINDS)('requestIdentityProviderToken: %s form bodies never get a 5xx and always conform', async (kind, ctx) => {
    skipIf(ctx, ['requestIdentityProviderToken'], unset('requestIdentityProviderToken', 'client_credentials'));
    const schema = bodySchema('requestIdentityProviderToken', 'application/x-www-form-urlencoded');
    const arbitrary =
      kind === 'valid'
        ? (validArbitrary('token', schema) as fc.Arbitrary<Record<string, unknown>>)
        : invalidObjectArbitrary('token', schema);
    await holds(arbitrary, (fields) =>
      request('requestIdentityProviderToken', body(formOf(fields)), { variant: 'client_credentials', values: { scope: 'contract' } }),
    );
  });

  it.for(KINDS)('requestAuthorization: %s query strings never get a 5xx and always conform', async (kind, ctx) => {
    skipIf(ctx, ['requestAuthorization'], reasonIfUnset(target, 'LP_AUTH_URL'));
    await holds(queryArbitrary('requestAuthorization', kind === 'invalid'), (values) =>
      request('requestAuthorization', query(queryOf(values)), { values: AUTHORIZE_STAND_INS }),
    );
  });

  it.for(KINDS)('recordLoadMilestoneEvent: %s bodies never get a 5xx and always conform', async (kind, ctx) => {
    const gate =
      kind === 'valid' && !target.writesAllowed
        ? 'writes are not allowed (LP_ALLOW_WRITES=1 and LP_TEST_LOAD_ID): valid events would be recorded'
        : undefined;
    skipIf(ctx, ['recordLoadMilestoneEvent'], reasonIfUnset(target, 'LP_BASE_URL', 'LP_CLIENT_ID', 'LP_CLIENT_SECRET'), gate);
    const schema = bodySchema('recordLoadMilestoneEvent', 'application/json');
    const arbitrary =
      kind === 'valid'
        ? (validArbitrary('carriers', schema) as fc.Arbitrary<Record<string, unknown>>)
        : invalidObjectArbitrary('carriers', schema);
    // Every generated event names the test load, so that nothing is ever recorded for another load.
    const testLoad = target.env.LP_TEST_LOAD_ID ?? 'LD-CONTRACT-TEST-REJECTED';
    await holds(arbitrary, (event) =>
      request(
        'recordLoadMilestoneEvent',
        body(JSON.stringify(typeof event.load_id === 'string' ? { ...event, load_id: testLoad } : event)),
        {
          values: { load_id: testLoad },
        },
      ),
    );
  });

  it.for(KINDS)('listVehicles: %s filters and sorts never get a 5xx and always conform', async (kind, ctx) => {
    skipIf(ctx, ['listVehicles'], reasonIfUnset(target, 'LP_FLEET_BASE_URL', 'LP_FLEET_API_KEY'));
    await holds(queryArbitrary('listVehicles', kind === 'invalid'), (values) => request('listVehicles', query(queryOf(values))));
  });

  it.for(KINDS)('getVehicle: %s vehicle numbers never get a 5xx and always conform', async (kind, ctx) => {
    skipIf(ctx, ['getVehicle'], reasonIfUnset(target, 'LP_FLEET_BASE_URL', 'LP_FLEET_API_KEY'));
    const schema = parameterSchemas('getVehicle').vehicleNumber!.schema;
    const arbitrary =
      kind === 'valid'
        ? validArbitrary('fleet', schema).map(String)
        : fc.constantFrom(' ', '%', '%2F', '-', 'a'.repeat(500), '\u00e9\u00e8');
    await holds(arbitrary, (number) => request('getVehicle', withPath({ vehicleNumber: number })));
  });
});
