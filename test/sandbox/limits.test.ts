// Input limits and connection limits: over-long strings get a 4xx, stalled headers and bodies
// and silent connections are closed, connections are capped, and no credential reaches the log
// in any encoding, whichever way a client puts it in the URL.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aMilestone, authorize, fleetGet, postForm, recordMilestone } from './api-calls.ts';
import { startSandboxProcess, useSandboxWithToken, type RunningProcess } from './sandbox-process.ts';
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

/** Resolves with the milliseconds until the server closed the socket (or rejects after limitMs). */
function closedWithin(socket: Socket, limitMs: number): Promise<number> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`socket still open after ${limitMs} ms`)), limitMs);
    socket.on('data', () => {}); // a 408 may come first
    socket.on('error', () => {});
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
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

describe('connection limits', () => {
  let sandbox: RunningProcess;
  let port: number;
  beforeAll(async () => {
    sandbox = await startSandboxProcess([
      '--headers-timeout',
      '1',
      '--request-timeout',
      '2',
      '--idle-timeout',
      '3',
      '--max-connections',
      '4',
      '--log-level',
      'warn',
    ]);
    port = Number(new URL(sandbox.env.LP_BASE_URL!).port);
  });
  afterAll(() => sandbox?.stop());

  // The three stalls wait out different timeouts on their own connections: they run side by side, so the file waits
  // for the longest one (3 s) instead of the sum (6 s). Each still shows its own timeout applies.
  describe.concurrent('stalled connections', () => {
    it('closes a connection whose headers stall', async ({ expect }) => {
      const socket = await open(port, 'GET /_sandbox/health HTTP/1.1\r\nHost: x\r\n');
      expect(await closedWithin(socket, 4000)).toBeGreaterThanOrEqual(900);
    });

    it('closes a connection whose body stalls', async ({ expect }) => {
      const socket = await open(
        port,
        'POST /svc/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\ngrant_type',
      );
      expect(await closedWithin(socket, 5000)).toBeGreaterThanOrEqual(1500);
    });

    it('closes a connection that sends nothing', async () => {
      const socket = await open(port);
      await closedWithin(socket, testWaitMs(5000));
    });
  });

  // After the stalls: it fills the connection cap, which a stalled connection still open would distort.
  it('caps open connections: one over the cap is closed at once, and the server serves again once they go', async () => {
    const held = await Promise.all(Array.from({ length: 4 }, () => open(port, 'GET /_sandbox/health HTTP/1.1\r\nHost: x\r\n')));
    const extra = await open(port, 'GET /_sandbox/health HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await closedWithin(extra, 500)).toBeLessThan(500);
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await fetch(`http://127.0.0.1:${port}/_sandbox/health`)).status).toBe(200);
  });
});

// This file's last two checks each start their own sandbox: they run side by side, so the one's 3 s wait for the idle
// timeout overlaps the other's requests.
describe.concurrent('a client that stops reading', () => {
  it('has its connection closed after the idle timeout, in the middle of a long answer', async ({ expect }) => {
    const sandbox = await startSandboxProcess(['--vehicles', '100000', '--idle-timeout', '1', '--log-level', 'warn']);
    try {
      const port = Number(new URL(sandbox.env.LP_BASE_URL!).port);
      // 60,000 vehicles (about 14 MB): more than the socket buffers take while nobody reads.
      const socket = await open(port, `GET /fleet/vehicles HTTP/1.1\r\nHost: x\r\nAPI-Key: ${sandbox.env.LP_FLEET_API_KEY}\r\n\r\n`);
      socket.pause();
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      await new Promise((resolve) => setTimeout(resolve, 3000));
      socket.resume(); // drain what was buffered: the end comes early, since the server gave up
      let received = 0;
      socket.on('data', (chunk: Buffer) => (received += chunk.length));
      await closed;
      expect(received).toBeLessThan(14_000_000);
      expect((await fetch(`http://127.0.0.1:${port}/_sandbox/health`)).status).toBe(200);
    } finally {
      await sandbox.stop();
    }
  });
});

describe.concurrent('credentials in URLs', () => {
  it('never reach the request log, in any encoding, under any name or in the path', async ({ expect }) => {
    const secrets = {
      LP_CLIENT_SECRET: 'env-secret/5f0c+9a=',
      LP_SUBSCRIPTION_KEY: 'env-subkey-77aa21',
      LP_FLEET_API_KEY: 'env-fleetkey:3b9e04',
    };
    const sandbox = await startSandboxProcess([], secrets);
    try {
      const origin = sandbox.env.LP_BASE_URL!.replace(/\/svc$/, '');
      const token = (
        (await (
          await postForm(`${origin}/svc/token`, {
            grant_type: 'client_credentials',
            client_id: 'sandbox-client',
            client_secret: secrets.LP_CLIENT_SECRET,
          })
        ).json()) as { access_token: string }
      ).access_token;
      const values = [...Object.values(secrets), token];
      const names = [
        'API-Key',
        'api_key',
        'apikey',
        'API%2DKey',
        'client_secret',
        'Client-Secret',
        'client%5Fsecret',
        'subscription-key',
        'Ocp-Apim-Subscription-Key',
        'access_token',
        'token',
        'code',
        'code_verifier',
        'password',
        'key',
      ];
      const paths: string[] = [];
      for (const value of values) {
        for (const name of names) {
          paths.push(`/fleet/vehicles?${name}=${encodeURIComponent(value)}`, `/svc/token?${name}=${value}`);
          paths.push(
            `/fleet/vehicles?${name}=${Buffer.from(value).toString('base64')}`,
            `/fleet/vehicles?${name}=${Buffer.from(value).toString('hex')}`,
          );
        }
        // The sandbox's own credentials under names nobody would guess, and in the path.
        if (value !== token)
          paths.push(`/fleet/vehicles?q=${encodeURIComponent(value)}`, `/fleet/vehicles/${encodeURIComponent(value)}`, `/x/${value}`);
      }
      for (const path of paths) await (await fetch(`${origin}${path}`, { headers: { 'api-key': secrets.LP_FLEET_API_KEY } })).arrayBuffer();
      expect(await sandbox.stop()).toBe(0);
      const logs = sandbox.stderr();
      expect(logs.split('\n').filter((line) => line.includes('"msg":"request"')).length).toBeGreaterThanOrEqual(paths.length);
      const spellings = (value: string) => [
        value,
        encodeURIComponent(value),
        new URLSearchParams([['', value]]).toString().slice(1),
        JSON.stringify(value).slice(1, -1),
        Buffer.from(value).toString('base64'),
        Buffer.from(value).toString('base64url'),
        Buffer.from(value).toString('hex'),
      ];
      for (const value of values) {
        for (const spelling of spellings(value)) {
          expect(logs.includes(spelling), 'a spelling of a credential is in the log').toBe(false);
          expect(sandbox.stdout.includes(spelling), 'a spelling of a credential is on stdout').toBe(false);
        }
      }
    } finally {
      await sandbox.stop();
    }
  });
});
