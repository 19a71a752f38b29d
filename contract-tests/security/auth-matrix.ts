// The authentication matrix, generated from the model (send/model.ts) for every operation and, on the token endpoints,
// every grant type: no credential at all, and each valid credential of every other scheme in place of the right one,
// in the right one's place and in its own. Each must be refused (4xx), except where an x-assumption covers the case
// (whether the fleet API also takes a bearer token, seed 5.3): there the answer is recorded against that assumption.
// What one credential alone can be (left out, a near miss, case-changed, padded, encoded, in another channel) is the
// operators' (operators/), applied to every credential like to every other parameter.
import { ASSUMPTIONS, type AssumptionRef } from '../judge/assumptions.ts';
import { CREDENTIALS, type CredentialId, holding, without } from '../send/model.ts';
import type { ModelEntry } from '../model/model-entries.ts';
import type { RequestParts } from '../send/parts.ts';

export type CaseKind = 'no credential' | 'other scheme';

export interface MatrixCase {
  kind: CaseKind;
  /** The credential the case is about (undefined for "no credential"). */
  credential?: CredentialId;
  /** How it was made, safe to print (never a value). */
  label: string;
  /** What to expect: refused (4xx), or only recorded (against an assumption). */
  expect: 'refused' | 'recorded';
  /** The assumption an answer is recorded against, and whether a refusal keeps it. */
  assumption?: { ref: AssumptionRef; refusalHolds: boolean };
  /** Turns the valid parts (every credential in place) into this case's parts. */
  change(parts: RequestParts): RequestParts;
}

/** The cases of one entry, given the values of the credentials this target has (other schemes' are sent in its place). */
export function matrixCases(entry: ModelEntry, values: Partial<Record<CredentialId, string>>): MatrixCase[] {
  const required = entry.credentials.map((id) => CREDENTIALS[id]);
  const optional = entry.optional.map((id) => CREDENTIALS[id]);
  if (!required.length) return [];
  const cases: MatrixCase[] = [
    {
      kind: 'no credential',
      label: 'no credential at all',
      expect: 'refused',
      change: (parts) => [...required, ...optional].reduce(without, parts),
    },
  ];
  for (const credential of required) {
    for (const other of Object.values(CREDENTIALS)) {
      if (other.scheme === credential.scheme) continue;
      const otherValue = values[other.id];
      if (otherValue === undefined) continue;
      cases.push({
        kind: 'other scheme',
        credential: credential.id,
        label: `${credential.where.name} holding the ${other.scheme} credential (${other.where.name})`,
        expect: 'refused',
        change: (parts) => holding(parts, credential, otherValue),
      });
      // The other credential where it belongs, this one gone: the same as leaving this one out when the entry carries
      // the other anyway, and nowhere to go for a form field when the request has no form body.
      if (entry.credentials.includes(other.id) || entry.optional.includes(other.id)) continue;
      if (other.where.in === 'form' && entry.body !== 'form') continue;
      const coveredByAssumption = credential.id === 'fleetApiKey' && other.id === 'bearer';
      cases.push({
        kind: 'other scheme',
        credential: credential.id,
        label: `${other.where.name} (${other.scheme}) instead of ${credential.where.name}`,
        expect: coveredByAssumption ? 'recorded' : 'refused',
        ...(coveredByAssumption ? { assumption: { ref: ASSUMPTIONS.fleetKeyAlone, refusalHolds: true } } : {}),
        change: (parts) => holding(without(parts, credential), other, otherValue),
      });
    }
  }
  return cases;
}

/** Which (operation, scheme) pairs the cases of an entry exercise: the self-test requires every pair of the spec. */
export function exercisedSchemes(entry: ModelEntry, cases: MatrixCase[]): string[] {
  return [...new Set(cases.flatMap((c) => (c.credential ? [`${entry.operationId} ${CREDENTIALS[c.credential].scheme}`] : [])))];
}

/**
 * Every security scheme of every operation of the spec (and the client password of the token endpoints) must be
 * exercised by the matrix of each entry of that operation: what the model or the generator skips is named here.
 */
export function matrixProblems(
  model: ModelEntry[],
  specOperations: Array<{ operationId: string; security: Array<Record<string, string[]>> }>,
  generate: (entry: ModelEntry) => MatrixCase[],
): string[] {
  const problems: string[] = [];
  for (const operation of specOperations) {
    const schemes = new Set(operation.security.flatMap((requirement) => Object.keys(requirement)));
    for (const entry of model.filter((e) => e.operationId === operation.operationId)) {
      const exercised = new Set(exercisedSchemes(entry, generate(entry)).map((pair) => pair.split(' ')[1]));
      // The credentials the entry carries must all be exercised, and so must every scheme the spec requires.
      for (const scheme of [...schemes, ...entry.credentials.map((id) => CREDENTIALS[id].scheme)])
        if (!exercised.has(scheme) && !entry.optional.some((id) => CREDENTIALS[id].scheme === scheme))
          problems.push(`${entry.operationId} (${entry.variant}): the matrix does not exercise ${scheme}`);
    }
  }
  return [...new Set(problems)];
}
