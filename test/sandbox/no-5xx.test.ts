// Robustness: requests of any shape (methods, paths, headers, bodies, query strings) get a
// 4xx or a success from the sandbox, never a 5xx. Generated with fast-check, bounded runs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaults } from './api-calls.ts';
import { startInProcess, useSandboxWithToken } from './sandbox-process.ts';

const shared = useSandboxWithToken();

const PATHS = [
  '/svc/token',
  '/svc/v1/load-milestone-events',
  '/idp/oauth2/default/v1/token',
  '/idp/oauth2/default/v1/authorize',
  '/fleet/vehicles',
  '/fleet/vehicles/V-000001',
  '/fleet/vehicles/',
  '/_sandbox/clock',
  '/_sandbox/health',
  '/_sandbox/load-milestone-events',
  '/token',
  '/vehicles',
  '/',
  '/svc',
  '/fleet/vehicles/V-000001/extra',
];
const QUERY_NAMES = [
  'customerNumber',
  'vehicleNumber',
  'vin',
  'customervehicleNumber',
  'licensePlate',
  'sort',
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'load_id',
  'x',
];
const FIELD_NAMES = [
  'grant_type',
  'client_id',
  'client_secret',
  'scope',
  'code',
  'redirect_uri',
  'code_verifier',
  'load_id',
  'milestone_type',
  'event_time',
  'advanceSeconds',
  'offsetSeconds',
];
const CONTENT_TYPES = [
  'application/json',
  'application/x-www-form-urlencoded',
  'text/plain',
  'application/xml',
  'multipart/form-data',
  'application/json; charset=utf-8',
  'application/merge-patch+json',
  '',
];

const value = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(1e300, -1e300, 2 ** 53, -0),
  fc.constantFrom(
    defaults.LP_CLIENT_ID,
    defaults.LP_CLIENT_SECRET,
    defaults.LP_REDIRECT_URI,
    'client_credentials',
    'authorization_code',
    '2026-11-22T14:30:00Z',
  ),
  fc.array(fc.string(), { maxLength: 3 }),
);
const body = fc.oneof(
  fc.dictionary(fc.constantFrom(...FIELD_NAMES), value).map((fields) => JSON.stringify(fields)),
  fc.dictionary(fc.constantFrom(...FIELD_NAMES), fc.string()).map((fields) => new URLSearchParams(fields).toString()),
  fc.json(),
  fc.string(),
  fc.constantFrom('{', '[', '{"a":', '\u0000', '%', '&&==&', 'null', '"str"', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}'),
);
const query = fc
  .array(
    fc.tuple(fc.constantFrom(...QUERY_NAMES), fc.oneof(fc.string(), fc.constantFrom('vin asc', 'nope desc', 'code', 'S256', '%', '%zz'))),
    { maxLength: 6 },
  )
  .map((pairs) => pairs.map(([name, given]) => `${name}=${given.includes('%') ? given : encodeURIComponent(given)}`).join('&'));
const request = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'),
  path: fc.oneof(
    fc.constantFrom(...PATHS),
    fc.string().map((s) => `/fleet/vehicles/${encodeURIComponent(s)}`),
  ),
  query,
  contentType: fc.constantFrom(...CONTENT_TYPES),
  authorization: fc.constantFrom(undefined, 'Bearer', 'Bearer ', 'Bearer x', 'Basic abc', 'valid'),
  apiKey: fc.constantFrom(undefined, '', 'nope', defaults.LP_FLEET_API_KEY),
  subscriptionKey: fc.constantFrom(undefined, '', 'nope', defaults.LP_SUBSCRIPTION_KEY),
  body,
});

/** The property: a generated request to `origin` is answered below 500. */
const answeredBelow500 = (origin: string) =>
  fc.asyncProperty(request, async (r) => {
    const headers: Record<string, string> = {};
    if (r.contentType) headers['content-type'] = r.contentType;
    if (r.authorization) headers.authorization = r.authorization === 'valid' ? `Bearer ${shared.token}` : r.authorization;
    if (r.apiKey !== undefined) headers['api-key'] = r.apiKey;
    if (r.subscriptionKey !== undefined) headers['ocp-apim-subscription-key'] = r.subscriptionKey;
    const hasBody = !['GET', 'HEAD'].includes(r.method);
    const response = await fetch(`${origin}${r.path}${r.query ? `?${r.query}` : ''}`, {
      method: r.method,
      headers,
      body: hasBody ? r.body : undefined,
      redirect: 'manual',
    });
    await response.arrayBuffer();
    expect(response.status, `${r.method} ${r.path}?${r.query}`).toBeLessThan(500);
  });

describe('no request of any shape produces a 5xx', () => {
  it('answers 300 generated requests with status < 500', async () => {
    await fc.assert(answeredBelow500(shared.sandbox.origin), { numRuns: 300, seed: 20261122, endOnFailure: true });
  });

  it('would notice a 5xx: the same check fails against the get-unknown-500 mutation', async () => {
    const broken = await startInProcess({ mutation: 'get-unknown-500' });
    try {
      const result = await fc.check(answeredBelow500(broken.origin), { numRuns: 300, seed: 20261122, endOnFailure: true });
      expect(result.failed).toBe(true);
    } finally {
      await broken.close();
    }
  });

  it('answers an oversized body with 413, not a crash', async () => {
    const response = await fetch(`${shared.sandbox.origin}/svc/v1/load-milestone-events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${shared.token}` },
      body: JSON.stringify({ load_id: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(response.status).toBe(413);
  });
});
