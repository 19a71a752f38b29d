// Sending the model's requests (model/model-entries.ts): a check sends `request(operationId, change)`: a valid request
// of the operation with every credential in its place, changed by the check, addressed from the registry. No check
// spells a path or a base URL.
import { reasonIfCannot } from './capabilities.ts';
import { CREDENTIALS, type Credential, type CredentialId } from '../model/credentials.ts';
import { type Exchange, exchange, type ExchangeMeta } from './fetch.ts';
import { type ModelEntry, modelEntry, parameterValue } from '../model/model-entries.ts';
import { type DocumentedParameter, type RegistryEntry, specRoles } from '../model/operations.ts';
import { bodyOf, type Change, copyParts, type RequestParts, unchanged, urlOf } from './parts.ts';
import { type LpVariable, reasonIfUnset, required, type Target } from './target.ts';
import { type EarlierValue, type ValueSources, valueNeeds } from '../model/valid-requests.ts';
import { perRun } from './per-run.ts';
import type { Run } from './run.ts';
import { refusesBody } from '../../spec-core/http-methods.ts';

/** What the table's values need from above the model, for a run; the LP_* settings come from the run's target. */
type SentSources = { [K in Exclude<keyof ValueSources, 'variable'>]: (run: Run) => ReturnType<ValueSources[K]> };
let sources: SentSources | undefined;
/** Wires what the table's values need from above the model (support/setup.ts does, once per worker). */
export function provideValueSources(given: SentSources): void {
  sources = given;
}
const valueSources = (): SentSources => {
  if (!sources) throw new Error('the model has no value sources: support/setup.ts wires them (provideValueSources)');
  return sources;
};
/** The run's sources, asked for only when a value uses one (most values are constants or LP_* variables). */
const sourcesOf = (run: Run): ValueSources => ({
  variable: (name) => required(run.target, name),
  freshCode: () => valueSources().freshCode(run),
  ownVehicles: () => valueSources().ownVehicles(run),
  unattendedApproval: () => valueSources().unattendedApproval(run),
});

export { CREDENTIALS, type Credential, type CredentialId } from '../model/credentials.ts';
export { entryLabel } from '../model/operations.ts';

/** Why a valid request of the entry cannot be sent to the run's target, or undefined. */
export const reasonIfCannotSend = (run: Run, entry: ModelEntry): Promise<string | undefined> => reasonIfCannotSendKeeping(run, entry, []);

/**
 * Why the entry's request cannot be sent when a check gives the `replaced` parameters values of its own (a generated
 * body, an over-long value), or undefined: only what it keeps counts (its server, its credentials, the variables of
 * its other values, a fresh code only when it keeps one). Writes are gated unless `gateWrites` is false (a request the
 * check makes invalid records nothing).
 */
export async function reasonIfCannotSendKeeping(
  run: Run,
  entry: ModelEntry,
  replaced: readonly string[],
  gateWrites = true,
): Promise<string | undefined> {
  const kept = entry.parameters.flatMap((p) => (p.credential || replaced.includes(p.name) ? [] : (entry.table.values?.[p.name] ?? [])));
  const variables = new Set<LpVariable>([entry.operation.baseVariable]);
  for (const id of entry.credentials) for (const name of CREDENTIALS[id].variables) variables.add(name);
  for (const value of kept) for (const name of valueNeeds(value)) variables.add(name);
  const unset = reasonIfUnset(run.target, ...variables);
  if (unset) return unset;
  if (gateWrites && entry.table.writes && !run.target.writesAllowed)
    return 'writes are not allowed (LP_ALLOW_WRITES=1 and LP_TEST_LOAD_ID): a server that accepted a wrong request would record it';
  if (kept.some((value) => specRoles().authorization.includes((value as Partial<EarlierValue>).from ?? ''))) {
    const why = reasonIfCannot(run.target.name, 'hasDataSemantics') ?? (await valueSources().unattendedApproval(run));
    if (why) return `needs an authorization code: ${why}`;
  }
  return undefined;
}

/** The bearer token of each run, obtained once, through the client. */
const bearerToken = perRun(async (run) => {
  const { tokenProvider } = await import('./clients.ts');
  return tokenProvider(run, 'service').getToken();
});
/** The value of a credential for the run's target (a bearer token is obtained once per run, through the client). */
export async function credentialValue(run: Run, id: CredentialId): Promise<string> {
  if (id === 'bearer') return bearerToken(run);
  return required(run.target, CREDENTIALS[id].variables[0]!);
}

/** The value a parameter holds in a valid request, or else the table's sample (undefined when there is neither). */
export async function sampleValue(run: Run, entry: ModelEntry, parameter: DocumentedParameter): Promise<string | undefined> {
  const value = parameterValue(entry, parameter, true);
  return value ? await value(sourcesOf(run)) : undefined;
}

/** The parts with one parameter holding `value` (a form or query parameter once; a header replaced in any case). */
export function place(parts: RequestParts, parameter: Pick<DocumentedParameter, 'in' | 'name'>, value: string): RequestParts {
  const next = copyParts(parts);
  const name = parameter.name;
  switch (parameter.in) {
    case 'path':
      next.path[name] = value;
      break;
    case 'query':
      next.query = [...next.query.filter(([n]) => n !== name), [name, value]];
      break;
    case 'form':
      next.form = [...(next.form ?? []).filter(([n]) => n !== name), [name, value]];
      break;
    case 'json':
      next.json = { ...((next.json as Record<string, unknown> | undefined) ?? {}), [name]: value };
      break;
    case 'header':
      for (const key of Object.keys(next.headers)) if (key.toLowerCase() === name.toLowerCase()) delete next.headers[key];
      next.headers[name] = value;
  }
  return next;
}

/** A valid request of the entry, less its credentials; `values` replace the table's (a code the check already has). */
export async function validParts(run: Run, entry: ModelEntry, values: Record<string, string> = {}): Promise<RequestParts> {
  const sources = sourcesOf(run);
  let parts: RequestParts = {
    path: {},
    query: [],
    headers: entry.mediaType ? { 'content-type': entry.mediaType } : {},
    ...(entry.body === 'form' ? { form: [] } : {}),
    ...(entry.body === 'json' ? { json: {} } : {}),
  };
  for (const parameter of entry.parameters) {
    if (parameter.credential) continue;
    const given = values[parameter.name];
    const value = given !== undefined ? () => given : parameterValue(entry, parameter);
    if (value) parts = place(parts, parameter, await value(sources));
  }
  return parts;
}

/** The parts without a credential (a header removed case-insensitively, or a form field). */
export function without(parts: RequestParts, credential: Credential): RequestParts {
  const next = copyParts(parts);
  if (credential.where.in === 'header') {
    const name = credential.where.name.toLowerCase();
    for (const key of Object.keys(next.headers)) if (key.toLowerCase() === name) delete next.headers[key];
  } else if (next.form) next.form = next.form.filter(([n]) => n !== credential.where.name);
  return next;
}

/** The parts with a credential's place holding `value` (a header keeps the scheme's prefix, e.g. "Bearer "). */
export function holding(parts: RequestParts, credential: Credential, value: string): RequestParts {
  const next = without(parts, credential);
  if (credential.where.in === 'header') next.headers[credential.where.name] = `${credential.where.prefix ?? ''}${value}`;
  else next.form = [...(next.form ?? []), [credential.where.name, value]];
  return next;
}

/** A valid request of the entry with every credential in its place. */
export async function withCredentials(run: Run, entry: ModelEntry, values: Record<string, string> = {}): Promise<RequestParts> {
  let parts = await validParts(run, entry, values);
  for (const id of entry.credentials) parts = holding(parts, CREDENTIALS[id], await credentialValue(run, id));
  return parts;
}

/** The URL of the parts on the entry's server (its base URL, with any path prefix, then the path and query). */
export const urlOfEntry = (target: Target, entry: RegistryEntry, parts: RequestParts) =>
  urlOf(required(target, entry.operation.baseVariable), entry, parts);

export interface SendOptions extends Omit<ExchangeMeta, 'operationId'> {
  /** Another method than the operation's (a body is left out for GET and HEAD, which fetch refuses one). */
  method?: string;
}

/** Sends the parts as the entry's method to its server on the run's target; follows no redirect. Every answer is judged
 * by the one fetch. */
export function send(run: Run, entry: RegistryEntry, parts: RequestParts, options: SendOptions = {}): Promise<Exchange> {
  const { method = entry.operation.method, ...meta } = options;
  const text = refusesBody(method) ? undefined : bodyOf(parts);
  // A body without a Content-Type goes as bytes: fetch would label a string text/plain.
  const labelled = Object.keys(parts.headers).some((name) => name.toLowerCase() === 'content-type');
  const body = text !== undefined && !labelled ? new TextEncoder().encode(text) : text;
  return exchange(
    run,
    urlOfEntry(run.target, entry, parts),
    { method, headers: parts.headers, body, redirect: 'manual' },
    { ...meta, operationId: entry.operationId },
  );
}

/** The entry an operationId names, or the entry itself. */
const entryOf = (which: string | ModelEntry, variant?: string) => (typeof which === 'string' ? modelEntry(which, variant) : which);

export interface RequestOptions extends SendOptions {
  /** The body shape (grant type) on an endpoint with several; the first otherwise. */
  variant?: string;
  /** Values that replace the valid request's (e.g. a code the check obtained itself). */
  values?: Record<string, string>;
}

/** Sends a valid request of the operation, with `change` applied to its parts first. */
export async function request(
  run: Run,
  which: string | ModelEntry,
  change: Change = unchanged,
  options: RequestOptions = {},
): Promise<Exchange> {
  const { variant, values, ...sendOptions } = options;
  const entry = entryOf(which, variant);
  return send(run, entry, change(await withCredentials(run, entry, values)), sendOptions);
}

/** A valid milestone event for the test load (the seed's three fields, seconds precision). */
export async function validMilestone(run: Run, overrides: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const parts = await validParts(run, modelEntry('recordLoadMilestoneEvent'));
  return { ...(parts.json as Record<string, unknown>), ...overrides };
}

/** A vehicle number the fleet key can see (from its unfiltered list), or a made-up one when there is none. */
export async function ownVehicleNumber(run: Run): Promise<string> {
  const parts = await validParts(run, modelEntry('getVehicle'));
  return Object.values(parts.path)[0] ?? 'V-CONTRACT-PROBE';
}
