// Property-based checks of every operation of the registry: fast-check generates valid and invalid values of each
// place a request carries documented values in (its body, its query, its path) from the bundled schemas
// (operators/fuzz-inputs.ts); whatever the target answers must not be a 5xx and must conform to the spec, and every
// answer is judged by every exchange check. LP_CONTRACT_RUNS sets the runs per property (small by default; large on
// demand). Valid inputs of an operation that records data are sent only when writes are allowed, and a protected
// parameter (the test load) keeps its value in every input, so nothing is ever recorded for another load.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FuzzKind, fuzzTargets } from '../operators/fuzz-inputs.ts';
import type { Exchange } from '../send/fetch.ts';
import { reasonIfCannotSendKeeping, request, sampleValue } from '../send/model.ts';
import { specModel, type ModelEntry } from '../model/model-entries.ts';
import type { DocumentedParameter } from '../model/operations.ts';
import { forEachConcurrently } from '../send/transport.ts';
import type { VariableValue } from '../model/valid-requests.ts';
import { skipIf } from '../support/skips.ts';
import { workerRun } from '../support/worker-run.ts';

const run = workerRun();
const { target } = run;

// The run's settings (send/run-settings.ts): --runs (LP_CONTRACT_RUNS) and LP_CONTRACT_RANDOM_SEED.
const RUNS = run.runs;
const SEED = run.randomSeed;

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

/** A protected parameter's valid value (the test load), or a stand-in no server holds when its variable is unset. */
async function pinnedValue(entry: ModelEntry, parameter: DocumentedParameter): Promise<string> {
  const variable = (entry.table.values?.[parameter.name] as Partial<VariableValue> | undefined)?.variable;
  if (variable && target.env[variable] === undefined) return 'CONTRACT-TEST-REJECTED';
  return (await sampleValue(run, entry, parameter)) ?? 'CONTRACT-TEST-REJECTED';
}

// Of an endpoint with several body shapes, one whose valid request needs no authorization code: the body is generated.
const TARGETS = fuzzTargets(specModel(), (entry) => !entry.table.needsCode);
const CASES = TARGETS.flatMap((t) =>
  (['valid', 'invalid'] as const).map((kind) => [`${t.entry.operationId}: ${kind} ${t.what}`, t, kind] as const),
);

describe(`property-based requests (${RUNS} runs each)`, () => {
  it.for(CASES)('%s never get a 5xx and always conform', async ([, fuzz, kind], ctx) => {
    const { entry } = fuzz;
    const names = fuzz.replaced.map((p) => p.name);
    const writes =
      kind === 'valid' && entry.table.writes && !target.writesAllowed
        ? 'writes are not allowed (LP_ALLOW_WRITES=1 and LP_TEST_LOAD_ID): valid inputs would be recorded'
        : undefined;
    skipIf(run, ctx, [entry.operationId], await reasonIfCannotSendKeeping(run, entry, names, false), writes);
    const pinned: Record<string, string> = {};
    for (const parameter of fuzz.replaced)
      if (entry.table.protect?.[parameter.name]) pinned[parameter.name] = await pinnedValue(entry, parameter);
    // The replaced parameters' valid values are never built (no code, no list): the generated ones take their place.
    const values = Object.fromEntries(names.map((name) => [name, pinned[name] ?? '']));
    await holds(fuzz.arbitrary(kind as FuzzKind), (input) => request(run, entry, fuzz.change(input, pinned), { values }));
  });
});
