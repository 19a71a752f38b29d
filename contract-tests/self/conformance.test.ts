// The suite's own checker must be able to fail: responses that break the spec in each way are reported.
// Pure checks of the conformance function on constructed responses; no target involved.
import { describe, expect, it } from 'vitest';
import { checkResponse } from '../support/conformance.ts';
import { operationById } from '../support/spec.ts';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers: new Headers({ 'content-type': 'application/json', ...headers }),
  bodyText: typeof body === 'string' ? body : JSON.stringify(body),
});
const vehicle = { customerNumber: 'C-1', vehicleNumber: 'V-1', vin: 'VIN1', customerVehicleNumber: 'T-1', licensePlate: 'P-1', domicileLocationNumber: '01', domicileLocationName: 'X', vehicleType: 'TRACTOR' };

describe('conformance checker', () => {
  it('accepts a conforming response, extra fields included', () => {
    expect(checkResponse(operationById('listVehicles'), json(200, [{ ...vehicle, extra: 1 }]))).toEqual([]);
    expect(checkResponse(operationById('requestServiceToken'), json(200, { access_token: 't', token_type: 'Bearer', expired_in: 3600 }))).toEqual([]);
  });

  it('accepts a client error the seed leaves open (the 4XX range), as JSON, as a problem document or empty', () => {
    expect(checkResponse(operationById('recordLoadMilestoneEvent'), json(422, { message: 'bad' }))).toEqual([]);
    const problem = { status: 415, headers: new Headers({ 'content-type': 'application/problem+json' }), bodyText: '{"title":"Unsupported"}' };
    expect(checkResponse(operationById('listVehicles'), problem)).toEqual([]);
    expect(checkResponse(operationById('getVehicle'), { status: 409, headers: new Headers(), bodyText: '' })).toEqual([]);
  });

  it.for([
    ['a 5xx', 'listVehicles', json(500, {}), /5xx/],
    ['an undocumented status', 'listVehicles', json(201, [vehicle]), /not documented/],
    ['an undocumented redirect', 'getVehicle', json(307, {}), /not documented/],
    ['a wrong content type', 'listVehicles', { ...json(200, [vehicle]), headers: new Headers({ 'content-type': 'text/plain' }) }, /content type/],
    ['a body that is not JSON', 'listVehicles', json(200, '[{'), /not valid JSON/],
    ['a missing required field', 'getVehicle', json(200, { ...vehicle, vin: undefined }), /vin/],
    ['expires_in instead of expired_in', 'requestServiceToken', json(200, { access_token: 't', token_type: 'Bearer', expires_in: 3600 }), /expired_in/],
    ['an empty success body', 'recordLoadMilestoneEvent', { status: 200, headers: new Headers(), bodyText: '' }, /empty body/],
    ['a redirect without Location', 'requestAuthorization', { status: 302, headers: new Headers(), bodyText: '' }, /Location/],
    ['a non-integer Retry-After', 'listVehicles', json(429, {}, { 'retry-after': 'soon' }), /Retry-After/],
  ] as const)('reports %s', ([, operationId, response, expected]) => {
    const problems = checkResponse(operationById(operationId), response);
    expect(problems.join('\n')).toMatch(expected);
  });
});
