// The authorization code flow of `npm run login`: a loopback listener on the registered redirect URI, state and PKCE
// checks, and the code exchange. The browser is answered only after the exchange, so its page says whether the sign-in
// worked (and never shows a credential). Anyone on this machine can reach the loopback port: a callback with another
// state is answered with an error page and ignored (it must not end the sign-in), and a malformed request gets a 400
// while the listener keeps waiting.
import { createServer, type ServerResponse } from 'node:http';
import { AuthorizationError, buildAuthorizationUrl, exchangeAuthorizationCode, parseAuthorizationCallback } from '../src/index.ts';

export interface LoginSettings {
  authUrl: string;
  clientId: string;
  clientSecret: string;
  subscriptionKey: string;
  scope: string;
  /** A loopback http URL with a port (checked by loopbackRedirect). */
  redirectUri: string;
}

export type Token = Awaited<ReturnType<typeof exchangeAuthorizationCode>>;
/** The token, or why there is none; `exchange` when the identity provider refused the code exchange. */
export type LoginOutcome = { token: Token } | { error: Error; exchange?: true };

export interface LoginOptions {
  timeoutSeconds: number;
  /** Called once the listener is up, with the URL the user opens. */
  listening: (authorizeUrl: string) => void;
  /** A line for the terminal that does not end the sign-in. */
  notice: (line: string) => void;
}

/** The redirect URI as a URL when it is a loopback http address with a port (the only kind a CLI can listen on). */
export function loopbackRedirect(redirectUri: string): URL | undefined {
  if (!URL.canParse(redirectUri)) return undefined;
  const redirect = new URL(redirectUri);
  const loopback = redirect.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(redirect.hostname) && redirect.port !== '';
  return loopback ? redirect : undefined;
}

/** Runs the sign-in: resolves when the exchange succeeded or failed, or the wait timed out. */
export async function signIn(settings: LoginSettings, options: LoginOptions): Promise<LoginOutcome> {
  const redirect = loopbackRedirect(settings.redirectUri);
  if (!redirect) throw new Error('LP_REDIRECT_URI must be a loopback http address with a port, e.g. http://127.0.0.1:8765/callback');
  const { authUrl, clientId, redirectUri, scope } = settings;
  const authorization = await buildAuthorizationUrl({ authUrl, clientId, redirectUri, scope, pkce: true });
  return new Promise<LoginOutcome>((resolve) => {
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
          options.notice('ignored a callback whose state does not match this sign-in; still waiting.');
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
      exchangeAuthorizationCode({ ...settings, code, codeVerifier: authorization.codeVerifier! }).then(
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
    const timer = setTimeout(
      () => finish({ error: new Error(`no callback within ${options.timeoutSeconds} s`) }),
      options.timeoutSeconds * 1000,
    );
    function finish(outcome: LoginOutcome) {
      clearTimeout(timer);
      // Let the answer reach the browser before the connections go.
      server.close();
      setTimeout(() => server.closeAllConnections(), 100).unref();
      resolve(outcome);
    }
    server.on('error', (error: NodeJS.ErrnoException) => {
      const why =
        error.code === 'EADDRINUSE'
          ? `port ${redirect.port} of LP_REDIRECT_URI is already in use: stop the other process (another npm run login?) or use another registered redirect URI.`
          : `could not listen on LP_REDIRECT_URI ${redirect.origin} (${error.code ?? error.message}).`;
      finish({ error: new Error(why) });
    });
    server.listen(Number(redirect.port), redirect.hostname.replace(/^\[|\]$/g, ''), () => {
      options.listening(authorization.url);
    });
  });
}
