// The authentication matrix, generated from the model (support/model.ts) for every operation and, on the token
// endpoints, every grant type: no credential; each required credential missing alone; each one wrong and each near
// miss (client_id included); each valid credential of every other scheme in place of the right one, in the right
// one's place and in its own. Each must be refused (4xx), except where an x-assumption covers the case (whether the
// fleet API also takes a bearer token, seed 5.3): there the answer is recorded against that assumption. The right
// credential in another place (the query string, another header) is recorded and reported, and fails nothing.
import { ASSUMPTIONS, type AssumptionRef } from '../judge/assumptions.ts';
import { CREDENTIALS, type Credential, type CredentialId, holding, type ModelEntry, type RequestParts, without } from '../send/model.ts';
import { wrongValues } from '../operators/wrong-credentials.ts';
import { nearMisses } from '../operators/near-misses.ts';

export type CaseKind = 'no credential' | 'missing' | 'wrong' | 'near miss' | 'other scheme' | 'elsewhere';

export interface MatrixCase {
  kind: CaseKind;
  /** The credential the case is about (undefined for "no credential"). */
  credential?: CredentialId;
  /** How it was made, safe to print (never a value). */
  label: string;
  /** What to expect: refused (4xx), or only recorded (against an assumption, or as a report line). */
  expect: 'refused' | 'recorded';
  /** The assumption an answer is recorded against, and whether a refusal keeps it. */
  assumption?: { ref: AssumptionRef; refusalHolds: boolean };
  /** Turns the valid parts (every credential in place) into this case's parts. */
  change(parts: RequestParts): RequestParts;
}

/** Other places a credential might be accepted from, which the spec does not document (recorded, never failed). */
function elsewhere(credential: Credential): Array<{ label: string; move(parts: RequestParts, value: string): RequestParts }> {
  const name = credential.where.name;
  const inQuery = credential.id === 'bearer' ? 'access_token' : credential.id === 'subscriptionKey' ? 'subscription-key' : name;
  const places: Array<{ label: string; move(parts: RequestParts, value: string): RequestParts }> = [
    { label: `in the query string as ${inQuery}`, move: (parts, value) => ({ ...parts, query: [...parts.query, [inQuery, value]] }) },
  ];
  if (credential.where.in === 'header' && credential.id !== 'bearer')
    places.push({
      label: 'in the Authorization header',
      move: (parts, value) => ({ ...parts, headers: { ...parts.headers, Authorization: value } }),
    });
  return places.map((p) => ({ label: p.label, move: (parts, value) => p.move(without(parts, credential), value) }));
}

/**
 * The cases of one entry, given which credentials this target has values for (`available`) and the values (for the
 * wrong and near-miss variants, which are derived from them and registered with the redactor).
 */
export function matrixCases(entry: ModelEntry, values: Partial<Record<CredentialId, string>>): MatrixCase[] {
  const cases: MatrixCase[] = [];
  const required = entry.credentials.map((id) => CREDENTIALS[id]);
  const optional = (entry.optional ?? []).map((id) => CREDENTIALS[id]);
  if (!required.length) return cases;
  cases.push({
    kind: 'no credential',
    label: 'no credential at all',
    expect: 'refused',
    change: (parts) => [...required, ...optional].reduce(without, parts),
  });
  for (const credential of required) {
    const value = values[credential.id];
    cases.push({
      kind: 'missing',
      credential: credential.id,
      label: `${credential.where.name} missing`,
      expect: 'refused',
      change: (parts) => without(parts, credential),
    });
    if (value === undefined) continue;
    for (const [index, wrong] of wrongValues(value).entries())
      cases.push({
        kind: 'wrong',
        credential: credential.id,
        label: `${credential.where.name} wrong (${['with a suffix', 'cut short', 'one character changed'][index] ?? 'changed'})`,
        expect: 'refused',
        change: (parts) => holding(parts, credential, wrong),
      });
    for (const miss of nearMisses(value, credential.where.in === 'header' ? 'header' : 'form', { secret: credential.secret }))
      cases.push({
        kind: 'near miss',
        credential: credential.id,
        label: `${credential.where.name} ${miss.kind}`,
        expect: 'refused',
        change: (parts) => holding(parts, credential, miss.value),
      });
    // Every valid credential of another scheme: in this one's place, and in its own place instead of this one.
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
      // The other credential where it belongs, this one gone: the same as "missing" when the entry carries it anyway,
      // and nowhere to go for a form field when the request has no form body.
      if (entry.credentials.includes(other.id) || optional.some((o) => o.id === other.id)) continue;
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
    for (const place of elsewhere(credential))
      cases.push({
        kind: 'elsewhere',
        credential: credential.id,
        label: `${credential.where.name} ${place.label}`,
        expect: 'recorded',
        change: (parts) => place.move(parts, value),
      });
  }
  return cases;
}

/** Which (operation, scheme) pairs the cases of an entry exercise: the self-test requires every pair of the spec. */
export function exercisedSchemes(entry: ModelEntry, cases: MatrixCase[]): string[] {
  return [
    ...new Set(
      cases.flatMap((c) => (c.credential && c.kind !== 'elsewhere' ? [`${entry.operationId} ${CREDENTIALS[c.credential].scheme}`] : [])),
    ),
  ];
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
        if (!exercised.has(scheme) && !(entry.optional ?? []).some((id) => CREDENTIALS[id].scheme === scheme))
          problems.push(`${entry.operationId} (${entry.variant}): the matrix does not exercise ${scheme}`);
    }
  }
  return [...new Set(problems)];
}
