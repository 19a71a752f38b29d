// Input limits and connection limits: over-long strings get a 4xx, stalled headers and bodies
// and silent connections are closed, connections are capped, and no credential reaches the log
// in any encoding, whichever way a client puts it in the URL.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aMilestone, authorize, fleetGet, postForm, recordMilestone } from './api-calls.ts';
import { startInProcess, startSandboxProcess, useSandboxWithToken, type RunningProcess } from './sandbox-process.ts';
import { testWaitMs } from '../../config/test-waits.ts';

describe('length limits (maxLength in the specs)', () => {
  const shared = useSandboxWithToken();

  const message = async (response: Response) => (await response.json()) as { message?: string; error_description?: string };

  it('refuses a load_id over 256 characters with 400 naming it, and takes one of exactly 256', async () => {
    const tooLong = await recordMilestone(shared.sandbox.origin, shared.token, { ...aMilestone, load_id: 'L'.repeat(257) });
    expect(tooLong.status).toBe(400);
    expect((await message(tooLong)).message).toMatch(/load_id must NOT have more than 256 characters/);
    expect((await recordMilestone(shared.sandbox.origin, shared.token, { ...aMilestone, load_id: 'L'.repeat(256) })).status).toBe(200);
  });

  it('refuses an over-long client_secret on the token endpoint with 400', async () => {
    const response = await postForm(`${shared.sandbox.origin}/svc/token`, {
      grant_type: 'client_credentials',
      client_id: 'sandbox-client',
      client_secret: 's'.repeat(513),
    });
    expect(response.status).toBe(400);
    expect((await message(response)).error_description).toMatch(/client_secret/);
  });

  it('redirects an over-long state with invalid_request, echoing it exactly (RFC 6749 4.1.2.1)', async () => {
    const state = 's'.repeat(1025);
    const response = await authorize(shared.sandbox.origin, { state });
    expect(response.status).toBe(302);
    const back = new URL(response.headers.get('location')!).searchParams;
    expect(back.get('error')).toBe('invalid_request');
    expect(back.get('state')).toBe(state);
  });

  it('refuses an over-long vehicle number and more than 100 filter values with 400', async () => {
    expect((await fleetGet(shared.sandbox.origin, `/vehicles/V-${'1'.repeat(70)}`)).status).toBe(400);
    const many = Array.from({ length: 101 }, (_, index) => `vin=${index}`).join('&');
    const response = await fleetGet(shared.sandbox.origin, `/vehicles?${many}`);
    expect(response.status).toBe(400);
    expect((await message(response)).message).toMatch(/vin must NOT have more than 100 items/);
  });
});

/**
 * Resolves with the milliseconds from `started` (taken before the connection was opened, so never later than the
 * server's own clock started) until the server closed the socket, and the bytes it sent meanwhile. Rejects after
 * testWaitMs(10 s): a bound that only says the server did not keep the socket open for good.
 */
function closedAfter(socket: Socket, started: number): Promise<{ ms: number; bytes: number }> {
  const limitMs = testWaitMs(10_000);
  let bytes = 0;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`socket still open after ${limitMs} ms`)), limitMs);
    socket.on('data', (chunk: Buffer) => (bytes += chunk.length)); // a 408 may come first
    socket.on('error', () => {});
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({ ms: Date.now() - started, bytes });
    });
  });
}

function open(port: number, text?: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      if (text !== undefined) socket.write(text);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/**
 * The status of a GET /_sandbox/health on a connection of its own, or 0 when the sandbox drops the connection
 * unanswered (over the cap). A raw socket, not fetch: undici may send a request again on a new connection when one
 * closes before it was written, and keep at it while the cap lasts.
 */
function healthStatus(port: number): Promise<number> {
  return new Promise((resolve) => {
    let answer = '';
    const socket = connect(port, '127.0.0.1', () => socket.write('GET /_sandbox/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('error', () => {});
    socket.once('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1] ?? 0)));
  });
}

// The three stalls wait out different timeouts on their own connections: they run side by side, so the file waits for
// the longest one (3 s) instead of the sum (6 s). Each still shows its own timeout applies: the connection lasts at
// least that long, counted from before it was opened.
describe.concurrent('stalled connections', () => {
  let sandbox: RunningProcess;
  let port: number;
  beforeAll(async () => {
    sandbox = await startSandboxProcess(['--headers-timeout', '1', '--request-timeout', '2', '--idle-timeout', '3', '--log-level', 'warn']);
    port = Number(new URL(sandbox.env.LP_BASE_URL!).port);
  });
  afterAll(() => sandbox?.stop());

  it('closes a connection whose headers stall', async ({ expect }) => {
    const started = Date.now();
    const socket = await open(port, 'GET /_sandbox/health HTTP/1.1\r\nHost: x\r\n');
    expect((await closedAfter(socket, started)).ms).toBeGreaterThanOrEqual(900);
  });

  it('closes a connection whose body stalls', async ({ expect }) => {
    const started = Date.now();
    const socket = await open(
      port,
      'POST /svc/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\ngrant_type',
    );
    expect((await closedAfter(socket, started)).ms).toBeGreaterThanOrEqual(1500);
  });

  it('closes a connection that sends nothing', async () => {
    const started = Date.now();
    await closedAfter(await open(port), started);
  });
});

describe('the connection cap', () => {
  // In this process, with the default timeouts (10 s and more), not the 1 s of the stalls' sandbox: the held connections
  // stay open while the test opens the one over the cap, even on a slow machine.
  it('closes one over the cap at once, unanswered, and the server serves again once they go', async () => {
    const sandbox = await startInProcess({ connections: { maxConnections: 4 } });
    try {
      const port = Number(new URL(sandbox.origin).port);
      const held = await Promise.all(Array.from({ length: 4 }, () => open(port, 'GET /_sandbox/health HTTP/1.1\r\nHost: x\r\n')));
      // A whole request: a server that took it in would answer it (and keep the connection for the next one).
      const extra = await open(port, 'GET /_sandbox/health HTTP/1.1\r\nHost: x\r\n\r\n');
      expect((await closedAfter(extra, Date.now())).bytes, 'bytes of an answer to the connection over the cap').toBe(0);
      for (const socket of held) socket.destroy();
      // The server counts the held connections gone once it has seen them close: until then it drops new ones.
      await expect.poll(() => healthStatus(port)).toBe(200);
    } finally {
      await sandbox.close();
    }
  });
});

describe('a client that stops reading', () => {
  it('has its connection closed after the idle timeout, in the middle of a long answer', async ({ expect }) => {
    // One connection at most: the sandbox answers another only once it has closed the one that stopped reading.
    const sandbox = await startSandboxProcess([
      '--vehicles',
      '100000',
      '--idle-timeout',
      '1',
      '--max-connections',
      '1',
      '--log-level',
      'warn',
    ]);
    try {
      const port = Number(new URL(sandbox.env.LP_BASE_URL!).port);
      // 60,000 vehicles (about 14 MB): more than the socket buffers take while nobody reads.
      const socket = await open(port, `GET /fleet/vehicles HTTP/1.1\r\nHost: x\r\nAPI-Key: ${sandbox.env.LP_FLEET_API_KEY}\r\n\r\n`);
      socket.pause();
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      await expect.poll(() => healthStatus(port), { message: 'the sandbox still holds the connection that stopped reading' }).toBe(200);
      socket.resume(); // drain what was buffered: the end comes early, since the server gave up
      let received = 0;
      socket.on('data', (chunk: Buffer) => (received += chunk.length));
      await closed;
      expect(received).toBeLessThan(14_000_000);
      expect(await healthStatus(port)).toBe(200);
    } finally {
      await sandbox.stop();
    }
  });
});
