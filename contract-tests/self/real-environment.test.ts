// What a real environment does that a loopback sandbox does not, end to end through `contract:live`:
// - it decides the "not shown" points its own way: the vehicle list wrapped in an object, fleet JSON under another
//   content type. A contradicted assumption must not cascade: the run passes with the contradictions reported, and the
//   checks that build on the list still judge what the server sent (a leak of another lessee's vehicle still fails);
// - it refuses the configured credentials, cannot be reached, or the suite itself fails: "could not judge", exit 2,
//   never a violation and never a pass.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { throughProxy } from '../fixtures/contradicting-proxy.ts';
import { type RealEnvironmentProxy, startRealEnvironmentProxy } from '../fixtures/real-environment-proxy.ts';
import { startSandbox, type TargetServer } from '../runner/target-server.ts';
import { EXIT_CODES } from '../runner/verdict.ts';
import { skipIf } from '../support/skips.ts';
import { target } from '../support/target.ts';
import { contractLive, LIVE_RUN_TIMEOUT_MS, type LiveRun, verdictLine } from './live-runs.ts';

// The fleet's checks and its lessee-isolation checks: what builds on the list.
const FLEET_FILES = ['contract-tests/fleet/vehicles.test.ts', 'contract-tests/security/lessee-ownership.test.ts'];
const onlyWithMock = () => (target.name === 'mock' ? undefined : 'a self-test of the suite; it runs with the mock target');

const out = mkdtempSync(join(tmpdir(), 'lp-contract-real-'));
const servers: Array<TargetServer | RealEnvironmentProxy> = [];
let runs: Record<'shapes' | 'leak' | 'wrongKey' | 'unreachable' | 'crash', LiveRun> | undefined;

/** A sandbox (with a mutation, if given) behind a proxy that wraps the list and relabels the fleet's JSON. */
async function differentShapes(mutation?: string): Promise<Record<string, string>> {
  const sandbox = await startSandbox(mutation ? { mutation } : {});
  servers.push(sandbox);
  const upstream = new URL(sandbox.env.LP_BASE_URL!).origin;
  const proxy = await startRealEnvironmentProxy(upstream, { listWrapper: true, fleetContentType: 'text/plain; charset=utf-8' });
  servers.push(proxy);
  return throughProxy(sandbox.env, upstream, proxy.origin);
}

beforeAll(async () => {
  if (onlyWithMock()) return;
  const [conforming, leaking] = await Promise.all([differentShapes(), differentShapes('list-leaks-foreign-vehicles')]);
  const quick = ['--tries', '1', '--workers', '1'];
  const [shapes, leak, wrongKey, unreachable, crash] = await Promise.all([
    contractLive(conforming, join(out, 'shapes'), [], FLEET_FILES),
    contractLive(leaking, join(out, 'leak'), [], FLEET_FILES),
    contractLive({ ...conforming, LP_FLEET_API_KEY: 'not-the-configured-key' }, join(out, 'wrong-key'), quick, FLEET_FILES),
    contractLive({ ...conforming, LP_FLEET_BASE_URL: 'http://127.0.0.1:1/fleet' }, join(out, 'unreachable'), quick, FLEET_FILES),
    // The suite's own failure: vitest is asked for a file the suite does not have, so no check ever reports.
    contractLive(conforming, join(out, 'crash'), quick, ['contract-tests/fleet/no-such-file.test.ts']),
  ]);
  runs = { shapes, leak, wrongKey, unreachable, crash };
}, LIVE_RUN_TIMEOUT_MS + 30_000);

afterAll(async () => {
  for (const server of servers.reverse()) await ('stop' in server ? server.stop() : server.close());
  rmSync(out, { recursive: true, force: true });
});

describe('a contradicted assumption never cascades', () => {
  it('a wrapped list under another content type passes, each contradiction reported, every fleet check run', (ctx) => {
    skipIf(ctx, [], onlyWithMock());
    const { shapes } = runs!;
    expect(verdictLine(shapes), shapes.output.slice(-6000)).toMatch(
      /^contract verdict: PASS: 0 violations, [1-9]\d* contradicted assumptions, 0 checks could not be judged/,
    );
    expect(shapes.exitCode).toBe(EXIT_CODES.pass);
    const contradicted = shapes.assumptions.filter((a) => a.outcome === 'contradicted').map((a) => a.what);
    expect(contradicted.join('\n')).toContain('The list response is a bare JSON array');
    expect(contradicted.join('\n')).toContain('is sent as JSON, with the content type `application/json`.');
    // The checks that build on the list read the vehicles from the wrapper: none of them is skipped for it.
    expect(shapes.output).not.toMatch(/the vehicle list cannot be read/);
  });

  it("the same server leaking another lessee's vehicle fails, with the leak as the violation", (ctx) => {
    skipIf(ctx, [], onlyWithMock());
    const { leak } = runs!;
    expect(leak.exitCode, leak.output.slice(-6000)).toBe(EXIT_CODES.fail);
    expect(verdictLine(leak)).toMatch(/^contract verdict: FAIL: [1-9]\d* violations/);
    expect(leak.output).toMatch(/listed vehicles of another lessee|not\.toContain/);
  });
});

describe("what is nobody's verdict ends as 'could not judge' (exit 2)", () => {
  it('credentials the target refuses: named in one line, no check run, never green', (ctx) => {
    skipIf(ctx, [], onlyWithMock());
    const { wrongKey } = runs!;
    expect(wrongKey.exitCode, wrongKey.output.slice(-3000)).toBe(EXIT_CODES.couldNotJudge);
    expect(wrongKey.output).toMatch(/preflight: fleet API .* refused the configured credentials \(401\): check LP_FLEET_API_KEY/);
    expect(verdictLine(wrongKey)).toMatch(/^contract verdict: COULD NOT JUDGE/);
    expect(wrongKey.output).not.toContain('not-the-configured-key');
  });

  it('an unreachable target: one line, no stack trace, no violation', (ctx) => {
    skipIf(ctx, [], onlyWithMock());
    const { unreachable } = runs!;
    expect(unreachable.exitCode, unreachable.output.slice(-3000)).toBe(EXIT_CODES.couldNotJudge);
    expect(unreachable.output).toMatch(/preflight: fleet API .* could not be reached: GET \/fleet\/vehicles: the connection failed/);
    expect(unreachable.output).not.toMatch(/\n\s+at /);
  });

  it("the suite's own failure is neither a violation nor a pass", (ctx) => {
    skipIf(ctx, [], onlyWithMock());
    const { crash } = runs!;
    expect(crash.exitCode, crash.output.slice(-3000)).toBe(EXIT_CODES.couldNotJudge);
    expect(verdictLine(crash)).toMatch(/^contract verdict: COULD NOT JUDGE: 0 violations/);
  });
});
