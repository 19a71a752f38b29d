// The report's notes of what the published client sent again are what the client did, never guessed from the requests:
// whole runs of the flow that sends one call three times on purpose (flows/token-reuse.test.ts), against a loopback
// server that answers every call, and against one that refuses the first token it issued once. The first run has no
// note of the client; the second, exactly one: the replay after the 401, with the answer it got.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testWaitMs } from '../../config/test-waits.ts';
import { runSettingsOf } from '../send/run-settings.ts';
import { runSuite, type SuiteRun } from '../runner/run-suite.ts';
import type { LedgerEntry } from '../send/ledger.ts';
import { skipIf } from '../support/skips.ts';
import { workerRun } from '../support/worker-run.ts';

const run = workerRun();
const { target } = run;

type Note = Extract<LedgerEntry, { kind: 'note' }>;

const FLOW = 'contract-tests/flows/token-reuse.test.ts';
const cleanUp: Array<() => void> = [];
afterAll(() => {
  for (const done of cleanUp.splice(0)) done();
});

/** A carriers service on loopback: tokens token-1, token-2, ...; every milestone recorded, but one carrying a refused token. */
async function carriersService(refused: string | undefined): Promise<Server> {
  let issued = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
        response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
      if (request.url?.endsWith('/token')) {
        issued += 1;
        const noStore = { 'cache-control': 'no-store', pragma: 'no-cache' };
        return json(200, { access_token: `token-${issued}-for-the-self-test`, token_type: 'Bearer', expired_in: 3600 }, noStore);
      }
      if (refused && request.headers.authorization === `Bearer ${refused}`)
        return json(401, { message: 'token revoked' }, { 'www-authenticate': 'Bearer error="invalid_token"' });
      json(200, { message: 'recorded' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanUp.push(() => server.close());
  return server;
}

/** The flow run as a partner's live run would, against `server`; its run and the notes of its report (coverage.json). */
async function runFlow(server: Server): Promise<{ run: SuiteRun; notes: Note[] }> {
  const out = mkdtempSync(join(tmpdir(), 'lp-contract-client-evidence-'));
  cleanUp.push(() => rmSync(out, { recursive: true, force: true }));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const run = await runSuite({
    settings: runSettingsOf({
      LP_CONTRACT_TARGET: 'live',
      LP_CONTRACT_OUT: out,
      LP_BASE_URL: baseUrl,
      LP_AUTH_URL: baseUrl,
      LP_FLEET_BASE_URL: baseUrl,
      LP_CLIENT_ID: 'contract-self-client',
      LP_CLIENT_SECRET: 'contract-self-secret-client-evidence',
      LP_SUBSCRIPTION_KEY: 'contract-self-subscription-key-client-evidence',
      LP_FLEET_API_KEY: 'contract-self-fleet-key-client-evidence',
      LP_SCOPE: 'carriers.milestones',
      LP_REDIRECT_URI: 'http://127.0.0.1:9/cb',
      // The flow records real milestones: the loopback service keeps nothing.
      LP_ALLOW_WRITES: '1',
      LP_TEST_LOAD_ID: 'LD-CONTRACT-SELF-TEST',
      LP_CONTRACT_WORKERS: '1',
    }),
    vitestArgs: [FLOW],
  });
  const coverage = JSON.parse(readFileSync(join(out, 'coverage.json'), 'utf8')) as { notes: Note[] };
  return { run, notes: coverage.notes };
}

const clientNotes = (notes: Note[]) => notes.filter((note) => note.dimension === 'client');

describe("the notes of the published client's re-sends", () => {
  it(
    'none for a call sent three times on purpose; exactly one, in words, for a replay after a 401',
    async (ctx) => {
      // It tests the suite, not the target: once per `npm test` (the mock run) is enough.
      skipIf(run, ctx, [], target.name === 'mock' ? undefined : 'a self-test of the suite; it runs with the mock target');
      // Side by side: the runs wait on the flow's pauses more than they work.
      const [clean, replayed] = await Promise.all([
        carriersService(undefined).then(runFlow),
        carriersService('token-1-for-the-self-test').then(runFlow),
      ]);
      expect(clean.run.passed, `the clean run's flow passed:\n${clean.run.output}`).toBe(1);
      expect(clientNotes(clean.notes), 'three identical calls sent on purpose are no re-send').toEqual([]);
      // The replay's check fails (a token refused within its hour), but its note says what the client did.
      expect(replayed.run.failed, `the refused token fails the flow:\n${replayed.run.output}`).toBe(1);
      expect(clientNotes(replayed.notes)).toEqual([
        {
          kind: 'note',
          operationId: 'recordLoadMilestoneEvent',
          dimension: 'client',
          text: 'the published client renewed its token after a 401 and sent recordLoadMilestoneEvent again; the server answered 200',
          test: expect.stringContaining('one token keeps working for recordLoadMilestoneEvent'),
        },
      ]);
    },
    testWaitMs(120_000),
  );
});
