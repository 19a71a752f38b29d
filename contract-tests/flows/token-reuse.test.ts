// One token keeps working across the run (seed 5.2 and 8: an access token is valid for one hour). The published client
// gets a token once and calls the bearer-protected operation with it three times, seconds apart. Every exchange is
// judged by the exchange checks, so a refusal within the hour is a violation of token-lifetime even when the client
// absorbs it (it renews its token and replays the call); on top, this flow asserts the client needed neither: one
// token request, no 401. Read-only targets get an empty event, refused for its content, never for its token.
import { describe, expect, it } from 'vitest';
import { callOperation, logisticsClient } from '../send/clients.ts';
import { currentTest, type Exchange, onExchange } from '../send/fetch.ts';
import { reasonIfCannotSend, validMilestone } from '../send/model.ts';
import { modelEntry } from '../model/model-entries.ts';
import { specRoles } from '../model/operations.ts';
import { skipIf } from '../support/skips.ts';
import { workerRun } from '../support/worker-run.ts';

const run = workerRun();
const { target } = run;

const USES = 3;
/** Seconds apart, as a client that keeps its token between calls sends them. */
const PAUSE_MS = 1500;

/** The exchanges of the running check, as the one fetch hands them on. */
const seenIn = new Map<string, Exchange[]>();
onExchange((seen) => {
  if (seen.test.includes('one token keeps working')) seenIn.set(seen.test, [...(seenIn.get(seen.test) ?? []), seen]);
});

describe('flows the client could paper over', () => {
  it.for(specRoles().bearerProtected)(
    'one token keeps working for %s: used three times, seconds apart, with no renewal',
    async (operationId, ctx) => {
      const entry = modelEntry(operationId);
      const why = await reasonIfCannotSend(run, { ...entry, table: { ...entry.table, writes: false } });
      skipIf(run, ctx, [operationId], why);
      const client = logisticsClient(run);
      const body = target.writesAllowed ? await validMilestone(run) : {};
      for (let use = 0; use < USES; use++) {
        if (use > 0) await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
        // A refusal for the content (read-only) is expected; what the token did is read from the exchanges below.
        await callOperation((client as unknown as Record<string, object>)[entry.operation.api]!, operationId, { body }).catch(
          () => undefined,
        );
      }
      const exchanges = seenIn.get(currentTest()) ?? [];
      const tokenRequests = exchanges.filter((e) => e.operation && specRoles().tokenEndpoints.includes(e.operation.operationId));
      const calls = exchanges.filter((e) => e.operation?.operationId === operationId);
      expect(
        calls.map((c) => c.response.status),
        `the calls' statuses: a 401 is a token refused within its hour`,
      ).not.toContain(401);
      expect(calls.length, 'calls sent (a replay adds one)').toBe(USES);
      expect(tokenRequests.length, 'token requests the client made (a renewal adds one)').toBe(1);
    },
  );
});
