// Redirects: credentials never leave the origin they were configured for. Two loopback servers on two ports are two
// origins; the configured one answers a redirect to the other, which would accept anything (as an attacker's host would)
// and records what reaches it. Every API and both token endpoints, for every redirect status.
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import {
  ApiError,
  createCarriersClient,
  createFleetClient,
  createLogisticsClient,
  createTokenProvider,
  exchangeAuthorizationCode,
} from '../../src/index.ts';
import { sendJson, startLoopbackServer, VEHICLE, type Handler, type LoopbackServer } from './loopback-server.ts';
import { expectNoCredentials } from './no-credentials.ts';

const CLIENT_SECRET = 'client-secret-DO-NOT-PRINT-1234';
const SUBSCRIPTION_KEY = 'subscription-key-DO-NOT-PRINT-5678';
const FLEET_API_KEY = 'fleet-api-key-DO-NOT-PRINT-9012';
const HOME_TOKEN = 'home-token-DO-NOT-PRINT-3456';
const FOREIGN_TOKEN = 'foreign-token-from-the-other-host';
const CODE = 'authorization-code-DO-NOT-PRINT-7890';
const CREDENTIALS = [CLIENT_SECRET, SUBSCRIPTION_KEY, FLEET_API_KEY, HOME_TOKEN, CODE];
const EVENT = { load_id: 'L-1', milestone_type: 'PICKED_UP', event_time: '2024-05-01T12:00:00Z' };
const MILESTONES = '/v1/load-milestone-events';
const REDIRECT_STATUSES = [301, 302, 303, 307, 308] as const;

const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(handler: Handler): Promise<LoopbackServer> {
  const server = await startLoopbackServer(handler);
  servers.push(server);
  return server;
}

/** The other origin: says yes to everything, hands out its own token, and records every request that reaches it. */
const startElsewhere = () =>
  start((request, response) => {
    if (request.url.endsWith('/token'))
      return sendJson(response, 200, { access_token: FOREIGN_TOKEN, token_type: 'Bearer', expired_in: 3600, expires_in: 3600 });
    sendJson(response, 200, request.url.includes('/vehicles') ? [VEHICLE] : { message: 'recorded' });
  });

function redirect(response: ServerResponse, status: number, location: string): void {
  response.writeHead(status, { location, 'content-type': 'text/plain' }).end('moved');
}

async function failureOf(call: Promise<unknown>): Promise<ApiError> {
  const outcome = await call.catch((error: unknown) => error);
  expect(outcome, 'the call fails instead of reporting the redirect target as the answer').toBeInstanceOf(ApiError);
  return outcome as ApiError;
}

function expectRedirectError(error: ApiError, status: number, to: LoopbackServer, operation: string): void {
  expect(error.kind).toBe('redirect');
  expect(error.status).toBe(status);
  expect(error.operation).toBe(operation);
  expect(error.message).toContain(new URL(to.origin).host);
  expectNoCredentials(error, CREDENTIALS);
}

describe.each(REDIRECT_STATUSES)('a %i redirect to another origin is not followed', (status) => {
  it('fleet GET: the API-Key stays home', async () => {
    const elsewhere = await startElsewhere();
    const home = await start((request, response) => redirect(response, status, `${elsewhere.origin}${request.url}`));
    const fleet = createFleetClient({ baseUrl: home.origin, fleetApiKey: FLEET_API_KEY });
    expectRedirectError(await failureOf(fleet.GET('/vehicles')), status, elsewhere, 'GET /vehicles');
    expect(elsewhere.requests).toHaveLength(0);
    expect(home.requests, 'a redirect is not retried').toHaveLength(1);
  });

  it('carriers milestone POST: not reported as recorded; the token and subscription key stay home', async () => {
    const elsewhere = await startElsewhere();
    const home = await start((request, response) => {
      if (request.url.endsWith('/token'))
        return sendJson(response, 200, { access_token: HOME_TOKEN, token_type: 'Bearer', expired_in: 3600 });
      redirect(response, status, `${elsewhere.origin}${request.url}`);
    });
    const carriers = createCarriersClient({
      baseUrl: home.origin,
      clientId: 'app',
      clientSecret: CLIENT_SECRET,
      subscriptionKey: SUBSCRIPTION_KEY,
      retry: { retryNonIdempotent: true },
    });
    expectRedirectError(await failureOf(carriers.POST(MILESTONES, { body: EVENT })), status, elsewhere, `POST ${MILESTONES}`);
    expect(elsewhere.requests).toHaveLength(0);
    expect(home.requests.filter((r) => r.url === MILESTONES)).toHaveLength(1);
  });

  it("service token: the client secret stays home, and the other host's token is never cached or used", async () => {
    const elsewhere = await startElsewhere();
    let tokenCalls = 0;
    const home = await start((request, response) => {
      if (!request.url.endsWith('/token')) return sendJson(response, 200, { message: 'recorded' });
      tokenCalls += 1;
      if (tokenCalls === 1) return redirect(response, status, `${elsewhere.origin}/token`);
      sendJson(response, 200, { access_token: HOME_TOKEN, token_type: 'Bearer', expired_in: 3600 });
    });
    const lp = createLogisticsClient({
      baseUrl: home.origin,
      clientId: 'app',
      clientSecret: CLIENT_SECRET,
      subscriptionKey: SUBSCRIPTION_KEY,
      retry: { attempts: 1 },
    });
    expectRedirectError(await failureOf(lp.carriers.POST(MILESTONES, { body: EVENT })), status, elsewhere, 'POST /token');
    expect(elsewhere.requests).toHaveLength(0);
    expect(
      home.requests.filter((r) => r.url === MILESTONES),
      'no milestone is sent without a token from home',
    ).toHaveLength(0);
    // The next call asks home again and uses home's token.
    const { data } = await lp.carriers.POST(MILESTONES, { body: EVENT });
    expect(data).toEqual({ message: 'recorded' });
    expect(home.requests.filter((r) => r.url === MILESTONES).map((r) => r.headers.authorization)).toEqual([`Bearer ${HOME_TOKEN}`]);
  });

  it('identity-provider token: the client secret and subscription key stay home', async () => {
    const elsewhere = await startElsewhere();
    const home = await start((request, response) => redirect(response, status, `${elsewhere.origin}${request.url}`));
    const provider = createTokenProvider({
      tokenEndpoint: 'identity-provider',
      authUrl: home.origin,
      clientId: 'app',
      clientSecret: CLIENT_SECRET,
      scope: 'carriers.milestones',
      subscriptionKey: SUBSCRIPTION_KEY,
    });
    expectRedirectError(await failureOf(provider.getToken()), status, elsewhere, 'POST /oauth2/default/v1/token');
    expect(elsewhere.requests).toHaveLength(0);
    expect(home.requests, 'a redirect is not retried').toHaveLength(1);
  });

  it('identity-provider code exchange: the code, client secret and subscription key stay home', async () => {
    const elsewhere = await startElsewhere();
    const home = await start((request, response) => redirect(response, status, `${elsewhere.origin}${request.url}`));
    const exchange = exchangeAuthorizationCode({
      authUrl: home.origin,
      clientId: 'app',
      clientSecret: CLIENT_SECRET,
      subscriptionKey: SUBSCRIPTION_KEY,
      code: CODE,
      redirectUri: 'http://127.0.0.1:9/callback',
    });
    expectRedirectError(await failureOf(exchange), status, elsewhere, 'POST /oauth2/default/v1/token');
    expect(elsewhere.requests).toHaveLength(0);
  });
});

describe('redirects within the configured origin', () => {
  it('a milestone POST answered 302 is an error, never an event reported as recorded', async () => {
    const home = await start((request, response) => {
      if (request.url.endsWith('/token'))
        return sendJson(response, 200, { access_token: HOME_TOKEN, token_type: 'Bearer', expired_in: 3600 });
      if (request.url === MILESTONES) return redirect(response, 302, '/done');
      sendJson(response, 200, { message: 'recorded' });
    });
    const carriers = createCarriersClient({ baseUrl: home.origin, clientId: 'app', clientSecret: CLIENT_SECRET });
    const error = await failureOf(carriers.POST(MILESTONES, { body: EVENT }));
    expectRedirectError(error, 302, home, `POST ${MILESTONES}`);
    expect(home.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /token', `POST ${MILESTONES}`]);
  });

  it('the error names the Location host only: a credential in the Location URL is not shown', async () => {
    const home = await start((_request, response) =>
      redirect(response, 307, `http://user:${FLEET_API_KEY}@elsewhere.invalid:8443/x?code=${CODE}#${HOME_TOKEN}`),
    );
    const fleet = createFleetClient({ baseUrl: home.origin, fleetApiKey: FLEET_API_KEY });
    const error = await failureOf(fleet.GET('/vehicles'));
    expect(error.kind).toBe('redirect');
    expect(error.message).toContain('elsewhere.invalid:8443');
    expect(error.redirectHost).toBe('elsewhere.invalid:8443');
    expectNoCredentials(error, CREDENTIALS);
  });
});
