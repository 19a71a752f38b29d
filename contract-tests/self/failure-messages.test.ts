// A positive check the target refuses names the next step (the LP_* variables to check) and shows no stack trace into
// the client's sources. Against a loopback server that refuses everything; the client here uses plain fetch, since the
// loopback address is no operation of the spec.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFleetClient, createTokenProvider } from '../../src/index.ts';
import { CheckFailure, explained } from '../send/clients.ts';
import { workerRun } from '../support/worker-run.ts';

const { redactor } = workerRun();

let server: Server;
let base = '';
let status = 401;

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: 'invalid_client', message: 'Access denied' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function failureOf(call: () => Promise<unknown>): Promise<Error> {
  try {
    await call();
  } catch (error) {
    return error as Error;
  }
  throw new Error('the call did not fail');
}

describe('failure messages of refused positive checks', () => {
  it.for([
    [
      'the fleet list',
      'LP_FLEET_API_KEY',
      () =>
        explained(redactor, createFleetClient({ baseUrl: base, fleetApiKey: 'self-test-fleet-key', retry: { attempts: 1 } })).GET(
          '/vehicles',
        ),
    ],
    [
      'a service token',
      'LP_CLIENT_SECRET',
      () =>
        explained(
          redactor,
          createTokenProvider({ baseUrl: base, clientId: 'self-test', clientSecret: 'self-test-secret', retry: { attempts: 1 } }),
        ).getToken(),
    ],
    [
      'an identity provider token',
      'LP_SUBSCRIPTION_KEY',
      () =>
        explained(
          redactor,
          createTokenProvider({
            tokenEndpoint: 'identity-provider',
            authUrl: base,
            clientId: 'self-test',
            clientSecret: 'self-test-secret',
            scope: 's',
            subscriptionKey: 'self-test-key',
            retry: { attempts: 1 },
          }),
        ).getToken(),
    ],
  ] as const)('a 401 for %s names %s and has no stack into src/', async ([, variable, call]) => {
    status = 401;
    const error = await failureOf(call);
    expect(error).toBeInstanceOf(CheckFailure);
    expect(error.message).toContain('401');
    expect(error.message).toContain(variable);
    expect(error.stack ?? '').not.toMatch(/\/src\//);
  });

  it('a 403 says the credentials were accepted but not allowed', async () => {
    status = 403;
    const error = await failureOf(() =>
      explained(redactor, createFleetClient({ baseUrl: base, fleetApiKey: 'self-test-fleet-key', retry: { attempts: 1 } })).GET(
        '/vehicles',
      ),
    );
    expect(error.message).toMatch(/approved/);
    expect(error.stack ?? '').not.toMatch(/\/src\//);
  });
});
