// What the specs cannot say: how to build a valid request of an operation on a real target, derived from the registry
// and the operations' roles, never from a list of operations. A parameter gets its value by what it is: OAuth's
// parameters (RFC 6749) the configured client, scope and redirect URI, a fresh state, a code from the authorization
// endpoint; a load the test load; a date-time the current time; a vehicle's field a vehicle the key can see. Optional
// parameters a valid request leaves out get sample values, which the operators need to have something to change. Any
// other parameter gets its value from the spec's examples (model.ts), so a new operation needs nothing here unless a
// real target would refuse those.
import type { LpVariable } from '../../config/environment.ts';
import { isSafeMethod } from '../../spec-core/http-methods.ts';
import { type DocumentedParameter, type RegistryEntry, type Roles, specRegistry, specRoles } from './operations.ts';

/** What some values need from above the model: the run's LP_* settings, a fresh authorization code, the key's own
 * fleet (both sent through the model). The run gives them (send/model.ts, support/setup.ts), so the model reads no
 * environment and imports nothing that sends. */
export interface ValueSources {
  /** The value of an LP_* variable of the run's target, which the caller checked is set. */
  variable(name: LpVariable): string;
  freshCode(): Promise<string>;
  ownVehicles(): Promise<Array<Record<string, unknown>>>;
  /** Undefined when the identity provider approves unattended, else why a code cannot be had. */
  unattendedApproval(): Promise<string | undefined>;
}

/** A value of a parameter, computed when a request is built. */
export type Value = (sources: ValueSources) => string | Promise<string>;

export interface ValidRequest {
  /** Values of the parameters a valid request carries, by name (credentials apart: the model adds those). */
  values?: Record<string, Value>;
  /** Values of optional parameters a valid request leaves out, for the operators. */
  samples?: Record<string, Value>;
  /** LP_* variables the values need, besides the server's and the credentials'. */
  needs?: LpVariable[];
  /** A valid request records data: sent only with LP_ALLOW_WRITES=1, and only for LP_TEST_LOAD_ID. */
  writes?: boolean;
  /** It needs a fresh authorization code, which only a target that approves unattended gives. */
  needsCode?: boolean;
  /** Parameters the operators may only leave out, empty or retype, never give another plausible value, with why. */
  protect?: Record<string, string>;
  /** Values (undefined: left out) that make the request one the spec answers with 400, for dredd's 400 transactions. */
  malformed?: Record<string, string | undefined>;
}

/** A value read from an LP_* variable (the variable is named, so other readers, such as dredd's hooks, know it). */
export type VariableValue = Value & { variable: LpVariable };
const variable = (name: LpVariable): VariableValue => Object.assign((sources: ValueSources) => sources.variable(name), { variable: name });
/** A value an earlier request of another operation gives (a code from the authorize redirect, a vehicle from the list):
 * the operation is named, so the documented flows (openapi/workflows/) can be held to the same order. */
export type EarlierValue = Value & { from: string };
const earlier = (operationId: string, value: Value): EarlierValue => Object.assign(value, { from: operationId });
const randomState = () => `contract-${crypto.randomUUID().slice(0, 8)}`;
/** The current time as the seed's milestone example writes it: UTC, seconds precision. */
export const nowUtc = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

/** A PKCE pair (RFC 7636): the verifier and its S256 challenge. */
export async function pkcePair(): Promise<{ verifier: string; challenge: string }> {
  const verifier = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return { verifier, challenge: Buffer.from(digest).toString('base64url') };
}

/** A vehicle's field of the key's own fleet (the first vehicle that has one; the field's name compared without case,
 * as the filter `customervehicleNumber` names `customerVehicleNumber`), or `fallback`. */
const ownField = (field: string, fallback: string) => async (sources: ValueSources) => {
  const named = (v: Record<string, unknown>) => Object.entries(v).find(([key]) => key.toLowerCase() === field.toLowerCase())?.[1];
  const value = (await sources.ownVehicles()).map(named).find((v) => typeof v === 'string' && v !== '');
  return typeof value === 'string' ? value : fallback;
};

/** What one parameter gets: a value in every valid request, or a sample for the operators; why it is protected. */
interface Rule {
  value?: Value;
  sample?: Value;
  protect?: string;
}

export interface RegistryContext {
  registry: RegistryEntry[];
  roles: Pick<Roles, 'tokenEndpoints' | 'authorization' | 'getsOneVehicle' | 'listsVehicles'>;
}

const TEST_LOAD = 'a changed load_id could record an event on another load: events are written for LP_TEST_LOAD_ID only';
const example = (parameter: DocumentedParameter) => {
  const schema = parameter.schema as { example?: unknown; items?: { example?: unknown } };
  const value = schema.example ?? schema.items?.example;
  return String((Array.isArray(value) ? value[0] : value) ?? 'CONTRACT-PROBE');
};

/** The rule of OAuth's parameters (RFC 6749 4.1, RFC 7636), the same wherever they travel. */
function oauthRule(parameter: DocumentedParameter, { roles }: RegistryContext): Rule | undefined {
  switch (parameter.name) {
    case 'client_id':
      return { value: variable('LP_CLIENT_ID') };
    case 'scope':
      return { value: variable('LP_SCOPE') };
    case 'redirect_uri':
      return { value: variable('LP_REDIRECT_URI') };
    case 'state':
      return { value: async () => randomState() };
    case 'code':
      return roles.authorization[0] ? { value: earlier(roles.authorization[0], (sources) => sources.freshCode()) } : undefined;
    case 'code_verifier':
      return { sample: async () => (await pkcePair()).verifier };
    case 'code_challenge':
      return { sample: async () => (await pkcePair()).challenge };
    case 'code_challenge_method':
      return { sample: async () => 'S256' };
  }
  return undefined;
}

/** The rule of a parameter of the entry (undefined: the spec's examples give its value). */
function ruleOf(entry: RegistryEntry, parameter: DocumentedParameter, context: RegistryContext): Rule | undefined {
  if (parameter.credential) return undefined;
  const oauth = oauthRule(parameter, context);
  if (oauth) return oauth;
  const { roles } = context;
  // A load's events are recorded for the test load only (seed 4.4).
  if (parameter.name === 'load_id') return { value: variable('LP_TEST_LOAD_ID'), protect: TEST_LOAD };
  if ((parameter.schema as { format?: string }).format === 'date-time' && parameter.required) return { value: async () => nowUtc() };
  // A vehicle the key can see, from the list (seed 4.5, 4.6): one by its number, a list filtered by its fields.
  if (roles.getsOneVehicle.includes(entry.operationId) && parameter.in === 'path' && roles.listsVehicles[0])
    return { value: earlier(roles.listsVehicles[0], ownField(parameter.name, 'V-CONTRACT-PROBE')) };
  // A filter takes any value; a parameter of a fixed form (the sort's pattern) keeps its example.
  const fixedForm = Boolean((parameter.schema as { pattern?: string }).pattern);
  if (roles.listsVehicles.includes(entry.operationId) && parameter.in === 'query' && !fixedForm)
    return { sample: ownField(parameter.name, example(parameter)) };
  return undefined;
}

/** The LP_* variables a value needs: its own, or an earlier operation's server's and its values'. */
function needsOf(value: Value | undefined, context: RegistryContext): LpVariable[] {
  const named = (value as Partial<VariableValue> | undefined)?.variable;
  if (named) return [named];
  const from = (value as Partial<EarlierValue> | undefined)?.from;
  const source = from ? context.registry.find((e) => e.operationId === from) : undefined;
  if (!source) return [];
  const its = source.parameters.flatMap((p) => {
    const rule = ruleOf(source, p, context);
    return (rule?.value as Partial<VariableValue> | undefined)?.variable ?? [];
  });
  return [source.operation.baseVariable, ...its];
}

/** The LP_* variables a value of the suite's registry needs. */
export const valueNeeds = (value: Value): LpVariable[] => needsOf(value, { registry: specRegistry(), roles: specRoles() });

/** A value outside a parameter's schema that the spec answers with 400, or undefined when it pins none. */
function malformedOf(entry: RegistryEntry): Record<string, string | undefined> | undefined {
  const fields = entry.parameters.filter((p) => !p.credential && p.in !== 'path' && p.in !== 'header');
  const schema = (p: DocumentedParameter) => p.schema as { format?: string; pattern?: string; const?: unknown };
  const formed = fields.find((p) => schema(p).format === 'date-time' || schema(p).pattern);
  if (formed) return { [formed.name]: schema(formed).format === 'date-time' ? 'not-a-time' : 'contract-malformed' };
  const body = fields.filter((p) => p.in === 'form' || p.in === 'json');
  const free = body.find((p) => p.required && schema(p).const === undefined);
  if (free) return { [free.name]: undefined };
  // A fixed field (the grant type) given another value: `password`, a grant type of RFC 6749 no operation here takes.
  const fixed = body.find((p) => schema(p).const !== undefined);
  return fixed ? { [fixed.name]: 'password' } : undefined;
}

/** How a valid request of the entry is built on a real target, from its parameters and its operation's role. */
export function validRequestOf(
  entry: RegistryEntry,
  context: RegistryContext = { registry: specRegistry(), roles: specRoles() },
): ValidRequest {
  const values: Record<string, Value> = {};
  const samples: Record<string, Value> = {};
  const protect: Record<string, string> = {};
  for (const parameter of entry.parameters) {
    const rule = ruleOf(entry, parameter, context);
    if (rule?.value) values[parameter.name] = rule.value;
    if (rule?.sample) samples[parameter.name] = rule.sample;
    if (rule?.protect) protect[parameter.name] = rule.protect;
  }
  const needs = [...new Set(Object.values(values).flatMap((v) => needsOf(v, context)))];
  const { roles } = context;
  const needsCode = Object.values(values).some((v) => roles.authorization.includes((v as Partial<EarlierValue>).from ?? ''));
  // A request that is neither safe (RFC 9110 9.2.1) nor for a token nor an authorization records something.
  const writes =
    !isSafeMethod(entry.operation.method) &&
    !roles.tokenEndpoints.includes(entry.operationId) &&
    !roles.authorization.includes(entry.operationId);
  const malformed = malformedOf(entry);
  return {
    ...(Object.keys(values).length ? { values } : {}),
    ...(Object.keys(samples).length ? { samples } : {}),
    ...(needs.length ? { needs } : {}),
    ...(writes ? { writes } : {}),
    ...(needsCode ? { needsCode } : {}),
    ...(Object.keys(protect).length ? { protect } : {}),
    ...(malformed ? { malformed } : {}),
  };
}
