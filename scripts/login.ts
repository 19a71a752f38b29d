// `npm run login`: the authorization code flow for a developer. Prints (or opens with --open) the authorize URL,
// waits on the loopback LP_REDIRECT_URI, checks state, exchanges the code (PKCE) and prints the token lifetime.
// The token itself is printed only with --show-token. Anyone on this machine can reach the loopback port: a
// callback with another state is answered with an error page and ignored (it must not end the sign-in), and a
// malformed request gets a 400 while the listener keeps waiting.
import { spawn } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';
import { parseArgs } from 'node:util';
import { AuthorizationError, buildAuthorizationUrl, exchangeAuthorizationCode, parseAuthorizationCallback } from '../src/index.ts';

const USAGE = `Usage: npm run login -- [--open] [--show-token] [--timeout SECONDS]
Needs LP_AUTH_URL, LP_CLIENT_ID, LP_CLIENT_SECRET, LP_SUBSCRIPTION_KEY, LP_SCOPE and LP_REDIRECT_URI
(a loopback address registered for the application, e.g. http://127.0.0.1:8765/callback).`;

const { values: flags } = parseArgs({
  options: { open: { type: 'boolean', default: false }, 'show-token': { type: 'boolean', default: false }, timeout: { type: 'string', default: '300' }, help: { type: 'boolean', default: false } },
});
if (flags.help) {
  console.log(USAGE);
  process.exit(0);
}

function setting(name: string): string {
  const value = process.env[name];
  if (!value) {
    console.error(`login: ${name} is not set.\n${USAGE}`);
    process.exit(2);
  }
  return value;
}

const authUrl = setting('LP_AUTH_URL');
const clientId = setting('LP_CLIENT_ID');
const clientSecret = setting('LP_CLIENT_SECRET');
const subscriptionKey = setting('LP_SUBSCRIPTION_KEY');
const scope = setting('LP_SCOPE');
const redirectUri = setting('LP_REDIRECT_URI');
const redirect = new URL(redirectUri);
if (redirect.protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(redirect.hostname) || !redirect.port) {
  console.error('login: LP_REDIRECT_URI must be a loopback http address with a port, e.g. http://127.0.0.1:8765/callback');
  process.exit(2);
}
const timeoutSeconds = Number(flags.timeout);
if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) {
  console.error('login: --timeout must be a positive number of seconds');
  process.exit(2);
}

const authorization = await buildAuthorizationUrl({ authUrl, clientId, redirectUri, scope, pkce: true });

const result = await new Promise<{ code: string } | { error: Error }>((resolve) => {
  const page = (status: number, text: string) => (response: ServerResponse) =>
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', connection: 'close' }).end(`<p>${text}</p>`);
  const server = createServer((request, response) => {
    let callback: URL;
    try {
      callback = new URL(request.url ?? '/', redirect.origin);
    } catch {
      page(400, 'Bad request.')(response);
      return;
    }
    if (callback.pathname !== redirect.pathname) {
      page(404, 'Not found.')(response);
      return;
    }
    try {
      const { code } = parseAuthorizationCallback(callback, { state: authorization.state });
      page(200, 'Signed in. You can close this tab and return to the terminal.')(response);
      finish({ code });
    } catch (error) {
      if (error instanceof AuthorizationError && error.code === 'state_mismatch') {
        // Not the answer to our request (a forged or stale link): ignore it and keep waiting for ours.
        page(400, 'This sign-in response does not belong to the sign-in waiting in the terminal; it was ignored.')(response);
        console.error('login: ignored a callback whose state does not match this sign-in; still waiting.');
        return;
      }
      page(400, 'Sign-in failed; see the terminal.')(response);
      finish({ error: error as Error });
    }
  });
  // Bounded waits on every connection; a request Node cannot parse is answered 400 by its default
  // clientError handling, which closes only that connection.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  server.maxConnections = 64;
  const timer = setTimeout(() => finish({ error: new Error(`no callback within ${timeoutSeconds} s`) }), timeoutSeconds * 1000);
  function finish(outcome: { code: string } | { error: Error }) {
    clearTimeout(timer);
    server.closeAllConnections();
    server.close();
    resolve(outcome);
  }
  server.on('error', (error) => finish({ error }));
  server.listen(Number(redirect.port), redirect.hostname.replace(/^\[|\]$/g, ''), () => {
    console.log(`Open this URL in a browser to sign in (waiting ${timeoutSeconds} s on ${redirect.origin}):\n${authorization.url}`);
    if (flags.open) openInBrowser(authorization.url);
  });
});

if ('error' in result) {
  console.error(`login: ${result.error.message}`);
  process.exit(1);
}

try {
  const token = await exchangeAuthorizationCode({ authUrl, clientId, clientSecret, subscriptionKey, code: result.code, redirectUri, codeVerifier: authorization.codeVerifier! });
  console.log(`Signed in: ${token.token_type} token, expires in ${token.expires_in ?? 'an unstated number of'} s${token.scope ? `, scope "${token.scope}"` : ''}.`);
  if (flags['show-token']) console.log(`access_token: ${token.access_token}`);
  else console.log('The token is not printed; pass --show-token to print it.');
} catch (error) {
  console.error(`login: the code exchange failed: ${(error as Error).message}`);
  process.exit(1);
}

function openInBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(command, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => console.log(`(could not run ${command}; open the URL by hand)`));
  child.unref();
}
