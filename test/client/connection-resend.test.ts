// The re-send on a new connection with a fetch of the caller's: the client cannot open a new connection itself, so the
// re-send goes through the caller's fetch, which may hand it another kept-alive connection the server closed. A request
// the server never saw is sent once more, and only once (RFC 9112 section 9.3.1). A real loopback server that closes
// every connection that comes back for a second request.
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connections, sharedConnections } from '../../src/connections.ts';
import { ApiError, createFleetClient } from '../../src/index.ts';
import { dropConnection, sendJson, startLoopbackServer, VEHICLE, type LoopbackServer } from './loopback-server.ts';
import { DIRECT, untilConnectionsFree } from './pools.ts';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Answers the first request of each connection, and closes one that comes back for a second. */
function closingReusedConnections(): Promise<LoopbackServer> {
  const served = new WeakMap<Socket, number>();
  return startLoopbackServer((_request, response) => {
    const socket = response.socket!;
    const n = (served.get(socket) ?? 0) + 1;
    served.set(socket, n);
    if (n > 1) return dropConnection(response);
    sendJson(response, 200, [VEHICLE]);
  });
}

describe("the re-send on a new connection, through a fetch of the caller's", () => {
  it('sends a call once more, and not again when that send meets a second closed connection', async () => {
    server = await closingReusedConnections();
    // A fetch that spreads its requests over two pools of kept-alive connections, in turn.
    const pools = [connections({}, DIRECT).pooled, connections({}, DIRECT).pooled];
    let sent = 0;
    const fetch = (input: Request | string, init?: RequestInit) =>
      globalThis.fetch(input, { ...init, dispatcher: pools[sent++ % 2] } as RequestInit);
    const fleet = createFleetClient({ baseUrl: server.origin, fleetApiKey: 'fleet-key', fetch, retry: { attempts: 1 } });
    // One connection kept alive in each pool.
    await fleet.GET('/vehicles');
    await fleet.GET('/vehicles');
    for (const pool of pools) await untilConnectionsFree(pool, server.origin);
    const error = await fleet.GET('/vehicles').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('network');
    expect((error as ApiError).attempts).toBe(2);
    expect(sent).toBe(4);
  });
});

describe('a server that announces a short keep-alive timeout', () => {
  it('has its connection reused within that timeout less a second (undici alone would open one per call)', async () => {
    const sockets = new Set<Socket>();
    server = await startLoopbackServer((_request, response) => {
      sockets.add(response.socket!);
      // Announced as Node's keepAliveTimeout of 2 s would be, as some gateways announce theirs.
      response.writeHead(200, { 'content-type': 'application/json', 'keep-alive': 'timeout=2' }).end(JSON.stringify([VEHICLE]));
    });
    const fleet = createFleetClient({ baseUrl: server.origin, fleetApiKey: 'fleet-key' });
    for (let call = 0; call < 3; call++) {
      expect((await fleet.GET('/vehicles')).data).toEqual([VEHICLE]);
      // undici frees the connection a turn after the answer: a call sent at once would open another.
      await untilConnectionsFree(sharedConnections().pooled, server.origin);
    }
    expect(sockets.size).toBe(1);
  });
});
