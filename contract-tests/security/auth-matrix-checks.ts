// The authentication matrix of every operation (security/auth-matrix.ts, generated from send/model.ts): a request
// without any credential, or with another scheme's valid credential in place of its own, must be refused; the answers
// the specs leave open are recorded against their assumption. (Every answer is also judged by the exchange checks:
// credentials-refused fails any accepted request whose credentials are not the configured ones.)
import { describe, expect, it } from 'vitest';
import type { ApiName } from '../../spec-core/apis.ts';
import { observeAssumption } from '../judge/assumptions.ts';
import { capabilityOf } from '../send/capabilities.ts';
import { CREDENTIALS, type CredentialId, credentialValue, entryLabel, reasonIfCannotSend, send, withCredentials } from '../send/model.ts';
import { specModel, operationOf } from '../model/model-entries.ts';
import { statusClass } from '../judge/answers.ts';
import { skipIf } from '../support/skips.ts';
import { reasonIfUnset } from '../send/target.ts';
import { forEachConcurrently } from '../send/transport.ts';
import type { Run } from '../send/run.ts';
import { type CaseKind, matrixCases } from './auth-matrix.ts';

/** The values of every credential the run's target has (the other schemes' too: they are sent in the wrong places). */
async function availableValues(run: Run): Promise<Partial<Record<CredentialId, string>>> {
  const values: Partial<Record<CredentialId, string>> = {};
  for (const credential of Object.values(CREDENTIALS)) {
    if (reasonIfUnset(run.target, ...credential.variables)) continue;
    values[credential.id] = await credentialValue(run, credential.id);
  }
  return values;
}

// The Prism mock checks only that a credential is present: there, only the absent ones are sent.
const PRESENCE_ONLY: CaseKind[] = ['no credential'];

/**
 * Registers the matrix of one API's operations (a test file per API, so contract:mutation runs the file of the
 * operation it broke instead of every operation's).
 */
export function authMatrixChecks(run: Run, api: ApiName): void {
  const entries = specModel().filter((entry) => entry.credentials.length > 0 && operationOf(entry).api === api);
  describe(`authentication matrix (every ${api} operation, every grant type, every credential)`, () => {
    it.for(entries.map((entry) => [entryLabel(entry), entry] as const))(
      "%s: refuses a request without any credential, or with another scheme's in place of its own",
      {
        tags: [
          'RFC6749-4.1.3-require-client-authentication',
          'RFC6749-4.4.2-idp-requires-credentials',
          'RFC6749-10.3-tokens-not-forgeable',
        ],
      },
      async ([label, entry], ctx) => {
        skipIf(run, ctx, [entry.operationId], await reasonIfCannotSend(run, entry));
        const values = await availableValues(run);
        const verifies = capabilityOf(run.target.name).verifiesCredentials;
        const cases = matrixCases(entry, values).filter((c) => verifies || PRESENCE_ONLY.includes(c.kind));
        await forEachConcurrently(cases, async (c) => {
          const seen = await send(run, entry, c.change(await withCredentials(run, entry)), { dimension: 'authentication' });
          const { status } = seen.response;
          const refused = statusClass(status) === 4;
          if (c.expect === 'refused')
            expect(refused, `${label}: ${c.label} answered ${status}, not a 4xx: the target accepted it`).toBe(true);
          else if (c.assumption)
            observeAssumption(
              run,
              c.assumption.ref,
              refused === c.assumption.refusalHolds,
              `${label}: ${c.label} answered ${status}`,
              seen,
            );
        });
      },
    );
  });
}
