// Dredd hooks (CommonJS: dredd loads hooks with require): real credentials on every request, form-encoded token
// bodies, path parameters taken from the target's data, the write gate for milestones, and the transactions each kind
// of target can run. What they know of each operation comes from the operations registry, written as JSON by the
// runner (LP_DREDD_OPERATIONS, dredd/dredd-operations.ts); LP_* settings come from the environment scripts/dredd.ts
// passes in.
const { readFileSync } = require('node:fs');
const hooks = require('hooks');
// The data fetched below goes the way the suite's requests go: through the proxy HTTPS_PROXY or HTTP_PROXY names, in a
// CONNECT tunnel, unless NO_PROXY lists the host (run-dredd.ts adds loopback to it), as src/connections.ts does.
const { EnvHttpProxyAgent } = require('undici');

const env = process.env;
const TARGET = env.LP_CONTRACT_TARGET || 'live';
const writesAllowed = env.LP_ALLOW_WRITES === '1' && Boolean(env.LP_TEST_LOAD_ID);
const { operations, tokenSource } = JSON.parse(readFileSync(env.LP_DREDD_OPERATIONS, 'utf8'));
const state = { token: undefined, values: {} };
const dispatcher = new EnvHttpProxyAgent();

const join = (base, path) => `${String(base).replace(/\/+$/, '')}${path}`;
const operationOf = (transaction) => {
  const path = transaction.request.uri.split('?')[0];
  return operations.find((op) => op.method === transaction.request.method && new RegExp(op.path).test(path));
};
const credentialValue = (credential) => (credential.variable === 'token' ? state.token : env[credential.variable]);

function skip(transaction, reason) {
  transaction.skip = true;
  // Dredd prints skipped transactions without a reason; say why once.
  hooks.log(`skip ${transaction.name}: ${reason}`);
}

// Data the transactions need: a service token, and a value of each path parameter from the target's own list.
hooks.beforeAll(async (_transactions, done) => {
  try {
    if (env[tokenSource.baseVariable] && env.LP_CLIENT_ID && env.LP_CLIENT_SECRET) {
      const response = await fetch(join(env[tokenSource.baseVariable], tokenSource.path), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: env.LP_CLIENT_ID, client_secret: env.LP_CLIENT_SECRET }),
        signal: AbortSignal.timeout(15000),
        dispatcher,
      });
      if (response.ok) state.token = (await response.json()).access_token;
    }
    for (const op of operations)
      for (const [name, source] of Object.entries(op.pathValues)) {
        const owner = op.credentials.find((c) => c.in === 'header');
        if (!source || !env[source.baseVariable] || !owner || !credentialValue(owner)) continue;
        const response = await fetch(join(env[source.baseVariable], source.listPath), {
          headers: { [owner.name]: `${owner.prefix}${credentialValue(owner)}` },
          signal: AbortSignal.timeout(15000),
          dispatcher,
        });
        const list = response.ok ? await response.json() : [];
        if (Array.isArray(list) && list[0]) state.values[name] = list[0][name];
      }
  } catch (error) {
    hooks.log(`could not prepare data: ${error.message}`);
  }
  done();
});

/** What a transaction of an expected status needs from the request on a target with data: a change, or why not. */
function provoke(op, status) {
  if (status === 401) {
    if (op.writes && !writesAllowed) return 'writes are not allowed: an unauthenticated valid event could be recorded';
    const form = op.credentials.find((c) => c.in === 'form' && c.variable === 'LP_CLIENT_SECRET');
    // A token endpoint: the OAuth error of a wrong secret (dredd compares keys with the first example), not the gateway's.
    if (form) return { form: { [form.name]: `${env.LP_CLIENT_SECRET}-wrong` } };
    const header = op.credentials.find((c) => c.in === 'header');
    return header ? { dropHeader: header.name } : 'no way to provoke 401 here';
  }
  if (status === 400)
    return op.malformed ? { fields: op.malformed } : 'no request of this operation is malformed in a way the spec pins to 400';
  if (status === 404) return Object.keys(op.pathValues).length ? { path: 'DREDD-UNKNOWN-0000' } : 'answered only at a wrong base URL';
  return `a ${status} cannot be provoked on purpose by a client`;
}

/** The request's body fields: the example's, the credentials and LP_* values in their place, `fields` on top. */
function bodyFields(op, example, fields) {
  const body = { ...example, ...op.constants };
  for (const credential of op.credentials) if (credential.in === 'form') body[credential.name] = credentialValue(credential);
  for (const [name, variable] of Object.entries(op.variables)) if (env[variable] !== undefined) body[name] = env[variable];
  if (op.body === 'json' && 'event_time' in body) body.event_time = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  for (const [name, value] of Object.entries(fields ?? {})) {
    if (value === null) delete body[name];
    else body[name] = value;
  }
  return body;
}

const withPathValue = (text, value) => text.replace(/\/[^/?]+(\?|$)/, `/${encodeURIComponent(value)}$1`);

hooks.beforeEach((transaction, done) => {
  const op = operationOf(transaction);
  const status = Number(transaction.expected.statusCode);
  const request = transaction.request;
  request.headers = request.headers || {};
  if (!op) {
    skip(transaction, 'no operation of the registry at this address');
    return done();
  }
  if (op.needsCode || op.redirects) {
    skip(transaction, 'a browser redirect flow, checked by the vitest suite (authorization-code.test.ts)');
    return done();
  }
  if (op.writes && status < 300 && !writesAllowed) {
    skip(transaction, 'writes are not allowed (LP_ALLOW_WRITES=1 and LP_TEST_LOAD_ID)');
    return done();
  }
  for (const credential of op.credentials)
    if (credential.in === 'header') request.headers[credential.name] = `${credential.prefix}${credentialValue(credential) || ''}`;
  let change = {};
  if (TARGET === 'mock') {
    // Prism has no data: it answers whatever status it is asked for with the documented example.
    if (status !== 200) request.headers.Prefer = `code=${status}`;
  } else if (status >= 300) {
    change = provoke(op, status);
    if (typeof change === 'string') {
      skip(transaction, change);
      return done();
    }
  }
  if (change.dropHeader) delete request.headers[change.dropHeader];
  const pathNames = Object.keys(op.pathValues);
  if (pathNames.length) {
    const value = change.path ?? state.values[pathNames[0]];
    if (!value) {
      skip(transaction, 'the key sees nothing to fetch');
      return done();
    }
    transaction.fullPath = withPathValue(transaction.fullPath, value);
    request.uri = withPathValue(request.uri, value);
  }
  if (op.body !== 'none') {
    let example = {};
    try {
      example = request.body ? JSON.parse(request.body) : {};
    } catch {
      example = Object.fromEntries(new URLSearchParams(request.body || ''));
    }
    const body = bodyFields(op, example, { ...change.form, ...change.fields });
    if (op.body === 'form') {
      request.headers['Content-Type'] = 'application/x-www-form-urlencoded';
      request.body = new URLSearchParams(Object.entries(body).filter(([, v]) => v !== undefined)).toString();
    } else request.body = JSON.stringify(body);
  } else if (change.fields) {
    const query = new URLSearchParams(Object.entries(change.fields).filter(([, v]) => v !== null)).toString();
    transaction.fullPath = `${transaction.fullPath.split('?')[0]}?${query}`;
    request.uri = `${request.uri.split('?')[0]}?${query}`;
  }
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
