// The judge records an assumption's confirmation only when it brings one of the first three evidence lines or observed
// answers the report shows (judge/judge-exchange.ts, Confirmations): the report of a ledger so thinned is the report of
// the whole ledger, for any confirmations of any assumptions spread over any number of workers, contradictions
// included, whatever order the workers' files are read in.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Confirmations } from '../judge/judge-exchange.ts';
import { assumptionReport } from '../report/assumption-outcomes.ts';
import type { LedgerEntry, Observed } from '../send/ledger.ts';
import { specAssumptions } from '../model/spec.ts';

type AssumptionEntry = Extract<LedgerEntry, { kind: 'assumption' }>;

// Some assumptions of the specs, of several nodes and bundles.
const assumptions = specAssumptions().filter((_, i) => i % 7 === 0);
const requests = ['GET /fleet/vehicles', 'GET /fleet/vehicles/V-1', 'POST /svc/token', 'GET /idp/authorize?state'];

/** One exchange's outcome of one assumption, as the judge would record it. */
const outcome = fc.record({
  assumption: fc.integer({ min: 0, max: assumptions.length - 1 }),
  request: fc.constantFrom(...requests),
  status: fc.constantFrom(200, 400, 401),
  body: fc.constantFrom('[]', '{"error":"invalid_request"}', '', '[{"vehicleNumber":"V-1"}]'),
  // One outcome in ten contradicts the assumption.
  contradicted: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
});

function entryOf(o: { assumption: number; request: string; status: number; body: string; contradicted: boolean }): AssumptionEntry {
  const a = assumptions[o.assumption]!;
  const observed: Observed = { request: o.request, status: o.status, contentType: 'application/json', body: o.body };
  return {
    kind: 'assumption',
    api: a.api,
    pointer: a.pointer,
    match: a.what,
    outcome: o.contradicted ? 'contradicted' : 'confirmed',
    evidence: o.contradicted
      ? `${o.request} answered ${o.status}: not as assumed`
      : `${o.request} answered ${o.status} application/json as assumed`,
    observed,
    test: 'a check',
  };
}

/** What a worker records of its outcomes: every contradiction, and the confirmations its Confirmations let through. */
function recorded(entries: AssumptionEntry[]): AssumptionEntry[] {
  const confirmations = new Confirmations();
  // As the judge does: a confirmation of an assumption that is full is not even weighed.
  return entries.filter(
    (e) => e.outcome === 'contradicted' || (!confirmations.full(e) && confirmations.shows(e, e.evidence, () => e.observed!)),
  );
}

describe('the confirmations an assumption needs recorded', () => {
  it('keep every report the same as the whole ledger would make it', () => {
    fc.assert(
      fc.property(fc.array(fc.array(outcome.map(entryOf), { maxLength: 60 }), { minLength: 1, maxLength: 3 }), (workers) => {
        const whole = assumptionReport(workers.flat());
        const thinned = assumptionReport(workers.flatMap(recorded));
        expect(thinned).toEqual(whole);
        // In any order of the workers' files, too.
        expect(assumptionReport([...workers].reverse().flatMap(recorded))).toEqual(assumptionReport([...workers].reverse().flat()));
      }),
      { seed: 38, numRuns: 200 },
    );
  });

  it('let through only what is new among the first three of either, and nothing after', () => {
    const confirmations = new Confirmations();
    const a = { api: 'fleet', pointer: '/x', match: 'm' };
    const seen = (evidence: string, body: string) =>
      confirmations.shows(a, evidence, () => ({ request: 'GET /', status: 200, contentType: 'application/json', body }));
    expect([seen('e1', 'b1'), seen('e1', 'b1'), seen('e2', 'b1'), seen('e2', 'b2'), seen('e3', 'b3')]).toEqual([
      true,
      false,
      true,
      true,
      true,
    ]);
    // Three of each are known: a fourth of either changes no report.
    expect(confirmations.full(a)).toBe(true);
    expect([seen('e4', 'b1'), seen('e1', 'b4'), seen('e5', 'b5')]).toEqual([false, false, false]);
  });

  it('is full only once three evidence lines and three observed answers are known', () => {
    const confirmations = new Confirmations();
    const a = { api: 'fleet', pointer: '/x', match: 'm' };
    const seen = (evidence: string, body: string) =>
      confirmations.shows(a, evidence, () => ({ request: 'GET /', status: 200, contentType: 'application/json', body }));
    const fullness: boolean[] = [confirmations.full(a)];
    for (const [evidence, body] of [
      ['e1', 'b1'],
      ['e2', 'b1'],
      ['e3', 'b1'],
      ['e3', 'b2'],
      ['e3', 'b3'],
    ] as const) {
      seen(evidence, body);
      fullness.push(confirmations.full(a));
    }
    expect(fullness).toEqual([false, false, false, false, false, true]);
    expect(confirmations.full({ ...a, match: 'another' })).toBe(false);
  });
});
