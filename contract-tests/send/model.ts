// One model of the operations, derived from the bundles, that the generated checks read: for each operationId (and,
// on the token endpoints, each grant type) its method, server variable and path (from the spec), every credential a
// valid request carries (which security scheme it belongs to, where it travels, which LP_* variable holds it), a valid
// request, and the LP_* variables it needs. Checks send `request(entry, overrides)`; none spells a path or a base
// variable. What the spec cannot say is written here once: where the form credentials of the token endpoints go
// (RFC 6749 2.3.1, the seed's requests), and how to build a valid body. `modelProblems()` (self/model.test.ts) fails
// when an operation of the bundles, or a security scheme of an operation, has no entry here.
import { reasonIfCannot } from './capabilities.ts';
import { type Dimension, type Exchange, exchange } from './fetch.ts';
import { operationById, operations, type Operation } from './spec.ts';
import { joinUrl, type LpVariable, reasonIfUnset, required, target } from './target.ts';

/** A credential as it travels. `ClientPassword` is RFC 6749 2.3.1's client_id and client_secret in the form body. */
export type SchemeName = 'OAuth2' | 'SubscriptionKey' | 'FleetApiKey' | 'ClientPassword';
export type CredentialId = 'bearer' | 'subscriptionKey' | 'fleetApiKey' | 'clientId' | 'clientSecret';

export interface Credential {
  id: CredentialId;
  scheme: SchemeName;
  /** Where it travels in a valid request: a header (with a prefix before the value) or a form field. */
  where: { in: 'header'; name: string; prefix?: string } | { in: 'form'; name: string };
  /** The LP_* variables behind it (a bearer token is obtained with the client credentials). */
  variables: LpVariable[];
  /** Whether its value is a secret (never printed; near copies are redacted too). */
  secret: boolean;
}

export const CREDENTIALS: Record<CredentialId, Credential> = {
  bearer: {
    id: 'bearer',
    scheme: 'OAuth2',
    where: { in: 'header', name: 'Authorization', prefix: 'Bearer ' },
    variables: ['LP_BASE_URL', 'LP_CLIENT_ID', 'LP_CLIENT_SECRET'],
    secret: true,
  },
  subscriptionKey: {
    id: 'subscriptionKey',
    scheme: 'SubscriptionKey',
    where: { in: 'header', name: 'Ocp-Apim-Subscription-Key' },
    variables: ['LP_SUBSCRIPTION_KEY'],
    secret: true,
  },
  fleetApiKey: {
    id: 'fleetApiKey',
    scheme: 'FleetApiKey',
    where: { in: 'header', name: 'API-Key' },
    variables: ['LP_FLEET_API_KEY'],
    secret: true,
  },
  clientId: {
    id: 'clientId',
    scheme: 'ClientPassword',
    where: { in: 'form', name: 'client_id' },
    variables: ['LP_CLIENT_ID'],
    secret: false,
  },
  clientSecret: {
    id: 'clientSecret',
    scheme: 'ClientPassword',
    where: { in: 'form', name: 'client_secret' },
    variables: ['LP_CLIENT_SECRET'],
    secret: true,
  },
};

/** The security scheme names of the bundles that each of our credentials stands for. */
export const SCHEME_OF_SPEC: Record<string, SchemeName> = {
  OAuth2: 'OAuth2',
  SubscriptionKey: 'SubscriptionKey',
  FleetApiKey: 'FleetApiKey',
};

/** A request as parts, before it is sent: the checks change one part and send the rest as it is. */
export interface RequestParts {
  /** The path below the base URL, with path parameters filled in. */
  path: string;
  query: Array<[string, string]>;
  headers: Record<string, string>;
  form?: Record<string, string>;
  json?: unknown;
}

export interface ModelEntry {
  operationId: string;
  /** The grant type on the token endpoints; 'default' elsewhere. */
  variant: string;
  /** Credentials a valid request carries, all of them required (an optional one is in `optional`). */
  credentials: CredentialId[];
  /** Credentials a valid request may carry (a security alternative of the spec), not required. */
  optional?: CredentialId[];
  /** The request body's kind: a form (the token endpoints), JSON (a milestone), or none. */
  body: 'form' | 'json' | 'none';
  /** Variables the valid request needs besides its credentials' (e.g. LP_SCOPE, LP_TEST_LOAD_ID). */
  extra: LpVariable[];
  /** A valid request posts data that a lenient server would keep: only with LP_ALLOW_WRITES=1, for LP_TEST_LOAD_ID. */
  writes?: boolean;
  /** It needs a fresh authorization code, had only where the identity provider approves unattended. */
  needsCode?: boolean;
  /** A valid request, less the credentials (`withCredentials` adds them). */
  valid(): Promise<RequestParts>;
}

const FORM_TYPE = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

/** A valid milestone event for the test load: the one builder (the seed's three fields, seconds precision). */
export function validMilestone(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    load_id: target.env.LP_TEST_LOAD_ID,
    milestone_type: 'ARRIVED_AT_PICKUP',
    event_time: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    ...overrides,
  };
}

let ownVehicle: Promise<string> | undefined;
/** A vehicle number the fleet key can see (from the unfiltered list), or a made-up one when there is none. */
export function ownVehicleNumber(): Promise<string> {
  ownVehicle ??= (async () => {
    if (reasonIfUnset(target, 'LP_FLEET_BASE_URL', 'LP_FLEET_API_KEY') || reasonIfCannot(target.name, 'hasDataSemantics'))
      return 'V-CONTRACT-PROBE';
    const { response, bodyText } = await exchange(joinUrl(required(target, 'LP_FLEET_BASE_URL'), '/vehicles'), {
      headers: { 'API-Key': required(target, 'LP_FLEET_API_KEY') },
    });
    const { parseJsonLoosely, vehicleListOf } = await import('../judge/vehicle-list.ts');
    const first = response.ok
      ? vehicleListOf<{ vehicleNumber?: unknown }>(parseJsonLoosely(bodyText)).vehicles?.[0]?.vehicleNumber
      : undefined;
    return typeof first === 'string' && first !== '' ? first : 'V-CONTRACT-PROBE';
  })();
  return ownVehicle;
}

/** The model: one entry per operation and grant type. */
export const MODEL: ModelEntry[] = [
  {
    operationId: 'requestServiceToken',
    variant: 'client_credentials',
    body: 'form',
    credentials: ['clientId', 'clientSecret'],
    extra: [],
    valid: async () => ({ path: '/token', query: [], headers: { 'content-type': FORM_TYPE }, form: { grant_type: 'client_credentials' } }),
  },
  {
    operationId: 'requestIdentityProviderToken',
    variant: 'client_credentials',
    body: 'form',
    credentials: ['subscriptionKey', 'clientId', 'clientSecret'],
    extra: ['LP_SCOPE'],
    valid: async () => ({
      path: '/oauth2/default/v1/token',
      query: [],
      headers: { 'content-type': FORM_TYPE },
      form: { grant_type: 'client_credentials', scope: required(target, 'LP_SCOPE') },
    }),
  },
  {
    operationId: 'requestIdentityProviderToken',
    variant: 'authorization_code',
    body: 'form',
    credentials: ['subscriptionKey', 'clientId', 'clientSecret'],
    extra: ['LP_AUTH_URL', 'LP_SCOPE', 'LP_REDIRECT_URI'],
    needsCode: true,
    valid: async () => {
      const { freshCode } = await import('./authorization.ts');
      return {
        path: '/oauth2/default/v1/token',
        query: [],
        headers: { 'content-type': FORM_TYPE },
        form: { grant_type: 'authorization_code', code: await freshCode(), redirect_uri: required(target, 'LP_REDIRECT_URI') },
      };
    },
  },
  {
    // No credential: the client is named in the query; an unregistered one is the authorize checks' business.
    operationId: 'requestAuthorization',
    variant: 'default',
    body: 'none',
    credentials: [],
    extra: ['LP_CLIENT_ID', 'LP_SCOPE', 'LP_REDIRECT_URI'],
    valid: async () => ({
      path: '/oauth2/default/v1/authorize',
      query: [
        ['client_id', required(target, 'LP_CLIENT_ID')],
        ['response_type', 'code'],
        ['redirect_uri', required(target, 'LP_REDIRECT_URI')],
        ['scope', required(target, 'LP_SCOPE')],
        ['state', `contract-${Math.random().toString(36).slice(2, 10)}`],
      ],
      headers: {},
    }),
  },
  {
    operationId: 'recordLoadMilestoneEvent',
    variant: 'default',
    body: 'json',
    credentials: ['bearer'],
    optional: ['subscriptionKey'],
    extra: ['LP_TEST_LOAD_ID'],
    writes: true,
    valid: async () => ({ path: '/v1/load-milestone-events', query: [], headers: { 'content-type': JSON_TYPE }, json: validMilestone() }),
  },
  {
    operationId: 'listVehicles',
    variant: 'default',
    body: 'none',
    credentials: ['fleetApiKey'],
    extra: [],
    valid: async () => ({ path: '/vehicles', query: [], headers: {} }),
  },
  {
    operationId: 'getVehicle',
    variant: 'default',
    body: 'none',
    credentials: ['fleetApiKey'],
    extra: [],
    valid: async () => ({ path: `/vehicles/${encodeURIComponent(await ownVehicleNumber())}`, query: [], headers: {} }),
  },
];

export const entryLabel = (entry: ModelEntry) =>
  entry.variant === 'default' ? entry.operationId : `${entry.operationId} (${entry.variant})`;

/** The spec's operation behind an entry. */
export const operationOf = (entry: ModelEntry): Operation => operationById(entry.operationId);

/** Every LP_* variable a valid request of the entry needs: its server, its credentials' and its own. */
export function variablesOf(entry: ModelEntry): LpVariable[] {
  const variables = new Set<LpVariable>([operationOf(entry).baseVariable]);
  for (const id of entry.credentials) for (const variable of CREDENTIALS[id].variables) variables.add(variable);
  for (const variable of entry.extra) variables.add(variable);
  return [...variables];
}

/** Why a valid request of the entry cannot be sent to this target, or undefined. */
export async function reasonIfCannotSend(entry: ModelEntry): Promise<string | undefined> {
  const unset = reasonIfUnset(target, ...variablesOf(entry));
  if (unset) return unset;
  if (entry.writes && !target.writesAllowed)
    return 'writes are not allowed (LP_ALLOW_WRITES=1 and LP_TEST_LOAD_ID): a server that accepted a wrong request would record it';
  if (entry.needsCode) {
    const { unattendedApproval } = await import('./authorization.ts');
    const why = reasonIfCannot(target.name, 'hasDataSemantics') ?? (await unattendedApproval());
    if (why) return `needs an authorization code: ${why}`;
  }
  return undefined;
}

let bearerToken: Promise<string> | undefined;
/** The value of a credential for this target (a bearer token is obtained once per worker, through the client). */
export async function credentialValue(id: CredentialId): Promise<string> {
  switch (id) {
    case 'bearer': {
      const { tokenProvider } = await import('./clients.ts');
      bearerToken ??= tokenProvider(target, 'service').getToken();
      return bearerToken;
    }
    case 'subscriptionKey':
      return required(target, 'LP_SUBSCRIPTION_KEY');
    case 'fleetApiKey':
      return required(target, 'LP_FLEET_API_KEY');
    case 'clientId':
      return required(target, 'LP_CLIENT_ID');
    case 'clientSecret':
      return required(target, 'LP_CLIENT_SECRET');
  }
}

/** The parts without a credential (a header removed case-insensitively, or a form field). */
export function without(parts: RequestParts, credential: Credential): RequestParts {
  const next: RequestParts = {
    ...parts,
    headers: { ...parts.headers },
    query: [...parts.query],
    ...(parts.form ? { form: { ...parts.form } } : {}),
  };
  if (credential.where.in === 'header') {
    const name = credential.where.name.toLowerCase();
    for (const key of Object.keys(next.headers)) if (key.toLowerCase() === name) delete next.headers[key];
  } else if (next.form) delete next.form[credential.where.name];
  return next;
}

/** The parts with a credential's place holding `value` (a header keeps the scheme's prefix, e.g. "Bearer "). */
export function holding(parts: RequestParts, credential: Credential, value: string): RequestParts {
  const next = without(parts, credential);
  if (credential.where.in === 'header') next.headers[credential.where.name] = `${credential.where.prefix ?? ''}${value}`;
  else next.form = { ...(next.form ?? {}), [credential.where.name]: value };
  return next;
}

/** A valid request of the entry with every credential in its place. */
export async function withCredentials(entry: ModelEntry): Promise<RequestParts> {
  let parts = await entry.valid();
  for (const id of entry.credentials) parts = holding(parts, CREDENTIALS[id], await credentialValue(id));
  return parts;
}

/** The URL of the parts on the entry's server (its base URL, with any path prefix, then the path and query). */
export function urlOf(entry: ModelEntry, parts: RequestParts): URL {
  const url = new URL(joinUrl(required(target, operationOf(entry).baseVariable), parts.path));
  for (const [name, value] of parts.query) url.searchParams.append(name, value);
  return url;
}

/** The body of the parts as it goes on the wire: the form encoded, the JSON serialized, or none. */
export const bodyOf = (parts: RequestParts): string | undefined =>
  parts.form ? new URLSearchParams(parts.form).toString() : parts.json === undefined ? undefined : JSON.stringify(parts.json);

/** Sends the parts as the entry's method to its server; follows no redirect. Every answer is checked by the contract fetch. */
export function send(
  entry: ModelEntry,
  parts: RequestParts,
  init: { method?: string; body?: string | Uint8Array<ArrayBuffer>; dimension?: Dimension } = {},
): Promise<Exchange> {
  const operation = operationOf(entry);
  const url = urlOf(entry, parts);
  // A byte body goes out without a Content-Type of fetch's own (a string would be labelled text/plain).
  const body = init.body ?? bodyOf(parts);
  return exchange(
    url,
    { method: init.method ?? operation.method, headers: parts.headers, body, redirect: 'manual' },
    init.dimension ? { dimension: init.dimension } : {},
  );
}

/** Sends a valid request of the entry, with `change` applied to its parts first. */
export async function request(entry: ModelEntry, change: (parts: RequestParts) => RequestParts = (p) => p): Promise<Exchange> {
  return send(entry, change(await withCredentials(entry)));
}

/**
 * What the model lacks against the bundles: an operation without an entry, or a security scheme of an operation that
 * no entry of it carries. The self-test runs it on the real model and on broken copies (it must be able to fail).
 */
export function modelProblems(model: ModelEntry[], specOperations: Operation[] = operations): string[] {
  const problems: string[] = [];
  for (const operation of specOperations) {
    const entries = model.filter((e) => e.operationId === operation.operationId);
    if (!entries.length) {
      problems.push(`${operation.operationId} (${operation.method} ${operation.path}) has no entry in the model`);
      continue;
    }
    const carried = new Set(entries.flatMap((e) => [...e.credentials, ...(e.optional ?? [])].map((id) => CREDENTIALS[id].scheme)));
    for (const requirement of operation.security)
      for (const scheme of Object.keys(requirement))
        if (!carried.has(SCHEME_OF_SPEC[scheme] ?? (scheme as SchemeName)))
          problems.push(`${operation.operationId}: its security scheme ${scheme} is carried by no entry of the model`);
  }
  for (const entry of model)
    if (!specOperations.some((o) => o.operationId === entry.operationId))
      problems.push(`${entry.operationId}: not an operation of the bundles`);
  return problems;
}
