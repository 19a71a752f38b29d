// Dredd hooks (CommonJS: dredd loads hooks with require): real credentials on every request, form-encoded token
// bodies, path parameters taken from the target's data, the write gate for milestones, and the transactions each
// kind of target can run. LP_* settings come from the environment that scripts/dredd.ts passes in.
const hooks = require('hooks');
// The data fetched below goes the way the suite's requests go: through the proxy HTTPS_PROXY or HTTP_PROXY names, in a
// CONNECT tunnel, unless NO_PROXY lists the host (run-dredd.ts adds loopback to it), as src/connections.ts does.
const { EnvHttpProxyAgent } = require('undici');

const env = process.env;
const TARGET = env.LP_CONTRACT_TARGET || 'live';
const writesAllowed = env.LP_ALLOW_WRITES === '1' && Boolean(env.LP_TEST_LOAD_ID);
const state = { token: undefined, vehicleNumber: undefined };
const dispatcher = new EnvHttpProxyAgent();

const join = (base, path) => `${String(base).replace(/\/+$/, '')}${path}`;
const operationOf = (transaction) => {
  const path = transaction.request.uri.split('?')[0];
  const method = transaction.request.method;
  if (method === 'POST' && path === '/token') return 'requestServiceToken';
  if (method === 'POST' && path.endsWith('/oauth2/default/v1/token')) return 'requestIdentityProviderToken';
  if (method === 'GET' && path.endsWith('/oauth2/default/v1/authorize')) return 'requestAuthorization';
  if (method === 'POST' && path === '/v1/load-milestone-events') return 'recordLoadMilestoneEvent';
  if (method === 'GET' && path === '/vehicles') return 'listVehicles';
  if (method === 'GET' && path.startsWith('/vehicles/')) return 'getVehicle';
  return undefined;
};

function skip(transaction, reason) {
  transaction.skip = true;
  // Dredd prints skipped transactions without a reason; say why once.
  hooks.log(`skip ${transaction.name}: ${reason}`);
}

// Data the transactions need: a service token and a vehicle number the key can see, fetched from the target itself.
hooks.beforeAll(async (_transactions, done) => {
  try {
    if (env.LP_BASE_URL && env.LP_CLIENT_ID && env.LP_CLIENT_SECRET) {
      const response = await fetch(join(env.LP_BASE_URL, '/token'), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: env.LP_CLIENT_ID, client_secret: env.LP_CLIENT_SECRET }),
        signal: AbortSignal.timeout(15000),
        dispatcher,
      });
      if (response.ok) state.token = (await response.json()).access_token;
    }
    if (env.LP_FLEET_BASE_URL && env.LP_FLEET_API_KEY) {
      const response = await fetch(join(env.LP_FLEET_BASE_URL, '/vehicles'), {
        headers: { 'API-Key': env.LP_FLEET_API_KEY },
        signal: AbortSignal.timeout(15000),
        dispatcher,
      });
      const list = response.ok ? await response.json() : [];
      if (Array.isArray(list) && list[0]) state.vehicleNumber = list[0].vehicleNumber;
    }
  } catch (error) {
    hooks.log(`could not prepare data: ${error.message}`);
  }
  done();
});

/**
 * What a transaction of an expected status needs from the request, for targets with data.
 * Returns a request change, or a string: the reason the transaction cannot run there.
 */
const PROVOKE = {
  401: (operation) =>
    ({
      requestServiceToken: { form: { client_secret: `${env.LP_CLIENT_SECRET}-wrong` } },
      // Dredd compares keys with the first example (an OAuth error body), so provoke the OAuth error, not the gateway's.
      requestIdentityProviderToken: { form: { client_secret: `${env.LP_CLIENT_SECRET}-wrong` } },
      recordLoadMilestoneEvent: writesAllowed
        ? { dropHeader: 'Authorization' }
        : 'writes are not allowed: an unauthenticated valid event could be recorded',
      listVehicles: { dropHeader: 'API-Key' },
      getVehicle: { dropHeader: 'API-Key' },
    })[operation] || 'no way to provoke 401 here',
  400: (operation) =>
    ({
      requestServiceToken: { form: { grant_type: 'password' } },
      requestIdentityProviderToken: { form: { scope: undefined } },
      recordLoadMilestoneEvent: { json: { event_time: 'not-a-time' } },
      listVehicles: { query: 'sort=unknownField%20asc' },
    })[operation] || 'no request of this operation is malformed in a way the spec pins to 400',
  404: (operation) => (operation === 'getVehicle' ? { vehicle: 'V-DREDD-UNKNOWN-0000' } : 'answered only at a wrong base URL'),
};

hooks.beforeEach((transaction, done) => {
  const operation = operationOf(transaction);
  const status = Number(transaction.expected.statusCode);
  const request = transaction.request;
  request.headers = request.headers || {};

  // Credentials, as each scheme wants them.
  if (operation === 'recordLoadMilestoneEvent' && state.token) request.headers.Authorization = `Bearer ${state.token}`;
  if (operation === 'listVehicles' || operation === 'getVehicle') request.headers['API-Key'] = env.LP_FLEET_API_KEY || '';
  if (operation === 'requestIdentityProviderToken') request.headers['Ocp-Apim-Subscription-Key'] = env.LP_SUBSCRIPTION_KEY || '';

  // Form bodies with the real client credentials (dredd would send the example as JSON).
  let form;
  if (operation === 'requestServiceToken' || operation === 'requestIdentityProviderToken') {
    form = { grant_type: 'client_credentials', client_id: env.LP_CLIENT_ID, client_secret: env.LP_CLIENT_SECRET };
    if (operation === 'requestIdentityProviderToken') form.scope = env.LP_SCOPE;
    request.headers['Content-Type'] = 'application/x-www-form-urlencoded';
  }
  let json;
  if (operation === 'recordLoadMilestoneEvent') {
    // Only ever the test load, and only with writes allowed.
    if (status < 300 && !writesAllowed) {
      skip(transaction, 'writes are not allowed (LP_ALLOW_WRITES=1 and LP_TEST_LOAD_ID)');
      return done();
    }
    json = {
      load_id: env.LP_TEST_LOAD_ID || 'LD-DREDD-REJECTED',
      milestone_type: 'ARRIVED_AT_PICKUP',
      event_time: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    };
  }
  let vehicle = operation === 'getVehicle' ? state.vehicleNumber : undefined;
  let query;

  if (operation === 'requestAuthorization') {
    skip(transaction, 'a browser redirect flow, checked by the vitest suite (authorization-code.test.ts)');
    return done();
  }
  if (TARGET === 'mock') {
    // Prism has no data: it answers whatever status it is asked for with the documented example.
    if (status !== 200) request.headers.Prefer = `code=${status}`;
  } else if (status >= 300) {
    const change = PROVOKE[status] ? PROVOKE[status](operation) : `a ${status} cannot be provoked on purpose by a client`;
    if (typeof change === 'string') {
      skip(transaction, change);
      return done();
    }
    if (change.dropHeader) delete request.headers[change.dropHeader];
    if (change.form) form = { ...form, ...change.form };
    if (change.json) json = { ...json, ...change.json };
    if (change.query) query = change.query;
    if (change.vehicle) vehicle = change.vehicle;
  }

  if (operation === 'getVehicle') {
    if (!vehicle) {
      skip(transaction, 'the key sees no vehicle to fetch');
      return done();
    }
    transaction.fullPath = transaction.fullPath.replace(/\/vehicles\/[^/?]+/, `/vehicles/${encodeURIComponent(vehicle)}`);
    request.uri = request.uri.replace(/\/vehicles\/[^/?]+/, `/vehicles/${encodeURIComponent(vehicle)}`);
  }
  if (query) {
    transaction.fullPath = `${transaction.fullPath.split('?')[0]}?${query}`;
    request.uri = `${request.uri.split('?')[0]}?${query}`;
  }
  if (form) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(form)) if (value !== undefined) params.set(key, value);
    request.body = params.toString();
  }
  if (json) request.body = JSON.stringify(json);
  done();
});

// Dredd compares Content-Type literally; a charset parameter on the documented media type is still that media type.
hooks.beforeEachValidation((transaction, done) => {
  const real = transaction.real?.headers;
  const expected =
    transaction.expected.headers && (transaction.expected.headers['Content-Type'] || transaction.expected.headers['content-type']);
  const actual = real?.['content-type'];
  if (expected && actual && actual.split(';')[0].trim().toLowerCase() === String(expected).toLowerCase()) real['content-type'] = expected;
  done();
});
