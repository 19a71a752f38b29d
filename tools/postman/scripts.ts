// The JavaScript the collection runs inside Postman (and newman): fetching the service token, and the tests of each
// request. Written as source text, because Postman stores scripts as lines of code in the collection.

/** The collection's variable that holds the cached bearer token, and the one with its expiry (epoch milliseconds). */
export const TOKEN_VARIABLE = 'access_token';
export const TOKEN_EXPIRY_VARIABLE = 'access_token_expires_at';

/** Seconds before the announced expiry at which a cached token is no longer used. */
export const TOKEN_RENEW_MARGIN_SECONDS = 60;

/** The test a request that needs a bearer token fails with when the token request fails (it is then not sent). */
export const TOKEN_FAILURE_TEST = 'a bearer token from {{base_url}}/token';

/** Characters of the token endpoint's body quoted in that failure. */
export const TOKEN_FAILURE_BODY_CHARS = 300;

/**
 * Pre-request script of every request that needs a bearer token: a client credentials token from the service's
 * `{{base_url}}/token`, cached in the environment until shortly before it expires. The service names the lifetime
 * `expired_in` (not the usual `expires_in`); both are read. A failed fetch empties the cache and fails the request
 * instead of sending it without a token (the API's 401 would hide why): a failing test, TOKEN_FAILURE_TEST, whose
 * message is the token endpoint's answer (status and the start of the body, with the client secret and the subscription
 * key masked should the body echo them), and `pm.execution.skipRequest()`, which stops the request in Postman and
 * newman. Where that does not exist (an older Postman), the error is thrown instead.
 */
export function tokenPreRequestScript(): string[] {
  return `
// Bearer token for this request: client credentials at {{base_url}}/token, cached until it expires.
// The service's answer names the lifetime "expired_in" (not "expires_in"); both spellings are read.
// No token, no request: when the token request fails, this request fails with the token endpoint's answer and is not sent.
const cachedUntil = Number(pm.environment.get('${TOKEN_EXPIRY_VARIABLE}') || 0);
if (!pm.environment.get('${TOKEN_VARIABLE}') || Date.now() >= cachedUntil) {
  const tokenUrl = pm.variables.replaceIn('{{base_url}}/token');
  pm.sendRequest({
    url: tokenUrl,
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
    let body = {};
    try {
      body = !error && response.code === 200 ? response.json() || {} : {};
    } catch (notJson) {
      body = {};
    }
    const lifetime = Number(body.expired_in !== undefined ? body.expired_in : body.expires_in);
    if (body.access_token && Number.isFinite(lifetime)) {
      pm.environment.set('${TOKEN_VARIABLE}', body.access_token);
      pm.environment.set('${TOKEN_EXPIRY_VARIABLE}', String(Date.now() + Math.max(0, lifetime - ${TOKEN_RENEW_MARGIN_SECONDS}) * 1000));
      return;
    }
    pm.environment.set('${TOKEN_VARIABLE}', '');
    pm.environment.set('${TOKEN_EXPIRY_VARIABLE}', '0');
    let answer;
    if (error) {
      answer = error.message || String(error);
    } else {
      const text = response.text().replace(/\\s+/g, ' ').trim();
      const excerpt = text.length > ${TOKEN_FAILURE_BODY_CHARS} ? text.slice(0, ${TOKEN_FAILURE_BODY_CHARS}) + '...' : text;
      const why = response.code === 200 ? ' (no access_token and expired_in)' : '';
      answer = response.code + ' ' + response.status + why + (excerpt ? ': ' + excerpt : '');
    }
    // Never a credential in the message, should the answer echo one.
    for (const secret of [pm.variables.get('client_secret'), pm.variables.get('subscription_key')]) {
      if (secret && String(secret).length >= 4) answer = answer.split(String(secret)).join('***');
    }
    const message = 'No bearer token from ' + tokenUrl + ': ' + answer + '; the request was not sent.';
    console.error(message);
    pm.test('${TOKEN_FAILURE_TEST}', () => {
      throw new Error(message);
    });
    if (pm.execution && typeof pm.execution.skipRequest === 'function') pm.execution.skipRequest();
    else throw new Error(message);
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
