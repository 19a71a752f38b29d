// The JavaScript the collection runs inside Postman (and newman): fetching the service token, and the tests of each
// request. Written as source text, because Postman stores scripts as lines of code in the collection.

/** The collection's variable that holds the cached bearer token, and the one with its expiry (epoch milliseconds). */
export const TOKEN_VARIABLE = 'access_token';
export const TOKEN_EXPIRY_VARIABLE = 'access_token_expires_at';

/** Seconds before the announced expiry at which a cached token is no longer used. */
export const TOKEN_RENEW_MARGIN_SECONDS = 60;

/**
 * Pre-request script of every request that needs a bearer token: a client credentials token from the service's
 * `{{base_url}}/token`, cached in the environment until shortly before it expires. The service names the lifetime
 * `expired_in` (not the usual `expires_in`); both are read. A failed fetch empties the cache, so the request goes out
 * without a valid token and its status tests fail (no credential is logged).
 */
export function tokenPreRequestScript(): string[] {
  return `
// Bearer token for this request: client credentials at {{base_url}}/token, cached until it expires.
// The service's answer names the lifetime "expired_in" (not "expires_in"); both spellings are read.
const cachedUntil = Number(pm.environment.get('${TOKEN_EXPIRY_VARIABLE}') || 0);
if (!pm.environment.get('${TOKEN_VARIABLE}') || Date.now() >= cachedUntil) {
  pm.sendRequest({
    url: pm.variables.replaceIn('{{base_url}}/token'),
    method: 'POST',
    header: [
      { key: 'Content-Type', value: 'application/x-www-form-urlencoded' },
      { key: 'Accept', value: 'application/json' },
    ],
    body: {
      mode: 'urlencoded',
      urlencoded: [
        { key: 'grant_type', value: 'client_credentials' },
        { key: 'client_id', value: pm.variables.get('client_id') },
        { key: 'client_secret', value: pm.variables.get('client_secret') },
      ],
    },
  }, (error, response) => {
    const body = !error && response.code === 200 ? response.json() : {};
    const lifetime = Number(body.expired_in !== undefined ? body.expired_in : body.expires_in);
    if (!body.access_token || !Number.isFinite(lifetime)) {
      pm.environment.set('${TOKEN_VARIABLE}', '');
      pm.environment.set('${TOKEN_EXPIRY_VARIABLE}', '0');
      console.warn('No token from {{base_url}}/token: ' + (error ? error.message : 'status ' + response.code));
      return;
    }
    pm.environment.set('${TOKEN_VARIABLE}', body.access_token);
    pm.environment.set('${TOKEN_EXPIRY_VARIABLE}', String(Date.now() + Math.max(0, lifetime - ${TOKEN_RENEW_MARGIN_SECONDS}) * 1000));
  });
}
`
    .trim()
    .split('\n');
}

/** What the status tests of one request check, from its operation in the spec. */
export type StatusExpectation = {
  /** Every status the spec documents, codes and ranges (`4XX`). */
  documented: string[];
  /** The documented 2xx and 3xx statuses: what the request as the collection sends it must get. */
  success: string[];
  /** Top-level fields the success body must have (from the schema's `required`), or `array` for a list. */
  body?: { required: string[] } | 'array';
};

/** Test script of one request: the status is a documented one, and the documented success; the body has its shape. */
export function statusTestScript(expect: StatusExpectation, extra: string[] = []): string[] {
  const lines = [
    `const documented = ${JSON.stringify(expect.documented)};`,
    `const success = ${JSON.stringify(expect.success)};`,
    '// A status matches a code or its range (4XX).',
    "const matches = (list, code) => list.includes(String(code)) || list.includes(String(code)[0] + 'XX');",
    "pm.test('status ' + pm.response.code + ' is documented (' + documented.join(', ') + ')', () => {",
    '  pm.expect(matches(documented, pm.response.code), documented.join(", ")).to.equal(true);',
    '});',
    "pm.test('status is the documented success (' + success.join(', ') + ')', () => {",
    '  pm.expect(matches(success, pm.response.code), "got " + pm.response.code).to.equal(true);',
    '});',
  ];
  if (expect.body === 'array') {
    lines.push("pm.test('the body is a JSON array', () => pm.expect(pm.response.json()).to.be.an('array'));");
  } else if (expect.body && expect.body.required.length > 0) {
    lines.push(
      `pm.test('the body has ${expect.body.required.join(', ')}', () => {`,
      `  pm.expect(pm.response.json()).to.include.all.keys(${JSON.stringify(expect.body.required)});`,
      '});',
    );
  }
  return [...lines, ...extra];
}

/** Extra test of the service token request: the lifetime field is `expired_in` (seed 4.1), a number of seconds. */
export const EXPIRED_IN_TEST = [
  "pm.test('the lifetime is in expired_in (spelled that way), in seconds', () => {",
  "  pm.expect(pm.response.json().expired_in).to.be.a('number').and.above(0);",
  '});',
];
