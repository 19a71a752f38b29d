// The suite's own checker must be able to fail: responses that break the spec in each way are reported, and each is
// judged from the specs' x-assumption `covers`: a seed fact broken is a violation, a guess of the specs contradicted
// is a contradicted assumption. Pure checks of the conformance function on constructed responses; no target involved.
import { describe, expect, it } from 'vitest';
import { checkResponse, inspectResponse, type ObservedResponse } from '../judge/conformance.ts';
import { operationById } from '../model/spec.ts';
import { verdictOf } from '../judge/verdicts.ts';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers: new Headers({ 'content-type': 'application/json', ...headers }),
  bodyText: typeof body === 'string' ? body : JSON.stringify(body),
});
const text = (status: number, body: string, type = 'text/plain') => ({
  status,
  headers: new Headers({ 'content-type': type }),
  bodyText: body,
});
/** RFC 6749 5.1's headers of every token answer. */
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };
const vehicle = {
  customerNumber: 'C-1',
  vehicleNumber: 'V-1',
  vin: 'VIN1',
  customerVehicleNumber: 'T-1',
  licensePlate: 'P-1',
  domicileLocationNumber: '01',
  domicileLocationName: 'X',
  vehicleType: 'TRACTOR',
};

const judge = (operationId: string, response: ObservedResponse) => {
  const operation = operationById(operationId);
  return verdictOf(operation.api, inspectResponse(operation, response));
};

describe('conformance checker', () => {
  it('accepts a conforming response, extra fields included', () => {
    expect(checkResponse(operationById('listVehicles'), json(200, [{ ...vehicle, extra: 1 }]))).toEqual([]);
    expect(
      checkResponse(
        operationById('requestServiceToken'),
        json(200, { access_token: 't', token_type: 'Bearer', expired_in: 3600 }, NO_STORE),
      ),
    ).toEqual([]);
  });

  it('accepts a client error the seed leaves open (the 4XX range), as JSON, as a problem document or empty', () => {
    expect(checkResponse(operationById('recordLoadMilestoneEvent'), json(422, { message: 'bad' }))).toEqual([]);
    const problem = {
      status: 415,
      headers: new Headers({ 'content-type': 'application/problem+json' }),
      bodyText: '{"title":"Unsupported"}',
    };
    expect(checkResponse(operationById('listVehicles'), problem)).toEqual([]);
    expect(checkResponse(operationById('getVehicle'), { status: 409, headers: new Headers(), bodyText: '' })).toEqual([]);
  });

  it.for([
    ['a 5xx', 'listVehicles', json(500, {}), /5xx/],
    ['an undocumented status', 'listVehicles', json(201, [vehicle]), /not documented/],
    ['an undocumented redirect', 'getVehicle', json(307, {}), /not documented/],
    [
      'a wrong content type',
      'listVehicles',
      { ...json(200, [vehicle]), headers: new Headers({ 'content-type': 'text/plain' }) },
      /content type/,
    ],
    ['a body that is not JSON', 'listVehicles', json(200, '[{'), /not valid JSON/],
    ['a missing required field', 'getVehicle', json(200, { ...vehicle, vin: undefined }), /vin/],
    [
      'expires_in instead of expired_in',
      'requestServiceToken',
      json(200, { access_token: 't', token_type: 'Bearer', expires_in: 3600 }),
      /expired_in/,
    ],
    ['an empty success body', 'recordLoadMilestoneEvent', { status: 200, headers: new Headers(), bodyText: '' }, /empty body/],
    ['a redirect without Location', 'requestAuthorization', { status: 302, headers: new Headers(), bodyText: '' }, /Location/],
    ['a non-integer Retry-After', 'listVehicles', json(429, {}, { 'retry-after': 'soon' }), /Retry-After/],
  ] as const)('reports %s', ([, operationId, response, expected]) => {
    const problems = checkResponse(operationById(operationId), response);
    expect(problems.join('\n')).toMatch(expected);
  });
});

describe('verdicts from the specs', () => {
  // Seed facts, RFC rules the flows rely on, and anything a 5xx: violations even where an assumption sits nearby.
  it.for([
    ['any 5xx, whatever its body', 'getVehicle', json(503, { message: 'down' })],
    ['a vehicle without one of the eight fields of seed 2.1', 'getVehicle', json(200, { ...vehicle, vin: undefined })],
    [
      "expires_in instead of the seed's expired_in",
      'requestServiceToken',
      json(200, { access_token: 't', token_type: 'Bearer', expires_in: 3600 }),
    ],
    ['a redirect without Location (RFC 6749 4.1.2)', 'requestAuthorization', { status: 302, headers: new Headers(), bodyText: '' }],
    ['a success status the list does not document', 'listVehicles', json(201, [vehicle])],
    ['a list labelled JSON that is not JSON at all', 'listVehicles', text(200, 'vehicles: none', 'application/json')],
    // RFC 6749 5.1 and 5.2, which the seed's OAuth 2.0 flows rely on: facts, where the specs' guesses were before.
    ['a token error without the RFC 6749 error field', 'requestServiceToken', json(401, { message: 'bad secret' })],
    [
      'a token answer without Cache-Control: no-store',
      'requestServiceToken',
      json(200, { access_token: 't', token_type: 'Bearer', expired_in: 3600 }, { pragma: 'no-cache' }),
    ],
    ['an identity provider token without token_type', 'requestIdentityProviderToken', json(200, { access_token: 't' }, NO_STORE)],
  ] as const)('%s is a violation', ([, operationId, response]) => {
    const verdict = judge(operationId, response);
    expect(verdict.violations.length, verdict.violations.join('\n')).toBeGreaterThan(0);
  });

  it.for([
    [
      'a vehicle field that is a number instead of a string',
      'getVehicle',
      json(200, { ...vehicle, domicileLocationNumber: 412 }),
      'is a string',
    ],
    ['a wrapper object instead of a bare array', 'listVehicles', json(200, { items: [vehicle] }), 'bare JSON array'],
    // The seed shows no format for the fleet's answers: another one, under its own content type, is the spec's guess.
    [
      'a list in another format under its own content type',
      'listVehicles',
      text(200, 'vehicles: none'),
      'is sent as JSON, with the content type',
    ],
    [
      'a refused authorization as 400 text/plain, not an HTML page',
      'requestAuthorization',
      text(400, 'redirect_uri not registered'),
      'HTML error page',
    ],
    ['a recorded milestone confirmed with 201 instead of 200', 'recordLoadMilestoneEvent', json(201, { message: 'ok' }), 'Success is 200'],
    ['a confirmation without a message', 'recordLoadMilestoneEvent', json(200, { status: 'ok' }), 'Success is 200'],
    ['a fleet error that is plain text', 'getVehicle', text(404, 'Not Found'), 'application/problem+json'],
    ['a fleet error body that is a JSON string', 'getVehicle', json(404, '"not found"'), 'JSON objects'],
    // Either error body of the identity provider's 401 fits: one that fits neither is the gateway's guessed shape, missed.
    [
      'an identity provider error that fits neither error body',
      'requestIdentityProviderToken',
      json(401, '"denied"'),
      'gateway rejections',
    ],
    [
      'an identity provider token living longer than an hour',
      'requestIdentityProviderToken',
      json(200, { access_token: 't', token_type: 'Bearer', expires_in: 7200 }, NO_STORE),
      'expires_in',
    ],
  ] as const)('%s contradicts an assumption, and is no violation', ([, operationId, response, assumed]) => {
    const verdict = judge(operationId, response);
    expect(verdict.violations).toEqual([]);
    expect(verdict.contradictions.map((c) => c.assumption.what).join('\n')).toContain(assumed);
  });

  it('a vehicle missing a field and with a number field gives both verdicts', () => {
    const verdict = judge('getVehicle', json(200, { ...vehicle, vin: undefined, licensePlate: 7 }));
    expect(verdict.violations.join('\n')).toMatch(/vin/);
    expect(verdict.contradictions.map((c) => c.problems.join()).join()).toMatch(/licensePlate/);
  });

  it('a conforming response confirms the assumptions it showed, and only those', () => {
    const withVehicles = judge('listVehicles', json(200, [vehicle])).confirmed.map((a) => a.what);
    expect(withVehicles.some((w) => w.includes('bare JSON array'))).toBe(true);
    expect(withVehicles.some((w) => w.includes('is a string'))).toBe(true);
    // An empty list shows the list's shape but no vehicle field.
    const empty = judge('listVehicles', json(200, [])).confirmed.map((a) => a.what);
    expect(empty.some((w) => w.includes('bare JSON array'))).toBe(true);
    expect(empty.some((w) => w.includes('is a string'))).toBe(false);
    // The authorize page confirms the authorize guess, not the JSON error bodies of the other APIs.
    const page = judge('requestAuthorization', text(400, '<p>no</p>', 'text/html')).confirmed.map((a) => a.what);
    expect(page.some((w) => w.includes('HTML error page'))).toBe(true);
    expect(page.some((w) => w.includes('application/problem+json'))).toBe(false);
  });
});
