// The negative space as operators: every operator the suite owes exists, and every parameter and credential of every
// operation of the registry meets every parameter operator (every operation every operation operator), each either
// making variants or saying why it cannot. Shown failing on a removed operator and on one that goes silent. Pure: the
// values are stand-ins, no request is sent.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_NAMES, repoRoot } from '../../spec-core/apis.ts';
import { isInapplicable, type Operator, type ParameterOperator } from '../operators/operator.ts';
import { applicationsOf, OPERATORS, operatorProblems, REQUIRED_OPERATORS } from '../operators/operators.ts';
import { specRegistry } from '../model/operations.ts';
import { standIns } from './stand-ins.ts';

describe('the operators of the negative space', () => {
  it('every operator the suite owes exists, and meets every parameter and operation of the registry', () => {
    expect(operatorProblems(specRegistry(), standIns)).toEqual([]);
    expect(REQUIRED_OPERATORS.length).toBe(17);
  });

  it('every documented parameter and credential gets variants from most operators', () => {
    for (const entry of specRegistry())
      for (const parameter of entry.parameters) {
        const applied = applicationsOf(entry, standIns(entry)).filter((a) => a.parameter === parameter && !isInapplicable(a.made));
        expect(applied.length, `${entry.operationId} ${parameter.name}`).toBeGreaterThanOrEqual(8);
      }
  });

  it.for(REQUIRED_OPERATORS)('fails when the operator "%s" is removed', (id) => {
    const without = OPERATORS.filter((o) => o.id !== id);
    expect(operatorProblems(specRegistry(), standIns, without)).toContain(`the operator "${id}" is missing`);
  });

  it('fails when an operator neither applies to a parameter nor says why', () => {
    const silent: ParameterOperator = { id: 'silent', scope: 'parameter', title: 'silent', variants: () => [] };
    const problems = operatorProblems(specRegistry(), standIns, [...OPERATORS, silent as Operator]);
    expect(problems.length).toBe(specRegistry().reduce((n, e) => n + e.parameters.length, 0));
    expect(problems[0]).toMatch(/the operator "silent" neither applies nor says why not/);
  });

  it('credentials are parameters too: every credential of every operation is in the registry with where it travels', () => {
    for (const entry of specRegistry())
      for (const id of [...entry.credentials, ...entry.optional])
        expect(
          entry.parameters.some((p) => p.credential === id),
          `${entry.operationId} ${id}`,
        ).toBe(true);
  });
});

describe("the files the operators' checks are dealt to", () => {
  it('give every API all of its checks: one file, or parts 1 to N of N', () => {
    const dir = join(repoRoot, 'contract-tests/property');
    const parts = new Map<string, string[]>();
    for (const file of readdirSync(dir).filter((f) => /^operators\..*\.test\.ts$/.test(f))) {
      const call = /operatorChecks\('(\w+)'(?:, \{ part: (\d+), of: (\d+) \})?\)/.exec(readFileSync(join(dir, file), 'utf8'));
      expect(call, `${file} calls operatorChecks`).not.toBeNull();
      const [, api, part = '1', of = '1'] = call!;
      parts.set(api!, [...(parts.get(api!) ?? []), `${part} of ${of}`]);
    }
    for (const api of API_NAMES) {
      const found = (parts.get(api) ?? []).sort();
      const of = found.length;
      expect(found, api).toEqual(Array.from({ length: Math.max(of, 1) }, (_, i) => `${i + 1} of ${of}`));
    }
  });
});
