// The Postman collection of the three APIs, generated from the bundles: openapi-to-postmanv2 converts each spec, and
// this puts right what it gets wrong and wires in what a partner needs to send a request as is:
// - every request goes to its operation's own server (the converter sends the identity provider's paths to the
//   service's {{baseUrl}}), as {{base_url}}, {{auth_url}} or {{fleet_base_url}};
// - auth per the operation's security: the fleet API-Key, the subscription key, and a bearer token that a
//   pre-request script fetches (client credentials) and caches, reading the service's `expired_in`;
// - credentials and identifiers are environment variables, no optional query parameter (filter) is switched on;
// - every request tests that its status is documented and is the documented success.
// After the three APIs' folders, a Flows folder with one folder per Arazzo workflow (tools/postman/workflow-folders.ts).
// Written with two environments, sandbox (works as is against `npm run sandbox`; its origin is one variable that the
// three base URLs are built from) and live (to fill in).
import { stableId } from './stable-id.ts';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SANDBOX_DEFAULTS, OTHER_LESSEE_API_KEY, dotenvLines, readCredentials } from '../../sandbox/config.ts';
import { buildLessees, buildVehicles, DEFAULT_VEHICLE_COUNT } from '../../sandbox/fleet-fixtures.ts';
import { API_NAMES, repoRoot, type ApiName } from '../../spec-core/apis.ts';
import { loadBundles, type Bundle } from '../../spec-core/bundles.ts';
import { operationsOf } from '../../spec-core/operations.ts';
import { resolveRef } from '../../spec-core/pointer.ts';
import { postmanConversion, type PostmanCollectionJson } from '../interop/consumers.ts';
import {
  EXPIRED_IN_TEST,
  statusTestScript,
  TOKEN_EXPIRY_VARIABLE,
  TOKEN_FAILURE_TEST,
  TOKEN_VARIABLE,
  tokenPreRequestScript,
  type StatusExpectation,
} from './scripts.ts';
import { FLOWS_FOLDER, flowsFolder } from './workflow-folders.ts';

export const COLLECTION_FILE = 'logistics-partner-api.postman_collection.json';
export const ENVIRONMENT_FILES = { sandbox: 'sandbox.postman_environment.json', live: 'live.postman_environment.json' } as const;
export const DEFAULT_OUT_DIR = join(repoRoot, 'dist/docs/postman');

/** The files as the docs link them, relative to dist/docs/ (where `writePostmanCollection(join(docsDir, 'postman'))` puts them). */
export const POSTMAN_DOWNLOADS = [
  { href: `postman/${COLLECTION_FILE}`, label: 'Postman collection' },
  { href: `postman/${ENVIRONMENT_FILES.sandbox}`, label: 'Postman environment: sandbox (npm run sandbox)' },
  { href: `postman/${ENVIRONMENT_FILES.live}`, label: 'Postman environment: live (fill in your values)' },
] as const;

/** The sandbox's default address (`npm run sandbox` without --port; sandbox/README.md). */
export const SANDBOX_DEFAULT_ORIGIN = 'http://127.0.0.1:4020';

/**
 * The sandbox environment's one address: the base URLs refer to it (`{{sandbox_origin}}/svc`; Postman and newman resolve
 * a variable inside a variable's value), so a sandbox on another port is one value to change.
 */
export const SANDBOX_ORIGIN_VARIABLE = 'sandbox_origin';

/** The collection's variables and the LP_* variable each is the Postman name of; secrets are typed `secret`. */
const VARIABLES = [
  { key: 'base_url', lp: 'LP_BASE_URL' },
  { key: 'auth_url', lp: 'LP_AUTH_URL' },
  { key: 'fleet_base_url', lp: 'LP_FLEET_BASE_URL' },
  { key: 'client_id', lp: 'LP_CLIENT_ID' },
  { key: 'client_secret', lp: 'LP_CLIENT_SECRET', secret: true },
  { key: 'subscription_key', lp: 'LP_SUBSCRIPTION_KEY', secret: true },
  { key: 'scope', lp: 'LP_SCOPE' },
  { key: 'redirect_uri', lp: 'LP_REDIRECT_URI' },
  { key: 'fleet_api_key', lp: 'LP_FLEET_API_KEY', secret: true },
  { key: 'load_id', lp: 'LP_TEST_LOAD_ID' },
  { key: 'vehicle_number', lp: undefined },
  // The token cache the pre-request script fills, per environment (a sandbox token is never sent live).
  { key: TOKEN_VARIABLE, lp: undefined, secret: true },
  { key: TOKEN_EXPIRY_VARIABLE, lp: undefined },
] as const;
export type VariableName = (typeof VARIABLES)[number]['key'];

/** Request fields (form, query, path) filled from a variable instead of the spec's example value. */
const FIELD_VARIABLES: Record<string, VariableName> = {
  client_id: 'client_id',
  client_secret: 'client_secret',
  scope: 'scope',
  redirect_uri: 'redirect_uri',
  load_id: 'load_id',
  vehicleNumber: 'vehicle_number',
};

/** The variable that carries each security scheme's credential, and how Postman sends it. */
const SCHEME_AUTH: Record<string, { header: string; variable: VariableName } | 'bearer'> = {
  SubscriptionKey: { header: 'Ocp-Apim-Subscription-Key', variable: 'subscription_key' },
  FleetApiKey: { header: 'API-Key', variable: 'fleet_api_key' },
  OAuth2: 'bearer',
};

type Item = PostmanCollectionJson;
/** The requests of a collection's items, folders flattened. */
export const requestsOf = (items: Item[]): Item[] => items.flatMap((item) => (item.item ? requestsOf(item.item) : [item]));

/** The security requirement to wire: the one that sends the most credentials (all of them are accepted). */
function chosenRequirement(bundle: Bundle, op: Bundle): Record<string, string[]> {
  const requirements: Record<string, string[]>[] = op.security ?? bundle.security ?? [];
  return [...requirements].sort((a, b) => Object.keys(b).length - Object.keys(a).length)[0] ?? {};
}

/** `{base_url}` (a server URL template) as the Postman variable `{{base_url}}`. */
const postmanTemplate = (serverUrl: string) => serverUrl.replace(/\{(\w+)\}/g, '{{$1}}');

const lines = (exec: string[]) => ({ type: 'text/javascript', exec });

function statusExpectation(bundle: Bundle, op: Bundle): StatusExpectation {
  const documented = Object.keys(op.responses ?? {});
  const success = documented.filter((code) => /^[23]/.test(code));
  const successResponse = resolveRef(bundle, op.responses?.[success[0] ?? '']);
  const schema = resolveRef(bundle, Object.values<Bundle>(successResponse?.content ?? {})[0]?.schema);
  const body = schema?.type === 'array' ? 'array' : Array.isArray(schema?.required) ? { required: schema.required as string[] } : undefined;
  return { documented, success, ...(body ? { body } : {}) };
}

/** Postman auth for the chosen security requirement. */
function authOf(bundle: Bundle, op: Bundle): { auth: Item; needsToken: boolean } {
  const schemes = Object.keys(chosenRequirement(bundle, op)).map((name) => {
    const auth = SCHEME_AUTH[name];
    if (!auth) throw new Error(`security scheme ${name} has no Postman wiring in tools/postman/build-collection.ts`);
    return auth;
  });
  const needsToken = schemes.includes('bearer');
  const keys = schemes.filter((scheme): scheme is { header: string; variable: VariableName } => scheme !== 'bearer');
  // Postman gives a request one auth: a bearer token goes there and the keys become headers, else one key is the auth.
  if (needsToken)
    return { auth: { type: 'bearer', bearer: [{ key: 'token', value: `{{${TOKEN_VARIABLE}}}`, type: 'string' }] }, needsToken };
  const [key] = keys;
  if (!key) return { auth: { type: 'noauth' }, needsToken };
  return {
    auth: {
      type: 'apikey',
      apikey: [
        { key: 'key', value: key.header, type: 'string' },
        { key: 'value', value: `{{${key.variable}}}`, type: 'string' },
        { key: 'in', value: 'header', type: 'string' },
      ],
    },
    needsToken,
  };
}

/** Header lines for the keys a bearer request also sends (Postman's auth holds only the token). */
function extraKeyHeaders(bundle: Bundle, op: Bundle): Item[] {
  const chosen = chosenRequirement(bundle, op);
  if (!('OAuth2' in chosen)) return [];
  return Object.keys(chosen).flatMap((name) => {
    const auth = SCHEME_AUTH[name];
    return auth && auth !== 'bearer'
      ? [{ key: auth.header, value: `{{${auth.variable}}}`, description: 'Accepted with the bearer token.' }]
      : [];
  });
}

const fillField = (field: Item) => {
  const variable = FIELD_VARIABLES[field.key];
  return variable ? { ...field, value: `{{${variable}}}` } : field;
};

/** Rewrites one converted request of operation `op` in `bundle` (see the file comment). */
function rewriteRequest(bundle: Bundle, item: Item, op: Bundle, host: string): Item {
  // The converter names the host {{baseUrl}} (and an apiKey credential {{apiKey}}) in the request and in every saved
  // example response; both are replaced everywhere in the item.
  const { auth, needsToken } = authOf(bundle, op);
  const keyVariable = auth.type === 'apikey' ? auth.apikey[1].value : '{{subscription_key}}';
  const rewritten: Item = JSON.parse(JSON.stringify(item).replaceAll('{{baseUrl}}', host).replaceAll('{{apiKey}}', keyVariable));
  delete rewritten.id;
  for (const response of rewritten.response ?? []) delete response.id;
  const request = rewritten.request;
  request.auth = auth;
  request.header = [...(request.header ?? []), ...extraKeyHeaders(bundle, op)];
  const seen = new Set<string>();
  // Array parameters come out twice; optional ones (the fleet filters, sort, state, PKCE) stay off until chosen.
  const required = new Set(
    (op.parameters ?? [])
      .map((p: Bundle) => resolveRef(bundle, p))
      .filter((p: Bundle) => p.required)
      .map((p: Bundle) => p.name),
  );
  request.url.query = (request.url.query ?? [])
    .filter((q: Item) => !seen.has(q.key) && seen.add(q.key))
    .map((q: Item) => ({ ...fillField(q), disabled: !required.has(q.key) }));
  request.url.variable = (request.url.variable ?? []).map(fillField);
  if (request.body?.mode === 'urlencoded') request.body.urlencoded = request.body.urlencoded.map(fillField);
  if (request.body?.mode === 'raw' && request.body.options?.raw?.language === 'json') {
    const example = JSON.parse(request.body.raw);
    for (const key of Object.keys(example)) if (FIELD_VARIABLES[key]) example[key] = `{{${FIELD_VARIABLES[key]}}}`;
    // A milestone happens now: Postman's dynamic variable gives the current time in ISO 8601 UTC.
    if ('event_time' in example) example.event_time = '{{$isoTimestamp}}';
    request.body.raw = JSON.stringify(example, null, 2);
  }
  // The authorize endpoint answers a browser with a redirect to redirect_uri; the test looks at that answer itself.
  if (op.operationId === 'requestAuthorization')
    rewritten.protocolProfileBehavior = { ...rewritten.protocolProfileBehavior, followRedirects: false };
  const extraTests = op.operationId === 'requestServiceToken' ? EXPIRED_IN_TEST : [];
  rewritten.event = [
    ...(needsToken ? [{ listen: 'prerequest', script: lines(tokenPreRequestScript()) }] : []),
    { listen: 'test', script: lines(statusTestScript(statusExpectation(bundle, op), extraTests)) },
  ];
  return rewritten;
}

/** Finds the operation a converted request stands for, by method and path (`:name` is `{name}`). */
function operationFor(bundle: Bundle, item: Item) {
  const path = `/${(item.request.url.path as string[]).map((s) => s.replace(/^:(\w+)$/, '{$1}')).join('/')}`;
  const method = String(item.request.method).toLowerCase();
  const found = operationsOf(bundle).find((o) => o.path === path && o.method === method);
  if (!found) throw new Error(`openapi-to-postmanv2 produced ${method.toUpperCase()} ${path}, which no operation declares`);
  const servers: Bundle[] = found.item.servers ?? bundle.servers ?? [];
  if (servers.length !== 1) throw new Error(`${found.op.operationId}: expected one server, found ${servers.length}`);
  return { op: found.op, host: postmanTemplate(servers[0]!.url) };
}

async function folderOf(api: ApiName, bundle: Bundle): Promise<Item> {
  const conversion = await postmanConversion(api, bundle);
  if (conversion.problems.length > 0 || !conversion.collection)
    throw new Error(`openapi-to-postmanv2 failed on ${api}: ${conversion.problems.join('; ')}`);
  const rewrite = (items: Item[]): Item[] =>
    items.map((item) => {
      if (item.item) return { ...item, item: rewrite(item.item) };
      const { op, host } = operationFor(bundle, item);
      return rewriteRequest(bundle, item, op, host);
    });
  const item = rewrite(conversion.collection.item);
  const count = requestsOf(item).length;
  if (count !== operationsOf(bundle).length) throw new Error(`${api}: ${count} requests for ${operationsOf(bundle).length} operations`);
  return { name: bundle.info.title, description: bundle.info.description, item };
}

export type PostmanEnvironment = {
  id: string;
  name: string;
  values: { key: string; value: string; type: 'default' | 'secret'; enabled: true }[];
  _postman_variable_scope: 'environment';
};

type EnvironmentValue = PostmanEnvironment['values'][number];

function environment(
  name: string,
  value: (key: VariableName, lp: string | undefined) => string,
  first: EnvironmentValue[] = [],
): PostmanEnvironment {
  return {
    id: stableId(`environment ${name}`),
    name: `Logistics Partner API: ${name}`,
    values: [
      ...first,
      ...VARIABLES.map(
        (v): EnvironmentValue => ({
          key: v.key,
          value: value(v.key, v.lp),
          type: 'secret' in v && v.secret ? 'secret' : 'default',
          enabled: true,
        }),
      ),
    ],
    _postman_variable_scope: 'environment',
  };
}

/**
 * The sandbox environment: the sandbox's own defaults (sandbox/config.ts), its address given once as `sandbox_origin`
 * (the default one unless told) and the three base URLs built from it.
 */
function sandboxEnvironment(origin: string): PostmanEnvironment {
  const credentials = readCredentials({});
  const lessees = buildLessees(SANDBOX_DEFAULTS.LP_FLEET_API_KEY, OTHER_LESSEE_API_KEY);
  const own = new Set(lessees[0]?.customerNumbers);
  const vehicle = buildVehicles(DEFAULT_VEHICLE_COUNT, lessees).find((v) => own.has(v.customerNumber));
  const lp = new Map(
    dotenvLines(`{{${SANDBOX_ORIGIN_VARIABLE}}}`, credentials, { vehicleNumber: '', customerNumber: '' }).map((line) => [
      line.name,
      line.value,
    ]),
  );
  return environment(
    'sandbox',
    (key, name) => {
      if (key === 'vehicle_number') return vehicle?.vehicleNumber ?? '';
      if (key === TOKEN_EXPIRY_VARIABLE) return '0';
      return name ? (lp.get(name) ?? '') : '';
    },
    [{ key: SANDBOX_ORIGIN_VARIABLE, value: origin, type: 'default', enabled: true }],
  );
}

export type PostmanBuild = { collection: PostmanCollectionJson; environments: Record<keyof typeof ENVIRONMENT_FILES, PostmanEnvironment> };

/** Builds the collection and both environments from the bundles (dist/openapi/*.json unless given). */
export async function buildPostmanCollection(
  bundles: Record<ApiName, Bundle> = loadBundles(),
  sandboxOrigin = SANDBOX_DEFAULT_ORIGIN,
): Promise<PostmanBuild> {
  const folders = [];
  for (const api of API_NAMES) folders.push(await folderOf(api, bundles[api]));
  // Then the flows: one folder per Arazzo workflow, in the docs' order.
  const flows = flowsFolder(bundles, postmanVariableOf);
  folders.push(flows.folder);
  const collection = {
    info: {
      _postman_id: stableId('logistics-partner-api collection'),
      name: 'Logistics Partner API',
      description: [
        'Every operation of the token, carriers and fleet APIs, generated from the OpenAPI specs.',
        '',
        'Choose an environment: **sandbox** works as is against `npm run sandbox` (port 4020, its default credentials);',
        'for a sandbox on another port change `sandbox_origin` (e.g. `http://127.0.0.1:4021`), from which the three base',
        'URLs are built. **live** has the same variables, empty: fill in the addresses and credentials you were given at',
        'onboarding. Behind a corporate proxy, Postman uses the one set under Settings → Proxy (the system proxy, or a',
        'custom one with its credentials), and newman reads HTTPS_PROXY, HTTP_PROXY and NO_PROXY as curl does. A private CA',
        'of your staging environment goes under Settings → Certificates → CA certificates (newman: --ssl-extra-ca-certs);',
        'keep certificate verification on.',
        '',
        'Requests that need a bearer token fetch one from `{{base_url}}/token` (client credentials) in their pre-request',
        'script and cache it in the environment until it expires; the service names the lifetime `expired_in`. When the',
        `token request fails, the request is not sent: it fails with the test "${TOKEN_FAILURE_TEST}", whose message`,
        "is the token endpoint's answer (status and the start of its body; your credentials are masked).",
        'Fleet filters are switched off: tick the ones you want (values of one filter are alternatives, different filters combine).',
        '',
        `The folder "${FLOWS_FOLDER}" runs the flows of the published documentation, one folder per Arazzo workflow and`,
        'one request per step: each step keeps what the next needs in a collection variable (wf_...), and a step whose',
        'step before did not keep it fails without being sent.',
      ].join('\n'),
      schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
    },
    item: folders,
    // What the flows' steps keep for the steps after them: the collection's own, not the environment's.
    variable: flows.variables,
  };
  return {
    collection,
    environments: {
      sandbox: sandboxEnvironment(sandboxOrigin),
      live: environment('live', (key) => (key === TOKEN_EXPIRY_VARIABLE ? '0' : '')),
    },
  };
}

/** Every `{{name}}` the collection refers to, Postman's dynamic variables (`{{$...}}`) and its own variables aside. */
export function variablesUsed(collection: PostmanCollectionJson): string[] {
  const text = JSON.stringify(collection);
  const names = new Set([...text.matchAll(/\{\{([^{}$][^{}]*)\}\}/g)].map((m) => m[1]!));
  // Scripts read variables by name too.
  for (const m of text.matchAll(/pm\.(?:variables|environment)\.(?:get|set)\('([^']+)'/g)) names.add(m[1]!);
  for (const own of (collection.variable ?? []) as Array<{ key: string }>) names.delete(own.key);
  return [...names].sort();
}

/** The collection's variable that stands for an LP_* variable (`LP_CLIENT_ID` -> `client_id`). */
export function postmanVariableOf(lp: string): string {
  const variable = VARIABLES.find((v) => v.lp === lp);
  if (!variable) throw new Error(`${lp} has no Postman variable in tools/postman/build-collection.ts`);
  return variable.key;
}

/** Writes the collection and the environments into `outDir`; returns the files written. */
export async function writePostmanCollection(outDir = DEFAULT_OUT_DIR, bundles?: Record<ApiName, Bundle>): Promise<string[]> {
  const { collection, environments } = await buildPostmanCollection(bundles);
  mkdirSync(outDir, { recursive: true });
  const files: [string, unknown][] = [
    [COLLECTION_FILE, collection],
    [ENVIRONMENT_FILES.sandbox, environments.sandbox],
    [ENVIRONMENT_FILES.live, environments.live],
  ];
  return files.map(([name, content]) => {
    const path = join(outDir, name);
    writeFileSync(path, `${JSON.stringify(content, null, 2)}\n`);
    return path;
  });
}
