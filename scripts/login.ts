// `npm run login`: the authorization code flow for a developer. Prints (or opens with --open) the authorize URL,
// waits on the loopback LP_REDIRECT_URI, checks state, exchanges the code (PKCE) and prints the token lifetime.
// The browser is answered only after the exchange, so its page says whether the sign-in worked (never a credential).
// The token itself is printed only with --show-token. Anyone on this machine can reach the loopback port: a
// callback with another state is answered with an error page and ignored (it must not end the sign-in), and a
// malformed request gets a 400 while the listener keeps waiting.
import { spawn } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';
import { AuthorizationError, buildAuthorizationUrl, exchangeAuthorizationCode, parseAuthorizationCallback } from '../src/index.ts';
import { parseCommandLine, usageError } from '../tools/cli.ts';
import { readVariable, type LpVariable } from '../tools/environment.ts';

const CLI = {
  command: 'npm run login --',
  summary: 'Signs you in with the authorization code flow (PKCE) in a browser and prints the token\'s lifetime.',
  options: {
    open: { type: 'boolean', description: 'Open the authorize URL in the system browser.' },
    'show-token': { type: 'boolean', description: 'Also print the access token.' },
    timeout: { type: 'string', value: 'SECONDS', description: 'How long to wait for the browser.', default: '300' },
  },
  notes: [
    'Needs LP_AUTH_URL, LP_CLIENT_ID, LP_CLIENT_SECRET, LP_SUBSCRIPTION_KEY, LP_SCOPE and LP_REDIRECT_URI',
    '(a loopback address registered for the application, e.g. http://127.0.0.1:8765/callback).',
  ],
} as const;

const { values: flags } = parseCommandLine(CLI);

function setting(name: LpVariable): string {
  const value = readVariable(name);
  if (!value) usageError(CLI, `${name} is not set (see --help).`);
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
  usageError(CLI, 'LP_REDIRECT_URI must be a loopback http address with a port, e.g. http://127.0.0.1:8765/callback');
}
const timeoutSeconds = Number(flags.timeout);
if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) usageError(CLI, `--timeout must be a positive number of seconds, got "${flags.timeout}"`);

type Token = Awaited<ReturnType<typeof exchangeAuthorizationCode>>;

const authorization = await buildAuthorizationUrl({ authUrl, clientId, redirectUri, scope, pkce: true });

const result = await new Promise<{ token: Token } | { error: Error; exchange?: true }>((resolve) => {
  const page = (status: number, text: string) => (response: ServerResponse) =>
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', connection: 'close' }).end(`<p>${text}</p>`);
  let exchanging = false;
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
    let code: string;
    try {
      ({ code } = parseAuthorizationCallback(callback, { state: authorization.state }));
    } catch (error) {
      if (error instanceof AuthorizationError && error.code === 'state_mismatch') {
        // Not the answer to our request (a forged or stale link): ignore it and keep waiting for ours.
        page(400, 'This sign-in response does not belong to the sign-in waiting in the terminal; it was ignored.')(response);
        console.error('login: ignored a callback whose state does not match this sign-in; still waiting.');
        return;
      }
      page(400, 'Sign-in failed; see the terminal.')(response);
      finish({ error: error as Error });
      return;
    }
    if (exchanging) {
      page(409, 'This sign-in is already being completed; see the terminal.')(response);
      return;
    }
    exchanging = true;
    // The browser waits for the exchange: its page must not say "signed in" when the identity provider refuses.
    exchangeAuthorizationCode({ authUrl, clientId, clientSecret, subscriptionKey, code, redirectUri, codeVerifier: authorization.codeVerifier! }).then(
      (token) => {
        page(200, 'Signed in. You can close this tab and return to the terminal.')(response);
        finish({ token });
      },
      (error: unknown) => {
        page(502, 'Sign-in failed: the identity provider refused the code exchange. See the terminal for the reason.')(response);
        finish({ error: error as Error, exchange: true });
      },
    );
  });
  // Bounded waits on every connection; a request Node cannot parse is answered 400 by its default
  // clientError handling, which closes only that connection.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  server.maxConnections = 64;
  const timer = setTimeout(() => finish({ error: new Error(`no callback within ${timeoutSeconds} s`) }), timeoutSeconds * 1000);
  function finish(outcome: { token: Token } | { error: Error; exchange?: true }) {
    clearTimeout(timer);
    // Let the answer reach the browser before the connections go.
    server.close();
    setTimeout(() => server.closeAllConnections(), 100).unref();
    resolve(outcome);
  }
  server.on('error', (error: NodeJS.ErrnoException) => {
    const why = error.code === 'EADDRINUSE'
      ? `port ${redirect.port} of LP_REDIRECT_URI is already in use: stop the other process (another npm run login?) or use another registered redirect URI.`
      : `could not listen on LP_REDIRECT_URI ${redirect.origin} (${error.code ?? error.message}).`;
    finish({ error: new Error(why) });
  });
  server.listen(Number(redirect.port), redirect.hostname.replace(/^\[|\]$/g, ''), () => {
    console.log(`Open this URL in a browser to sign in (waiting ${timeoutSeconds} s on ${redirect.origin}):\n${authorization.url}`);
    if (flags.open) openInBrowser(authorization.url);
  });
});

if ('error' in result) {
  console.error(result.exchange ? `login: the code exchange failed: ${result.error.message}` : `login: ${result.error.message}`);
  process.exit(1);
}
const { token } = result;
console.log(`Signed in: ${token.token_type} token, expires in ${token.expires_in ?? 'an unstated number of'} s${token.scope ? `, scope "${token.scope}"` : ''}.`);
if (flags['show-token']) console.log(`access_token: ${token.access_token}`);
else console.log('The token is not printed; pass --show-token to print it.');

function openInBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(command, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => console.log(`(could not run ${command}; open the URL by hand)`));
  child.unref();
}
