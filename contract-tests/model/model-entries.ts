// The model of the operations: the registry (derived from the bundles) joined with the table of valid requests, one
// entry per operation and body shape; a function of the bundles, so it reads no environment and sends nothing (the
// sending half is send/model.ts). `modelProblems()` (self/model.test.ts) fails when an operation of the bundles, or a
// security scheme of one, is not carried by the model.
import type { LpVariable } from '../../config/environment.ts';
import { CREDENTIALS, type Credential } from './credentials.ts';
import { type DocumentedParameter, type RegistryEntry, registryOfBundles, rolesOfBundles } from './operations.ts';
import { type Bundles, memoByBundles, type Operation, specBundles } from './spec.ts';
import { type RegistryContext, type ValidRequest, type Value, validRequestOf } from './valid-requests.ts';

const contextOf = (docs: Bundles): RegistryContext => ({ registry: registryOfBundles(docs), roles: rolesOfBundles(docs) });

export interface ModelEntry extends RegistryEntry {
  /** How a valid request is built on a real target (model/valid-requests.ts). */
  table: ValidRequest;
}

/** The entry joined with how its valid request is built (`context`: another registry's, for a self-test's copy). */
export const modelEntryOf = (entry: RegistryEntry, context?: RegistryContext): ModelEntry => ({
  ...entry,
  table: validRequestOf(entry, context),
});

const modelOfBundles = memoByBundles((docs) => registryOfBundles(docs).map((entry) => modelEntryOf(entry, contextOf(docs))));
/** The model of the kit's bundles: one entry per operation and body shape of the registry. */
export const specModel = (): ModelEntry[] => modelOfBundles(specBundles());

/** The entry of an operation (its first body shape unless one is named). */
export function modelEntry(operationId: string, variant?: string): ModelEntry {
  const found = specModel().find((e) => e.operationId === operationId && (variant === undefined || e.variant === variant));
  if (!found) throw new Error(`no operation "${operationId}"${variant ? ` (${variant})` : ''} in the bundles`);
  return found;
}

/** The spec's operation behind an entry. */
export const operationOf = (entry: Pick<RegistryEntry, 'operation'>): Operation => entry.operation;

/** Every LP_* variable a valid request of the entry needs: its server, its credentials' and its own. */
export function variablesOf(entry: ModelEntry): LpVariable[] {
  const variables = new Set<LpVariable>([entry.operation.baseVariable]);
  for (const id of entry.credentials) for (const name of CREDENTIALS[id].variables) variables.add(name);
  for (const name of entry.table.needs ?? []) variables.add(name);
  return [...variables];
}

/** The value a parameter's spec gives an example of: its const, its example, or the request example's field. */
function exampleOf(entry: RegistryEntry, parameter: DocumentedParameter): string | undefined {
  const schema = parameter.schema as { const?: unknown; example?: unknown; items?: { example?: unknown } };
  const fromExamples = entry.examples.find((e) => e[parameter.name] !== undefined)?.[parameter.name];
  const value = schema.const ?? schema.example ?? schema.items?.example ?? fromExamples;
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first === null ? undefined : String(first);
}

/** The value a parameter gets in a valid request (undefined: left out), or, with `sample`, one it could get. */
export function parameterValue(entry: ModelEntry, parameter: DocumentedParameter, sample = false): Value | undefined {
  const table = entry.table.values?.[parameter.name] ?? (sample ? entry.table.samples?.[parameter.name] : undefined);
  if (table) return table;
  const example = parameter.required || sample ? exampleOf(entry, parameter) : undefined;
  return example === undefined ? undefined : () => example;
}

/**
 * What the model lacks against the bundles: an operation without an entry, or a security scheme of an operation that
 * no entry of it carries. The self-test runs it on the real model and on broken copies (it must be able to fail).
 */
export function modelProblems(
  model: Array<Pick<RegistryEntry, 'operationId' | 'credentials' | 'optional'>>,
  specOperations: Operation[],
): string[] {
  const problems: string[] = [];
  for (const operation of specOperations) {
    const entries = model.filter((e) => e.operationId === operation.operationId);
    if (!entries.length) {
      problems.push(`${operation.operationId} (${operation.method} ${operation.path}) has no entry in the model`);
      continue;
    }
    const carried = new Set(entries.flatMap((e) => [...e.credentials, ...e.optional].map((id) => CREDENTIALS[id].scheme)));
    for (const requirement of operation.security)
      for (const scheme of Object.keys(requirement))
        if (!carried.has(scheme as Credential['scheme']))
          problems.push(`${operation.operationId}: its security scheme ${scheme} is carried by no entry of the model`);
  }
  for (const entry of model)
    if (!specOperations.some((o) => o.operationId === entry.operationId))
      problems.push(`${entry.operationId}: not an operation of the bundles`);
  return problems;
}
