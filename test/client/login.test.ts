// `npm run login` end to end: the script runs as a child process against a loopback identity provider, and a "browser"
// (fetch following redirects) signs in.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sendJson, startLoopbackServer, type LoopbackServer } from './loopback-server.ts';
import { freePort } from '../../tools/free-port.ts';
import { startServer, type RunningServer } from '../../tools/processes.ts';
import { testWaitMs } from '../../config/test-waits.ts';

const CLIENT_SECRET = 'client-secret-DO-NOT-PRINT-1234';
const ACCESS_TOKEN = 'access-token-DO-NOT-PRINT-3456';
const root = new URL('../..', import.meta.url).pathname;

let idp: LoopbackServer | undefined;
let login: RunningServer | undefined;
afterEach(async () => {
  await login?.stop();
  login = undefined;
  await idp?.close();
  idp = undefined;
});

/** Starts the login script (tools/processes.ts); resolves with the authorize URL it prints, and a promise of its exit and output. */
async function startLogin(redirectUri: string, args: string[] = [], env: Record<string, string> = {}) {
  login = await startServer({
    script: 'scripts/login.ts',
    args: ['--timeout', String(testWaitMs(15_000) / 1000), ...args],
    env: {
      ...env,
      LP_AUTH_URL: `${idp!.origin}/idp`,
      LP_CLIENT_ID: 'app',
      LP_CLIENT_SECRET: CLIENT_SECRET,
      LP_SUBSCRIPTION_KEY: 'sub-key-1234',
      LP_SCOPE: 'carriers.milestones',
      LP_REDIRECT_URI: redirectUri,
    },
    ready: /^(http\S+authorize\S+)$/m,
    readyTimeoutMs: testWaitMs(15_000),
  });
  const running = login;
  const exited = running.exited.then((code) => ({ code, output: `${running.stdoutTail()}${running.stderr()}` }));
  return { url: running.readyMatch![1]!, exited };
}

/** Sends raw bytes to a loopback port and resolves with whatever comes back before the server closes. */
function rawRequest(port: number, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    socket.setTimeout(testWaitMs(5000), () => socket.destroy(new Error(`no answer to ${JSON.stringify(raw)}: ${answer}`)));
    socket.on('data', (chunk) => {
      answer += chunk.toString();
      if (/\r\n\r\n/.test(answer)) socket.end();
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

/** An identity provider that redirects back with code-1 (or with `error`), and answers the exchange with `token`. */
async function identityProvider(options: { refuse?: string; token?: (form: URLSearchParams) => [number, unknown] } = {}) {
  return startLoopbackServer((request, response) => {
    const url = new URL(request.url, 'http://idp');
    if (url.pathname === '/idp/oauth2/default/v1/authorize') {
      const back = new URL(url.searchParams.get('redirect_uri')!);
      if (options.refuse) {
        back.searchParams.set('error', options.refuse);
        back.searchParams.set('error_description', 'The user said no');
      } else back.searchParams.set('code', 'code-1');
      back.searchParams.set('state', url.searchParams.get('state')!);
      response.writeHead(302, { location: back.toString() }).end();
      return;
    }
    const [status, body] = options.token?.(new URLSearchParams(request.body)) ?? [
      200,
      { access_token: ACCESS_TOKEN, token_type: 'Bearer', expires_in: 1800 },
    ];
    sendJson(response, status, body);
  });
}

describe('npm run login', () => {
  it('signs in with state and PKCE, exchanges the code with the same redirect_uri, and prints the lifetime but not the token', async () => {
    idp = await identityProvider({
      token: (form) => {
        const challenge = new URL(idp!.requests[0]!.url, 'http://idp').searchParams.get('code_challenge');
        const verified =
          createHash('sha256')
            .update(form.get('code_verifier') ?? '')
            .digest('base64url') === challenge;
        if (form.get('code') !== 'code-1' || form.get('redirect_uri') !== redirectUri || !verified)
          return [400, { error: 'invalid_grant' }];
        return [200, { access_token: ACCESS_TOKEN, token_type: 'Bearer', expires_in: 3600, scope: 'carriers.milestones' }];
      },
    });
    const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
    const { url, exited } = await startLogin(redirectUri);
    const page = await fetch(url); // the "browser": follows the 302 to the script's callback
    expect(await page.text()).toContain('Signed in');
    const { code, output } = await exited;
    expect(code).toBe(0);
    expect(output).toContain('expires in 3600 s');
    expect(output).not.toContain(ACCESS_TOKEN);
    expect(output).not.toContain(CLIENT_SECRET);
    expect(idp.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('answers a callback whose state does not match with an error page, ignores it and completes the real sign-in', async () => {
    idp = await identityProvider();
    const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
    const { url, exited } = await startLogin(redirectUri);
    // Anyone who can reach the loopback port: a forged code, and a forged error.
    const forged = await fetch(`${redirectUri}?code=stolen&state=forged`);
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('was ignored');
    expect((await fetch(`${redirectUri}?error=access_denied&state=forged`)).status).toBe(400);
    expect(login!.child.exitCode).toBeNull();
    expect(await (await fetch(url)).text()).toContain('Signed in');
    const { code, output } = await exited;
    expect(code).toBe(0);
    expect(output).toMatch(/ignored a callback whose state does not match/);
    const exchanges = idp.requests.filter((r) => r.method === 'POST');
    expect(exchanges).toHaveLength(1);
    expect(new URLSearchParams(exchanges[0]!.body).get('code')).toBe('code-1');
  });

  it('keeps waiting after a callback with a wrong state until its timeout, exchanging no code', async () => {
    idp = await identityProvider();
    const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
    // The forged callback has to come before the timeout: seconds for a loopback request, however busy the machine.
    const seconds = testWaitMs(3_000) / 1000;
    const { exited } = await startLogin(redirectUri, ['--timeout', String(seconds)]);
    expect((await fetch(`${redirectUri}?code=stolen&state=forged`)).status).toBe(400);
    const { code, output } = await exited;
    expect(code).toBe(1);
    expect(output).toContain(`no callback within ${seconds} s`);
    expect(idp.requests).toHaveLength(0);
  });

  it('answers malformed requests with 400 and keeps listening', async () => {
    idp = await identityProvider();
    const port = await freePort();
    const redirectUri = `http://127.0.0.1:${port}/callback`;
    const { url, exited } = await startLogin(redirectUri);
    for (const raw of [
      'GET //[ HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /callback?state=%zz%%% HTTP/1.1\r\nHost: x\r\n\r\n',
      '\u0000\u0001 garbage\r\n\r\n',
    ]) {
      expect(await rawRequest(port, raw)).toMatch(/^HTTP\/1\.1 400 /);
    }
    expect(await (await fetch(url)).text()).toContain('Signed in');
    expect((await exited).code).toBe(0);
  });

  it('prints the token with --show-token, and still never the client secret', async () => {
    idp = await identityProvider();
    const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
    const { url, exited } = await startLogin(redirectUri, ['--show-token']);
    await (await fetch(url)).text();
    const { code, output } = await exited;
    expect(code).toBe(0);
    expect(output).toContain('expires in 1800 s');
    expect(output).toContain(`access_token: ${ACCESS_TOKEN}`);
    expect(output).not.toContain(CLIENT_SECRET);
  });

  it('reports an error redirect from the identity provider and exchanges no code', async () => {
    idp = await identityProvider({ refuse: 'access_denied' });
    const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
    const { url, exited } = await startLogin(redirectUri);
    expect((await fetch(url)).status).toBe(400);
    const { code, output } = await exited;
    expect(code).toBe(1);
    expect(output).toContain('The identity provider refused the authorization: access_denied (The user said no)');
    expect(idp.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('reports a refused code exchange with the status, and no credential even when the provider echoes them', async () => {
    idp = await identityProvider({ token: (form) => [400, { error: 'invalid_grant', error_description: `bad ${form.toString()}` }] });
    const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
    const { url, exited } = await startLogin(redirectUri);
    // The browser is told the truth: the sign-in failed (a wrong secret is a refused exchange), with no credential.
    const page = await fetch(url);
    const text = await page.text();
    expect(page.status).toBe(502);
    expect(text).toContain('Sign-in failed');
    expect(text).not.toContain('Signed in');
    for (const credential of [CLIENT_SECRET, 'sub-key-1234', 'code-1']) expect(text).not.toContain(credential);
    const { code, output } = await exited;
    expect(code).toBe(1);
    expect(output).toMatch(/the code exchange failed: POST \/oauth2\/default\/v1\/token failed with status 400: invalid_grant/);
    expect(output).toContain('client_secret=[REDACTED]');
    expect(output).not.toContain(CLIENT_SECRET);
    expect(output).not.toContain('sub-key-1234');
  });

  it('with a wrong client secret (the identity provider answers 401), the browser page says the sign-in failed', async () => {
    idp = await identityProvider({ token: () => [401, { error: 'invalid_client', error_description: 'Client authentication failed' }] });
    const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
    const { url, exited } = await startLogin(redirectUri);
    const text = await (await fetch(url)).text();
    expect(text).toMatch(/Sign-in failed/);
    expect(text).not.toMatch(/Signed in|close this tab/);
    expect(text).not.toContain(CLIENT_SECRET);
    const { code, output } = await exited;
    expect(code).toBe(1);
    expect(output).toMatch(/the code exchange failed: .*401/);
    expect(output).not.toContain(CLIENT_SECRET);
  });

  it('answers --help with exit 0 and refuses an unknown option in one line with exit 2', () => {
    const help = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/login.ts', '--help'], { cwd: root, encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: npm run login -- \[options\]/);
    expect(help.stdout).toContain('LP_REDIRECT_URI');
    const wrong = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/login.ts', '--opne'], { cwd: root, encoding: 'utf8' });
    expect(wrong.status).toBe(2);
    expect(wrong.stderr.trim().split('\n')[0]).toMatch(/^npm run login --: Unknown option '--opne'/);
  });

  it('with --open, hands the authorize URL to the system opener', async () => {
    idp = await identityProvider();
    // Stand-ins for xdg-open (Linux) and open (macOS), first on PATH, that record the URL they were given.
    const bin = mkdtempSync(join(tmpdir(), 'lp-login-open-'));
    const opened = join(bin, 'opened.txt');
    for (const name of ['xdg-open', 'open']) writeFileSync(join(bin, name), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`, { mode: 0o755 });
    try {
      const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
      const { url, exited } = await startLogin(redirectUri, ['--open'], { PATH: `${bin}:${process.env.PATH ?? ''}` });
      // The opener runs on its own: the test looks for the URL it wrote until it is there.
      await expect.poll(() => (existsSync(opened) ? readFileSync(opened, 'utf8') : '')).toBe(url);
      await (await fetch(url)).text();
      expect((await exited).code).toBe(0);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});
