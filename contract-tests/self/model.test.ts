// The model of the operations (model/model-entries.ts) against the bundles, and the authentication matrix generated from it
// (security/auth-matrix.ts): every operation has an entry, every security scheme of an operation is carried by an
// entry and exercised by its matrix. Each rule is also shown failing on a broken copy.
import { describe, expect, it } from 'vitest';
import { type MatrixCase, matrixCases, matrixProblems } from '../security/auth-matrix.ts';
import { CREDENTIALS, type CredentialId } from '../send/model.ts';
import { specModel, type ModelEntry, modelProblems, variablesOf } from '../model/model-entries.ts';
import { specOperations } from '../model/spec.ts';

// Stand-in values: the matrix's shape does not depend on them (no request is sent here).
const values = Object.fromEntries(Object.keys(CREDENTIALS).map((id) => [id, `stand-in-${id}-value`])) as Record<CredentialId, string>;
const generate = (entry: ModelEntry): MatrixCase[] => matrixCases(entry, values);

describe('the model of the operations', () => {
  it('has an entry for every operation of the bundles, carrying each of its security schemes', () => {
    expect(modelProblems(specModel(), specOperations())).toEqual([]);
    expect(new Set(specModel().map((e) => e.operationId))).toEqual(new Set(specOperations().map((o) => o.operationId)));
  });

  it('fails on a deliberately removed entry, naming the operation', () => {
    const without = specModel().filter((e) => e.operationId !== 'getVehicle');
    expect(modelProblems(without, specOperations())).toEqual([
      expect.stringMatching(/^getVehicle \(GET \/vehicles\/\{vehicleNumber\}\) has no entry/),
    ]);
  });

  it('fails on an entry that drops a security scheme of its operation', () => {
    const noKey = specModel().map((e) =>
      e.operationId === 'requestIdentityProviderToken' ? { ...e, credentials: e.credentials.filter((c) => c !== 'subscriptionKey') } : e,
    );
    expect(modelProblems(noKey, specOperations())).toEqual([
      expect.stringContaining('requestIdentityProviderToken: its security scheme SubscriptionKey is carried by no entry'),
    ]);
  });

  it('names the LP_* variables each valid request needs, from its server, credentials and own needs', () => {
    const milestone = specModel().find((e) => e.operationId === 'recordLoadMilestoneEvent')!;
    expect(variablesOf(milestone)).toEqual(['LP_BASE_URL', 'LP_CLIENT_ID', 'LP_CLIENT_SECRET', 'LP_TEST_LOAD_ID']);
    const code = specModel().find((e) => e.variant === 'authorization_code')!;
    expect(variablesOf(code)).toEqual(expect.arrayContaining(['LP_AUTH_URL', 'LP_SUBSCRIPTION_KEY', 'LP_REDIRECT_URI', 'LP_SCOPE']));
  });
});

describe('the authentication matrix', () => {
  it('exercises every security scheme of every operation and grant type', () => {
    expect(matrixProblems(specModel(), specOperations(), generate)).toEqual([]);
  });

  it('fails when the generator skips a scheme of an operation', () => {
    const skipsFleetKey = (entry: ModelEntry) => generate(entry).filter((c) => c.credential !== 'fleetApiKey');
    expect(matrixProblems(specModel(), specOperations(), skipsFleetKey)).toEqual([
      'listVehicles (default): the matrix does not exercise FleetApiKey',
      'getVehicle (default): the matrix does not exercise FleetApiKey',
    ]);
  });

  it('covers no credential, and another scheme in place of each credential', () => {
    const idp = specModel().find((e) => e.operationId === 'requestIdentityProviderToken' && e.variant === 'client_credentials')!;
    const cases = generate(idp);
    for (const credential of idp.credentials)
      expect(
        cases.some((c) => c.credential === credential && c.kind === 'other scheme'),
        `${credential} other scheme`,
      ).toBe(true);
    expect(cases.filter((c) => c.kind === 'no credential')).toHaveLength(1);
    // The fleet key replaced by a bearer token is left open by the seed (5.3): recorded, not failed.
    const fleet = generate(specModel().find((e) => e.operationId === 'listVehicles')!);
    const bearerInstead = fleet.find((c) => c.label === 'Authorization (OAuth2) instead of API-Key');
    expect(bearerInstead?.expect).toBe('recorded');
    expect(fleet.filter((c) => c !== bearerInstead).every((c) => c.expect === 'refused')).toBe(true);
  });
});
