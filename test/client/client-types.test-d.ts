// Type tests of the public surface: responses are typed by the generated specs, wrong paths, params and bodies do not compile.
import { describe, expectTypeOf, it } from 'vitest';
import { createLogisticsClient, type ApiError } from '../../src/index.ts';
import type { components as FleetComponents } from '../../src/fleet.ts';
import type { components as CarriersComponents } from '../../src/carriers.ts';

const lp = createLogisticsClient({ baseUrl: 'http://127.0.0.1:1', fleetBaseUrl: 'http://127.0.0.1:1', fleetApiKey: 'k', clientId: 'c', clientSecret: 's' });

describe('client types', () => {
  it('types responses from the specs', async () => {
    const vehicles = await lp.fleet.GET('/vehicles', { params: { query: { vin: ['1FUJ'], sort: 'vehicleNumber asc' } } });
    expectTypeOf(vehicles.data).toEqualTypeOf<FleetComponents['schemas']['Vehicle'][] | undefined>();
    const one = await lp.fleet.GET('/vehicles/{vehicleNumber}', { params: { path: { vehicleNumber: 'V-1004' } } });
    expectTypeOf(one.data).toEqualTypeOf<FleetComponents['schemas']['Vehicle'] | undefined>();
    const milestone = await lp.carriers.POST('/v1/load-milestone-events', { body: { load_id: 'L', milestone_type: 'PICKED_UP', event_time: '2024-01-01T00:00:00Z' } });
    expectTypeOf(milestone.data).toEqualTypeOf<CarriersComponents['schemas']['LoadMilestoneEventConfirmation'] | undefined>();
    const token = await lp.token.POST('/token', { body: { grant_type: 'client_credentials', client_id: 'c', client_secret: 's' } });
    expectTypeOf(token.data?.expired_in).toEqualTypeOf<number | undefined>();
    const idp = await lp.token.POST('/oauth2/default/v1/token', { body: { grant_type: 'client_credentials', client_id: 'c', client_secret: 's', scope: 'x' } });
    expectTypeOf(idp.data?.expires_in).toEqualTypeOf<number | undefined>();
    expectTypeOf<ApiError['status']>().toEqualTypeOf<number>();
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
