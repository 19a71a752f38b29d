// The model layer (model/) as plain data: built from a bundles object, once per object, and from nothing else: no
// LP_* variable changes it, and a copy of the bundles gets a model of its own.
import { describe, expect, it } from 'vitest';
import { specModel } from '../model/model-entries.ts';
import { registryOfBundles, rolesOfBundles, specRegistry, specRoles } from '../model/operations.ts';
import { specBundles } from '../model/spec.ts';
import { validRequestOf } from '../model/valid-requests.ts';

describe('the model layer', () => {
  it('builds once per bundles object: the same object gives the same registry and roles, a copy its own', () => {
    expect(specRegistry()).toBe(registryOfBundles(specBundles()));
    expect(specRoles()).toBe(rolesOfBundles(specBundles()));
    const copy = structuredClone(specBundles());
    expect(registryOfBundles(copy)).not.toBe(specRegistry());
    expect(registryOfBundles(copy)).toBe(registryOfBundles(copy));
    expect(registryOfBundles(copy).map((e) => `${e.operationId} ${e.variant}`)).toEqual(
      specRegistry().map((e) => `${e.operationId} ${e.variant}`),
    );
    expect(rolesOfBundles(copy)).toEqual(specRoles());
  });

  it('reads no environment: a valid request names the variables it needs and takes their values from its caller', async () => {
    const milestone = specModel().find((e) => e.operationId === 'recordLoadMilestoneEvent')!;
    const loadId = milestone.table.values?.load_id;
    expect(loadId).toBeDefined();
    const asked: string[] = [];
    const sources = {
      variable: (name: string) => {
        asked.push(name);
        return `value-of-${name}`;
      },
      freshCode: () => Promise.reject(new Error('not asked')),
      ownVehicles: () => Promise.resolve([]),
      unattendedApproval: () => Promise.resolve(undefined),
    };
    expect(await loadId!(sources)).toBe('value-of-LP_TEST_LOAD_ID');
    expect(asked).toEqual(['LP_TEST_LOAD_ID']);
    // The same entry built again from the registry is the same table: nothing was read from the environment.
    expect(Object.keys(validRequestOf(milestone).values ?? {})).toEqual(Object.keys(milestone.table.values ?? {}));
  });
});
