// Every error says what to do next, where the cause is known: an https:// URL at a plain http server (TLS), a server
// whose certificate Node does not trust, a host
// name that does not resolve (DNS), a refused connection, a timeout (which option to raise), and "after N attempts"
// when the client retried. Real loopback servers and sockets only; `.invalid` never resolves (RFC 6761), no network.
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, createCarriersClient, createFleetClient, createLogisticsClient } from '../../src/index.ts';
import { sendJson, startLoopbackServer, VEHICLE, type LoopbackServer } from './loopback-server.ts';
import { recordingSleep } from './recording-sleep.ts';

const FLEET_API_KEY = 'fleet-api-key-DO-NOT-PRINT-9012';
const CLIENT_SECRET = 'client-secret-DO-NOT-PRINT-1234';

let server: LoopbackServer | undefined;
let silent: { server: Server; sockets: Set<Socket> } | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const socket of silent?.sockets ?? []) socket.destroy();
  await new Promise<void>((resolve) => (silent ? silent.server.close(() => resolve()) : resolve()));
  silent = undefined;
});

/** The ApiError a call rejects with; fails the test when it resolves or rejects with anything else. */
async function apiError(call: Promise<unknown>): Promise<ApiError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

/** No credential in anything a caller may print or log. */
function expectNoCredential(error: ApiError): void {
  for (const text of [error.message, String(error), JSON.stringify(error), error.stack ?? '']) {
    expect(text).not.toContain(FLEET_API_KEY);
    expect(text).not.toContain(CLIENT_SECRET);
  }
}

/** A loopback port that was bound and closed again: nothing listens there. */
async function closedPort(): Promise<number> {
  const probe = createTcpServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('error hints', () => {
  it('an https:// URL at a plain http server: says TLS failed and to use http://, without OpenSSL internals', async () => {
    server = await startLoopbackServer((_request, response) => sendJson(response, 200, [VEHICLE]));
    const httpsUrl = server.origin.replace(/^http:/, 'https:');
    const { sleep } = recordingSleep();
    const lp = createLogisticsClient({ fleetBaseUrl: `${httpsUrl}/fleet`, fleetApiKey: FLEET_API_KEY, retry: { sleep } });
    const error = await apiError(lp.fleet.GET('/vehicles'));
    expect(error.kind).toBe('network');
    expect(error.attempts).toBe(3);
    const host = httpsUrl.replace(/^https:\/\//, '');
    expect(error.hint).toMatch(
      new RegExp(`^The TLS handshake with ${host} failed \\(ERR_SSL_[A-Z_]+\\): the server most likely speaks plain http`),
    );
    expect(error.hint).toContain('Use an http:// URL in "fleetBaseUrl"');
    expect(error.message).toMatch(/^GET \/vehicles failed: no response \(network error\) after 3 attempts: ERR_SSL_[A-Z_]+ \[https:/);
    expect(error.message.endsWith(error.hint!)).toBe(true);
    // OpenSSL's text (library, source file and line) is not in the message.
    expect(error.message).not.toMatch(/ssl3_|openssl|SSL routines|\.c:\d+/i);
    expect(server.requests).toEqual([]);
    expectNoCredential(error);
  });

  it('an https:// server with a certificate Node does not trust: names the host, the option and NODE_EXTRA_CA_CERTS', async () => {
    // A self-signed certificate for 127.0.0.1 (fixtures/, made for this test only: it guards nothing).
    const tls = createHttpsServer(
      {
        key: readFileSync(new URL('fixtures/self-signed-loopback.key', import.meta.url)),
        cert: readFileSync(new URL('fixtures/self-signed-loopback.crt', import.meta.url)),
      },
      (_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('[]'),
    );
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = tls.address() as AddressInfo;
      const { sleep } = recordingSleep();
      const fleet = createFleetClient({ baseUrl: `https://127.0.0.1:${port}/fleet`, fleetApiKey: FLEET_API_KEY, retry: { sleep } });
      const error = await apiError(fleet.GET('/vehicles'));
      expect(error.kind).toBe('network');
      expect(error.hint).toBe(
        `The TLS certificate of 127.0.0.1:${port} is not trusted (DEPTH_ZERO_SELF_SIGNED_CERT): it is signed by a CA Node does not know. If the server's CA is a private one (your partner's own, or a proxy that inspects TLS), give Node that CA's certificate when it starts: NODE_EXTRA_CA_CERTS=/path/to/ca.pem; otherwise check that "baseUrl" names the right host.`,
      );
      expectNoCredential(error);
    } finally {
      tls.closeAllConnections();
      await new Promise<void>((resolve) => tls.close(() => resolve()));
    }
  });

  it('a host name that does not resolve: names the host and the option to check (DNS)', async () => {
    const fleet = createFleetClient({ baseUrl: 'http://lp-fleet.invalid/api', fleetApiKey: FLEET_API_KEY, retry: { attempts: 1 } });
    const error = await apiError(fleet.GET('/vehicles'));
    expect(error.kind).toBe('network');
    expect(error.attempts).toBe(1);
    expect(error.message).not.toContain('after');
    // ENOTFOUND where a resolver answers; EAI_AGAIN on a machine with no resolver reachable at all.
    expect(error.message).toMatch(/: (ENOTFOUND|EAI_AGAIN): getaddrinfo (ENOTFOUND|EAI_AGAIN) lp-fleet\.invalid/);
    expect(error.hint).toMatch(
      /^The host name lp-fleet\.invalid does not resolve \(DNS\): check the host in "baseUrl" for a typo|^The DNS lookup of lp-fleet\.invalid failed for now \(EAI_AGAIN\)/,
    );
    expectNoCredential(error);
  });

  it('a refused connection after the retries: says how often it was sent, and what to check', async () => {
    const port = await closedPort();
    const { sleep, waits } = recordingSleep();
    const lp = createLogisticsClient({
      fleetBaseUrl: `http://127.0.0.1:${port}/fleet`,
      fleetApiKey: FLEET_API_KEY,
      retry: { attempts: 4, sleep },
    });
    const error = await apiError(lp.fleet.GET('/vehicles'));
    expect(waits).toHaveLength(3);
    expect(error.kind).toBe('network');
    expect(error.attempts).toBe(4);
    expect(error.message).toBe(
      `GET /vehicles failed: no response (network error) after 4 attempts: ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:${port} ` +
        `[http://127.0.0.1:${port}/fleet/vehicles]. Nothing accepts connections at 127.0.0.1:${port}: check that the server is running, ` +
        'and the host and port in "fleetBaseUrl".',
    );
    expect(error.toJSON()).toMatchObject({ kind: 'network', attempts: 4, hint: error.hint });
    expectNoCredential(error);
  });

  it('a refused token request names the option of its host (authUrl), and a write not retried says nothing of attempts', async () => {
    const port = await closedPort();
    const carriers = createCarriersClient({
      baseUrl: `http://127.0.0.1:${port}/svc`,
      clientId: 'app',
      clientSecret: CLIENT_SECRET,
      retry: { attempts: 1 },
    });
    const error = await apiError(
      carriers.POST('/v1/load-milestone-events', {
        body: { load_id: 'L-1', milestone_type: 'PICKED_UP', event_time: '2024-01-01T00:00:00Z' },
      }),
    );
    // The token request failed first: its error is the one the call rejects with.
    expect(error.operation).toBe('POST /token');
    expect(error.attempts).toBe(1);
    expect(error.hint).toBe(
      `Nothing accepts connections at 127.0.0.1:${port}: check that the server is running, and the host and port in "baseUrl".`,
    );
    expectNoCredential(error);

    const idp = createLogisticsClient({
      authUrl: `http://127.0.0.1:${port}/idp`,
      clientId: 'app',
      clientSecret: CLIENT_SECRET,
      tokenEndpoint: 'identity-provider',
      scope: 's',
      subscriptionKey: 'k',
      retry: { attempts: 1 },
    });
    expect((await apiError(idp.getToken())).hint).toContain('in "authUrl"');
  });

  it('a timeout names the option to raise (timeoutMs) with its value, and the attempts', async () => {
    // Accepts connections and never answers.
    const sockets = new Set<Socket>();
    silent = { server: createTcpServer((socket) => sockets.add(socket)), sockets };
    await new Promise<void>((resolve) => silent!.server.listen(0, '127.0.0.1', resolve));
    const { port } = silent.server.address() as AddressInfo;
    const { sleep } = recordingSleep();
    const fleet = createFleetClient({
      baseUrl: `http://127.0.0.1:${port}`,
      fleetApiKey: FLEET_API_KEY,
      timeoutMs: 100,
      retry: { attempts: 2, sleep },
    });
    const error = await apiError(fleet.GET('/vehicles'));
    expect(error.kind).toBe('timeout');
    expect(error.attempts).toBe(2);
    expect(error.message).toBe(
      `GET /vehicles timed out after 2 attempts [http://127.0.0.1:${port}/vehicles]. No answer within 100 ms (the option "timeoutMs", ` +
        'per attempt): raise it if the server is slow, or check that "baseUrl" names the right host.',
    );
    expectNoCredential(error);
  });

  it('an error status after the retries says how often it was sent, with the request id to quote', async () => {
    let sent = 0;
    server = await startLoopbackServer((_request, response) => {
      sent += 1;
      sendJson(response, 503, { message: 'busy' }, { 'x-request-id': `req-${sent}`, 'retry-after': '0' });
    });
    const fleet = createFleetClient({ baseUrl: server.origin, fleetApiKey: FLEET_API_KEY });
    const error = await apiError(fleet.GET('/vehicles'));
    expect(error.kind).toBe('http');
    expect(error.attempts).toBe(3);
    expect(error.requestIds).toEqual({ 'x-request-id': 'req-3' });
    expect(error.message).toBe(
      `GET /vehicles failed with status 503 after 3 attempts: busy [${server.origin}/vehicles] (x-request-id req-3)`,
    );
    expect(error.hint).toBeUndefined();
  });

  it('an answer on the first attempt: attempts 1, no hint where the cause is not known', async () => {
    server = await startLoopbackServer((_request, response) => sendJson(response, 404, { message: 'no such vehicle' }));
    const fleet = createFleetClient({ baseUrl: server.origin, fleetApiKey: FLEET_API_KEY });
    const error = await apiError(fleet.GET('/vehicles/{vehicleNumber}', { params: { path: { vehicleNumber: 'V-1' } } }));
    expect(error.attempts).toBe(1);
    expect(error.hint).toBeUndefined();
    expect(error.message).toBe(`GET /vehicles/{vehicleNumber} failed with status 404: no such vehicle [${server.origin}/vehicles/V-1]`);
    expect(error.toJSON()).not.toHaveProperty('hint');
  });
});
