// What the specs cannot say: how to build a valid request of each operation on a real target. The registry knows the
// parameters; this table gives the values a valid request carries (the configured scope, a fresh authorization code,
// a vehicle the key can see, the test load) and sample values for the optional parameters a valid request leaves out,
// which the operators need to have something to change. An operation without an entry gets its values from the spec's
// examples (a required parameter's `example`, or the request example's field), so a new operation needs no entry here
// unless a real target would refuse those.
import { type LpVariable, required, target } from './target.ts';

/** What some values need from above the model: a fresh authorization code, the key's own fleet (both sent through
 * the model). The suite's setup gives them (support/setup.ts), so the model imports nothing that imports it. */
export interface ValueSources {
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
const variable = (name: LpVariable): VariableValue => Object.assign(() => required(target, name), { variable: name });
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

/** A vehicle's field of the key's own fleet (the first vehicle that has one), or the spec's example. */
const ownField = (field: string, fallback: string) => async (sources: ValueSources) => {
  const value = (await sources.ownVehicles()).find((v) => typeof v[field] === 'string' && v[field] !== '')?.[field];
  return typeof value === 'string' ? value : fallback;
};

/** Keyed by operationId, or `operationId variant` for one body shape. */
export const VALID_REQUESTS: Record<string, ValidRequest> = {
  requestServiceToken: { malformed: { grant_type: 'password' } },
  'requestIdentityProviderToken client_credentials': {
    values: { scope: variable('LP_SCOPE') },
    needs: ['LP_SCOPE'],
    malformed: { scope: undefined },
  },
  'requestIdentityProviderToken authorization_code': {
    values: {
      code: earlier('requestAuthorization', (sources) => sources.freshCode()),
      redirect_uri: variable('LP_REDIRECT_URI'),
    },
    samples: { code_verifier: async () => (await pkcePair()).verifier },
    needs: ['LP_AUTH_URL', 'LP_SCOPE', 'LP_REDIRECT_URI'],
    needsCode: true,
  },
  requestAuthorization: {
    values: {
      client_id: variable('LP_CLIENT_ID'),
      redirect_uri: variable('LP_REDIRECT_URI'),
      scope: variable('LP_SCOPE'),
      state: async () => randomState(),
    },
    samples: { code_challenge: async () => (await pkcePair()).challenge, code_challenge_method: async () => 'S256' },
    needs: ['LP_CLIENT_ID', 'LP_SCOPE', 'LP_REDIRECT_URI'],
  },
  recordLoadMilestoneEvent: {
    values: { load_id: variable('LP_TEST_LOAD_ID'), milestone_type: async () => 'ARRIVED_AT_PICKUP', event_time: async () => nowUtc() },
    needs: ['LP_TEST_LOAD_ID'],
    writes: true,
    protect: { load_id: 'a changed load_id could record an event on another load: events are written for LP_TEST_LOAD_ID only' },
    malformed: { event_time: 'not-a-time' },
  },
  listVehicles: {
    samples: {
      customerNumber: ownField('customerNumber', 'C-100234'),
      vehicleNumber: ownField('vehicleNumber', 'V-000006'),
      vin: ownField('vin', '1ZE2UH9DLLZRK1GLX'),
      customervehicleNumber: ownField('customerVehicleNumber', 'TRK-2'),
      licensePlate: ownField('licensePlate', 'KX-4821'),
      sort: async () => 'vehicleNumber asc',
    },
    malformed: { sort: 'unknownField asc' },
  },
  getVehicle: { values: { vehicleNumber: earlier('listVehicles', ownField('vehicleNumber', 'V-CONTRACT-PROBE')) } },
};

/** The table's entry of an operation's variant (empty when it has none: the spec's examples then give the values). */
export const validRequestOf = (operationId: string, variant: string): ValidRequest =>
  VALID_REQUESTS[`${operationId} ${variant}`] ?? VALID_REQUESTS[operationId] ?? {};
