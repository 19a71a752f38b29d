// Type tests of the public surface: responses are typed by the generated specs (a result is a success: every other
// outcome throws ApiError, so `data` is never optional), wrong paths, params, values and keys do not compile.
import { describe, expectTypeOf, it } from 'vitest';
import { createLogisticsClient, type ApiError } from '../../src/index.ts';
import type { components as FleetComponents } from '../../src/fleet.ts';
import type { components as CarriersComponents } from '../../src/carriers.ts';

const lp = createLogisticsClient({
  baseUrl: 'http://127.0.0.1:1',
  fleetBaseUrl: 'http://127.0.0.1:1',
  fleetApiKey: 'k',
  clientId: 'c',
  clientSecret: 's',
});

describe('client types', () => {
  it('types responses from the specs', async () => {
    const vehicles = await lp.fleet.GET('/vehicles', { params: { query: { vin: ['1FUJ'], sort: 'vehicleNumber asc' } } });
    expectTypeOf(vehicles.data).toEqualTypeOf<FleetComponents['schemas']['Vehicle'][]>();
    expectTypeOf(vehicles).not.toHaveProperty('error');
    const one = await lp.fleet.GET('/vehicles/{vehicleNumber}', { params: { path: { vehicleNumber: 'V-1004' } } });
    expectTypeOf(one.data).toEqualTypeOf<FleetComponents['schemas']['Vehicle']>();
    const milestone = await lp.carriers.POST('/v1/load-milestone-events', {
      body: { load_id: 'L', milestone_type: 'PICKED_UP', event_time: '2024-01-01T00:00:00Z' },
    });
    expectTypeOf(milestone.data).toEqualTypeOf<CarriersComponents['schemas']['LoadMilestoneEventConfirmation']>();
    const token = await lp.token.POST('/token', { body: { grant_type: 'client_credentials', client_id: 'c', client_secret: 's' } });
    expectTypeOf(token.data.expired_in).toEqualTypeOf<number>();
    const idp = await lp.token.POST('/oauth2/default/v1/token', {
      body: { grant_type: 'client_credentials', client_id: 'c', client_secret: 's', scope: 'x' },
    });
    expectTypeOf(idp.data.access_token).toEqualTypeOf<string>();
    // RFC 6749 makes expires_in optional, and so does the spec.
    expectTypeOf(idp.data.expires_in).toEqualTypeOf<number | undefined>();
    // parseAs still picks how the body is read.
    const text = await lp.fleet.GET('/vehicles', { parseAs: 'text' });
    expectTypeOf(text.data).toEqualTypeOf<string>();
    const sameCall = await lp.fleet.request('get', '/vehicles/{vehicleNumber}', { params: { path: { vehicleNumber: 'V-1004' } } });
    expectTypeOf(sameCall.data).toEqualTypeOf<FleetComponents['schemas']['Vehicle']>();
    expectTypeOf<ApiError['status']>().toEqualTypeOf<number>();
  });

  it('rejects code that still treats a success body as optional', async () => {
    const { data } = await lp.fleet.GET('/vehicles/{vehicleNumber}', { params: { path: { vehicleNumber: 'V-1004' } } });
    // @ts-expect-error: data is the Vehicle, never undefined
    const missing: undefined = data;
    // @ts-expect-error: a result has no error branch (errors are thrown as ApiError)
    void (await lp.fleet.GET('/vehicles')).error;
    void missing;
  });

  it('accepts only the sort values and query keys the fleet spec enumerates', () => {
    void lp.fleet.GET('/vehicles', { params: { query: { licensePlate: ['7XYZ123'], sort: 'licensePlate desc' } } });
    // @ts-expect-error: an unknown query key, next to a valid sort
    void lp.fleet.GET('/vehicles', { params: { query: { sort: 'licensePlate desc', color: ['red'] } } });
    // @ts-expect-error: not a vehicle field
    void lp.fleet.GET('/vehicles', { params: { query: { sort: 'colour desc' } } });
    // @ts-expect-error: the direction is asc or desc
    void lp.fleet.GET('/vehicles', { params: { query: { sort: 'licensePlate descending' } } });
    // @ts-expect-error: the spelling of the filter is customervehicleNumber (lower-case v)
    void lp.fleet.GET('/vehicles', { params: { query: { customerVehicleNumber: ['C-1'] } } });
    // @ts-expect-error: an option openapi-fetch would let through unchecked
    void lp.fleet.GET('/vehicles', { params: {}, retries: 5 });
  });

  it('rejects wrong paths, params and bodies', () => {
    // @ts-expect-error: no such path
    void lp.fleet.GET('/vehicle');
    // @ts-expect-error: vin is a list of strings
    void lp.fleet.GET('/vehicles', { params: { query: { vin: 'one' } } });
    // @ts-expect-error: the path parameter is required
    void lp.fleet.GET('/vehicles/{vehicleNumber}', {});
    // @ts-expect-error: the fleet API is read-only
    void lp.fleet.POST('/vehicles', {});
    // @ts-expect-error: event_time is required
    void lp.carriers.POST('/v1/load-milestone-events', { body: { load_id: 'L', milestone_type: 'PICKED_UP' } });
    // @ts-expect-error: the service token endpoint takes no other grant
    void lp.token.POST('/token', { body: { grant_type: 'password', client_id: 'c', client_secret: 's' } });
    // @ts-expect-error: the service token response has no expires_in
    void ((t: Awaited<ReturnType<typeof lp.token.POST<'/token', { body: never }>>>) => t.data?.expires_in);
  });
});
