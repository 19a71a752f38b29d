// Dredd and Prism's validating proxy against the sandbox, through the module `npm run dredd -- --target sandbox` calls
// (contract-tests/dredd/run-dredd.ts): the correct sandbox passes every transaction dredd can run there, and a response
// that breaks only the schema (same keys, wrong type) fails the run, which dredd's own key comparison would let pass.
// Run by `npm run test:dredd`, one of the end-to-end rehearsals (`npm run test:end-to-end`).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dreddAgainst, parseResults } from '../../contract-tests/dredd/run-dredd.ts';
import { RESULT_PREFIX } from '../../contract-tests/dredd/dredd-process.ts';
import { dotenvLines, readCredentials } from '../../sandbox/config.ts';
import type { MutationId } from '../../sandbox/mutations.ts';
import { startInProcess } from '../sandbox/sandbox-process.ts';

// Its own reports: the dredd step of `npm test` writes dist/contract/dredd meanwhile.
const outDir = mkdtempSync(join(tmpdir(), 'lp-sandbox-dredd-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/** Runs dredd against an in-process sandbox with the LP_* settings it would print, less those `without` names. */
async function dreddOnSandbox(mutation?: MutationId, without: string[] = []) {
  const sandbox = await startInProcess({ mutation });
  try {
    const lines = dotenvLines(sandbox.origin, readCredentials({}), {
      vehicleNumber: sandbox.foreignVehicleNumber,
      customerNumber: sandbox.foreignCustomerNumber,
    });
    const env = Object.fromEntries(lines.filter((line) => !without.includes(line.name)).map((line) => [line.name, line.value]));
    return { env, run: await dreddAgainst('sandbox', env, join(outDir, mutation ?? 'correct')) };
  } finally {
    await sandbox.close();
  }
}

describe('dredd through the validating proxy', () => {
  it('passes every transaction it can run against the correct sandbox, in each of the four documents', async () => {
    const { run } = await dreddOnSandbox();
    expect(run.notRun).toEqual([]);
    expect(run.results.map((r) => r.name).sort()).toEqual([
      'carriers-LP_BASE_URL',
      'fleet-LP_FLEET_BASE_URL',
      'token-LP_AUTH_URL',
      'token-LP_BASE_URL',
    ]);
    for (const result of run.results) {
      expect({ name: result.name, failing: result.failing, errors: result.errors }).toEqual({ name: result.name, failing: 0, errors: 0 });
      expect(result.passing, result.name).toBeGreaterThan(0);
      expect(result.passing + result.skipped).toBe(result.total);
    }
  });

  it('fails a token answer whose expired_in is a string, names the document, and never prints the client secret', async () => {
    // Only the service's documents: the failing one and the milestones next to it.
    const { env, run } = await dreddOnSandbox('service-token-expired-in-string', ['LP_AUTH_URL', 'LP_FLEET_BASE_URL']);
    expect(run.notRun).toEqual([
      'token-LP_AUTH_URL skipped: needs LP_AUTH_URL (not set)',
      'fleet-LP_FLEET_BASE_URL skipped: needs LP_FLEET_BASE_URL (not set)',
    ]);
    const token = run.results.find((r) => r.name === 'token-LP_BASE_URL');
    expect(token?.failing).toBeGreaterThan(0);
    // The proxy's verdict (same keys, so dredd's comparison alone would pass it).
    expect(run.output).toContain('prism/errors#VIOLATIONS');
    expect(run.output).not.toContain(env.LP_CLIENT_SECRET);
  });
});

describe('parseResults', () => {
  it('counts a document whose result line never came (the process died) as an error', () => {
    const line = `${RESULT_PREFIX}${JSON.stringify({ name: 'a', tests: 3, passes: 2, failures: 0, errors: 0, skipped: 1, seconds: 0.5 })}`;
    expect(parseResults(`noise\n${line}\n`, ['a', 'b'])).toEqual([
      { name: 'a', passing: 2, failing: 0, errors: 0, skipped: 1, total: 3, seconds: 0.5 },
      { name: 'b', passing: 0, failing: 0, errors: 1, skipped: 0, total: 0, seconds: 0 },
    ]);
  });
});
