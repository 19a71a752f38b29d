// How the client connects: through the proxy HTTPS_PROXY, HTTP_PROXY and NO_PROXY name (read as a partner's shell sets
// them, so in a child process of its own), over a dispatcher or fetch of the caller's when given one, and with one
// re-send on a new connection when a kept-alive connection turns out closed (or reset) before any byte of the answer. Real
// loopback servers, a forward proxy that is the only route to a host name no DNS knows, and a CA made for the run.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { MockAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ForwardProxy, startForwardProxy } from '../../contract-tests/fixtures/forward-proxy.ts';
import { makeTestCertificates, type TestCertificates } from '../../contract-tests/fixtures/test-certificates.ts';
import { repoRoot } from '../../spec-core/apis.ts';
import { sharedConnections } from '../../src/connections.ts';
import { ApiError, createFleetClient, createLogisticsClient } from '../../src/index.ts';
import { VEHICLE } from './loopback-server.ts';
import { untilConnectionsFree } from './pools.ts';

const FLEET_API_KEY = 'fleet-api-key-DO-NOT-PRINT-4711';
const CLIENT_SECRET = 'client-secret-DO-NOT-PRINT-4712';
const HOST = 'staging.partner.invalid';

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};
const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

describe('a kept-alive connection the server closed before any byte of the answer', () => {
  let server: Server;
  let origin = '';
  const seen: string[] = [];
  let connections = 0;

  beforeAll(async () => {
    const served = new WeakMap<Socket, number>();
    server = createServer((request, response) => {
      const n = (served.get(request.socket) ?? 0) + 1;
      served.set(request.socket, n);
      seen.push(`${request.method} ${request.url} #${n}`);
      request.resume();
      // The second request on a connection finds it closed, as a gateway's idle timeout would have it.
      if (n > 1) return void request.socket.destroy();
      const token = request.url?.endsWith('/token');
      response.writeHead(token ? 200 : 202, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify(token ? { access_token: 'issued-token', token_type: 'Bearer', expired_in: 3600 } : { message: 'recorded' }),
      );
    });
    server.on('connection', () => connections++);
    origin = `http://127.0.0.1:${await listen(server)}`;
  });
  afterAll(() => close(server));

  it('sends a milestone POST once more, on a new connection, though it is never retried otherwise', async () => {
    const lp = createLogisticsClient({ baseUrl: `${origin}/svc`, clientId: 'c', clientSecret: CLIENT_SECRET, retry: { attempts: 1 } });
    await lp.getToken();
    // undici frees the connection a turn after the answer: a call sent at once would open another.
    await untilConnectionsFree(sharedConnections().pooled, origin);
    const event = { load_id: 'L-1', milestone_type: 'PICKED_UP' as const, event_time: '2026-01-01T00:00:00Z' };
    const { data } = await lp.carriers.POST('/v1/load-milestone-events', { body: event });
    expect(data).toEqual({ message: 'recorded' });
    expect(seen).toEqual(['POST /svc/token #1', 'POST /svc/v1/load-milestone-events #2', 'POST /svc/v1/load-milestone-events #1']);
    expect(connections).toBe(2);
  });
});

describe('a call sent once more on a new connection', () => {
  it('counts that send among its attempts when it then fails', async () => {
    const served = new WeakMap<Socket, number>();
    let calls = 0;
    const server = createServer((request, response) => {
      const n = (served.get(request.socket) ?? 0) + 1;
      served.set(request.socket, n);
      request.resume();
      calls += 1;
      if (n > 1) return void request.socket.destroy();
      response.writeHead(calls === 1 ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify(calls === 1 ? [VEHICLE] : {}));
    });
    const origin = `http://127.0.0.1:${await listen(server)}`;
    try {
      const fleet = createFleetClient({ baseUrl: origin, fleetApiKey: FLEET_API_KEY, retry: { attempts: 1 } });
      await fleet.GET('/vehicles');
      // undici frees the connection a turn after the answer: a call sent at once would open another.
      await untilConnectionsFree(sharedConnections().pooled, origin);
      const error = await fleet.GET('/vehicles').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 503, attempts: 2 });
      expect((error as ApiError).message).toContain('after 2 attempts');
    } finally {
      await close(server);
    }
  });
});

describe('a kept-alive connection the server reset (RST) before any byte of the answer', () => {
  it('sends the call once more, on a new connection', async () => {
    const served = new WeakMap<Socket, number>();
    const seen: number[] = [];
    const server = createServer((request, response) => {
      const n = (served.get(request.socket) ?? 0) + 1;
      served.set(request.socket, n);
      seen.push(n);
      request.resume();
      if (n > 1) return void request.socket.resetAndDestroy();
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([VEHICLE]));
    });
    const origin = `http://127.0.0.1:${await listen(server)}`;
    try {
      const fleet = createFleetClient({ baseUrl: origin, fleetApiKey: FLEET_API_KEY, retry: { attempts: 1 } });
      await fleet.GET('/vehicles');
      // undici frees the connection a turn after the answer: a call sent at once would open another.
      await untilConnectionsFree(sharedConnections().pooled, origin);
      const { data } = await fleet.GET('/vehicles');
      expect(data).toEqual([VEHICLE]);
      expect(seen).toEqual([1, 2, 1]);
    } finally {
      await close(server);
    }
  });
});

describe("a dispatcher or a fetch of the caller's", () => {
  it('sends through the given dispatcher (here undici MockAgent: no server at all)', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent.get('https://fleet.partner.invalid').intercept({ path: '/api/vehicles', method: 'GET' }).reply(200, [VEHICLE]);
    const fleet = createFleetClient({ baseUrl: 'https://fleet.partner.invalid/api', fleetApiKey: FLEET_API_KEY, dispatcher: agent });
    const { data } = await fleet.GET('/vehicles');
    expect(data).toEqual([VEHICLE]);
    await agent.close();
  });

  it("hands the dispatcher to a fetch of the caller's, and nothing of its own to a fetch alone", async () => {
    const dispatchers: unknown[] = [];
    const fetch = async (_input: Request | string, init?: RequestInit) => {
      dispatchers.push((init as { dispatcher?: unknown } | undefined)?.dispatcher);
      return new Response(JSON.stringify([VEHICLE]), { headers: { 'content-type': 'application/json' } });
    };
    const agent = new MockAgent();
    await createFleetClient({ baseUrl: 'https://fleet.partner.invalid/api', fleetApiKey: FLEET_API_KEY, fetch, dispatcher: agent }).GET(
      '/vehicles',
    );
    await createFleetClient({ baseUrl: 'https://fleet.partner.invalid/api', fleetApiKey: FLEET_API_KEY, fetch }).GET('/vehicles');
    expect(dispatchers).toEqual([agent, undefined]);
    await agent.close();
  });
});

/** Runs a program against the package's sources in a new Node, with `env` on top of this one's (proxy variables dropped). */
function runProgram(program: string, env: Record<string, string>): Promise<{ code: number; output: string }> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(https?|no)_proxy$/i.test(name)));
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], {
    cwd: repoRoot,
    env: { ...base, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code: code ?? 1, output })));
}

/** Lists the vehicles at each base URL with the client built as the package README shows, printing one line each. */
const LIST_VEHICLES = `
import { ApiError, createFleetClient } from './src/index.ts';
for (const baseUrl of JSON.parse(process.env.BASE_URLS)) {
  try {
    const { data } = await createFleetClient({ baseUrl, fleetApiKey: process.env.LP_FLEET_API_KEY }).GET('/vehicles');
    console.log(\`\${new URL(baseUrl).protocol} \${data.length} vehicles\`);
  } catch (error) {
    console.log(error instanceof ApiError ? \`\${error.kind}: \${error.hint}\` : String(error));
  }
}`;

describe('HTTPS_PROXY, HTTP_PROXY and NO_PROXY: a proxy that is the only route to a host name no DNS knows', () => {
  let certificates: TestCertificates;
  let plain: Server;
  let secure: Server;
  let proxy: ForwardProxy;
  let guarded: ForwardProxy;
  let urls: string[] = [];

  beforeAll(async () => {
    certificates = makeTestCertificates([HOST]);
    const answer: Parameters<typeof createServer>[1] = (request, response) => {
      request.resume();
      const keyed = request.headers['api-key'] === FLEET_API_KEY;
      response.writeHead(keyed ? 200 : 401, { 'content-type': 'application/json' }).end(JSON.stringify(keyed ? [VEHICLE] : {}));
    };
    plain = createServer(answer);
    secure = createTlsServer({ key: certificates.key, cert: certificates.cert }, answer) as unknown as Server;
    const hosts = { [HOST]: '127.0.0.1' };
    [proxy, guarded] = await Promise.all([
      startForwardProxy({ hosts }),
      startForwardProxy({ hosts, credentials: { user: 'proxy-user', password: 'proxy-password' } }),
    ]);
    urls = [`http://${HOST}:${await listen(plain)}/fleet`, `https://${HOST}:${await listen(secure)}/fleet`];
  });
  afterAll(async () => {
    await Promise.all([close(plain), close(secure), proxy.close(), guarded.close()]);
    certificates.remove();
  });

  const partnerEnv = (proxyUrl: string) => ({
    HTTP_PROXY: proxyUrl,
    https_proxy: proxyUrl,
    NODE_EXTRA_CA_CERTS: certificates.caFile,
    LP_FLEET_API_KEY: FLEET_API_KEY,
    BASE_URLS: JSON.stringify(urls),
  });

  it('lists the vehicles over http and over https, each in a CONNECT tunnel: the proxy reads no request, sees no key', async () => {
    const run = await runProgram(LIST_VEHICLES, partnerEnv(proxy.origin));
    expect(run.output).toBe('http: 1 vehicles\nhttps: 1 vehicles\n');
    const log = proxy.log();
    expect(log.tunnels).toEqual(urls.map((url) => new URL(url).host));
    expect(log.forwarded).toEqual([]);
    expect(JSON.stringify(log)).not.toContain(FLEET_API_KEY);
  });

  it('a proxy that wants credentials: the hint says where they go; given them in the URL, it lists the vehicles', async () => {
    const refused = await runProgram(LIST_VEHICLES, partnerEnv(guarded.origin));
    expect(refused.output).toContain(
      `network: The proxy ${guarded.origin} wants credentials (407) to open a tunnel to ${new URL(urls[0]!).host}`,
    );
    const credentialed = guarded.origin.replace('//', '//proxy-user:proxy-password@');
    const run = await runProgram(LIST_VEHICLES, partnerEnv(credentialed));
    expect(run.output).toBe('http: 1 vehicles\nhttps: 1 vehicles\n');
    expect(run.output + refused.output).not.toContain('proxy-password');
  });

  it('NO_PROXY: a listed host goes direct (and here fails: only the proxy knows it), loopback always does', async () => {
    const run = await runProgram(LIST_VEHICLES, { ...partnerEnv(proxy.origin), NO_PROXY: 'partner.invalid' });
    expect(run.output).toMatch(
      /^network: The (host name staging\.partner\.invalid does not resolve|DNS lookup of staging\.partner\.invalid failed)/m,
    );
    const before = proxy.log().tunnels.length;
    const direct = await runProgram(LIST_VEHICLES, {
      ...partnerEnv(proxy.origin),
      BASE_URLS: JSON.stringify([`http://127.0.0.1:${(plain.address() as AddressInfo).port}/fleet`]),
    });
    expect(direct.output).toBe('http: 1 vehicles\n');
    expect(proxy.log().tunnels.length).toBe(before);
  });

  it('without a proxy the name does not resolve, and the error says how to set one', async () => {
    const fleet = createFleetClient({ baseUrl: urls[0], fleetApiKey: FLEET_API_KEY, retry: { attempts: 1 } });
    const error = await fleet.GET('/vehicles').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).hint).toMatch(/behind a proxy, set HTTPS_PROXY \(or HTTP_PROXY\)|EAI_AGAIN/);
  });
});
