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
import { basicCredentials, inBasic } from '../operators/basic-credentials.ts';
import { standIns } from './stand-ins.ts';

describe('the operators of the negative space', () => {
  it('every operator the suite owes exists, and meets every parameter and operation of the registry', () => {
    expect(operatorProblems(specRegistry(), standIns)).toEqual([]);
    expect(REQUIRED_OPERATORS.length).toBe(19);
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

describe('the client password inside HTTP Basic', () => {
  const parts = {
    path: {},
    query: [],
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    form: [
      ['grant_type', 'client_credentials'],
      ['client_id', 'a b:c'],
      ['client_secret', 'é%'],
    ] as Array<[string, string]>,
  };
  const basicOfParts = (made: { headers: Record<string, string> }) =>
    Buffer.from(made.headers.Authorization!.replace(/^Basic /, ''), 'base64').toString('utf8');

  it('moves client_id and client_secret from the form into Basic, each form-urlencoded (RFC 6749 2.3.1)', () => {
    const made = inBasic(parts);
    expect(basicOfParts(made)).toBe('a+b%3Ac:%C3%A9%25');
    expect(made.raw?.body).toBe('grant_type=client_credentials');
  });

  it('keeps a value the operator wrote on purpose (raw) exactly as written', () => {
    const made = inBasic({ ...parts, raw: { body: 'grant_type=client_credentials&client_id=%zz&client_secret=%2561' } });
    expect(basicOfParts(made)).toBe('%zz:%2561');
  });

  it('gives the token endpoints variants of both places from the parameter operators, and says why elsewhere', () => {
    for (const entry of specRegistry()) {
      const made = basicCredentials.variants(entry, standIns(entry).parts, standIns(entry).values);
      const takesPassword = entry.parameters.some((p) => p.name === 'client_secret');
      const exchangesCode = entry.parameters.some((p) => p.name === 'code');
      if (!takesPassword || exchangesCode) expect(isInapplicable(made), entry.operationId).toBe(true);
      else {
        const labels = (made as Array<{ label: string }>).map((variant) => variant.label);
        for (const place of ['user (client_id)', 'password (client_secret)'])
          for (const operator of ['leading space', 'upper case', 'percent-encoded', 'code points'])
            expect(
              labels.some((label) => label.startsWith(`HTTP Basic ${place}`) && label.includes(operator)),
              `${place} ${operator}`,
            ).toBe(true);
      }
    }
  });
});

describe("the files the operators' checks are in", () => {
  it('give every API all of its checks in one file of its own: property/operators.<api>.test.ts', () => {
    const dir = join(repoRoot, 'contract-tests/property');
    const calls = readdirSync(dir)
      .filter((f) => /^operators\..*\.test\.ts$/.test(f))
      .map((file) => [file, /operatorChecks\(run, '(\w+)'\)/.exec(readFileSync(join(dir, file), 'utf8'))?.[1]] as const);
    for (const [file, api] of calls) expect(api, `${file} calls operatorChecks with its API`).toBe(/^operators\.(\w+)\./.exec(file)?.[1]);
    expect(calls.map(([, api]) => api).sort(), 'one file per API').toEqual([...API_NAMES].sort());
  });
});
