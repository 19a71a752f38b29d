// `npm run login` end to end: the script runs as a child process against a loopback identity provider, and a "browser"
// (fetch following redirects) signs in.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { sendJson, startLoopbackServer, type LoopbackServer } from './loopback-server.ts';
import { freePort } from '../../scripts/free-port.ts';

const CLIENT_SECRET = 'client-secret-DO-NOT-PRINT-1234';
const ACCESS_TOKEN = 'access-token-DO-NOT-PRINT-3456';
const root = new URL('../..', import.meta.url).pathname;

let idp: LoopbackServer | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  child = undefined;
  await idp?.close();
  idp = undefined;
});

/** Starts the login script; resolves with the authorize URL it prints, and a promise of its exit and output. */
async function startLogin(redirectUri: string, args: string[] = []) {
  let output = '';
  child = spawn(process.execPath, ['--import', 'tsx', 'scripts/login.ts', '--timeout', '15', ...args], {
    cwd: root,
    env: {
      ...process.env,
      LP_AUTH_URL: `${idp!.origin}/idp`,
      LP_CLIENT_ID: 'app',
      LP_CLIENT_SECRET: CLIENT_SECRET,
      LP_SUBSCRIPTION_KEY: 'sub-key-1234',
      LP_SCOPE: 'carriers.milestones',
      LP_REDIRECT_URI: redirectUri,
    },
  });
  const exited = new Promise<{ code: number | null; output: string }>((resolve) => child!.on('exit', (code) => resolve({ code, output })));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`login printed no URL: ${output}`)), 15_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /^(http\S+authorize\S+)$/m.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child!.stdout!.on('data', onData);
    child!.stderr!.on('data', onData);
    child!.on('exit', () => reject(new Error(`login exited early: ${output}`)));
  });
  return { url, exited };
}

describe('npm run login', () => {
  it('signs in with state and PKCE, exchanges the code with the same redirect_uri, and prints the lifetime but not the token', async () => {
    let challenge = '';
    idp = await startLoopbackServer((request, response) => {
      const url = new URL(request.url, 'http://idp');
      if (url.pathname === '/idp/oauth2/default/v1/authorize') {
        challenge = url.searchParams.get('code_challenge') ?? '';
        const back = new URL(url.searchParams.get('redirect_uri')!);
        back.searchParams.set('code', 'code-1');
        back.searchParams.set('state', url.searchParams.get('state')!);
        response.writeHead(302, { location: back.toString() }).end();
        return;
      }
      const form = new URLSearchParams(request.body);
      const verified = createHash('sha256').update(form.get('code_verifier') ?? '').digest('base64url') === challenge;
      if (form.get('code') !== 'code-1' || form.get('redirect_uri') !== redirectUri || !verified) return sendJson(response, 400, { error: 'invalid_grant' });
      sendJson(response, 200, { access_token: ACCESS_TOKEN, token_type: 'Bearer', expires_in: 3600, scope: 'carriers.milestones' });
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

  it('rejects a callback whose state does not match, without exchanging any code', async () => {
    idp = await startLoopbackServer((_request, response) => sendJson(response, 200, { access_token: ACCESS_TOKEN, token_type: 'Bearer', expires_in: 3600 }));
    const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
    const { exited } = await startLogin(redirectUri);
    const forged = await fetch(`${redirectUri}?code=stolen&state=forged`);
    expect(forged.status).toBe(400);
    const { code, output } = await exited;
    expect(code).toBe(1);
    expect(output).toMatch(/state does not match/);
    expect(idp.requests).toHaveLength(0);
  });
});
