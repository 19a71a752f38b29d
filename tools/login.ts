// The authorization code flow of `npm run login`: a loopback listener on the registered redirect URI, state and PKCE
// checks, and the code exchange. The browser is answered only after the exchange, so its page says whether the sign-in
// worked (and never shows a credential). Anyone on this machine can reach the loopback port: a callback with another
// state is answered with an error page and ignored (it must not end the sign-in), and a malformed request gets a 400
// while the listener keeps waiting.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
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

type Page = (response: ServerResponse) => void;

const page =
  (status: number, text: string): Page =>
  (response) =>
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', connection: 'close' }).end(`<p>${text}</p>`);

/** What a request to the listener brings: the code, a failed sign-in, or something else (answered, maybe noticed). */
type Callback = { code: string } | { answer: Page; error: Error } | { answer: Page; notice?: string };

function readCallback(target: string | undefined, redirect: URL, state: string): Callback {
  let callback: URL;
  try {
    callback = new URL(target ?? '/', redirect.origin);
  } catch {
    return { answer: page(400, 'Bad request.') };
  }
  if (callback.pathname !== redirect.pathname) return { answer: page(404, 'Not found.') };
  try {
    return { code: parseAuthorizationCallback(callback, { state }).code };
  } catch (error) {
    if (error instanceof AuthorizationError && error.code === 'state_mismatch') {
      // Not the answer to our request (a forged or stale link): ignore it and keep waiting for ours.
      return {
        answer: page(400, 'This sign-in response does not belong to the sign-in waiting in the terminal; it was ignored.'),
        notice: 'ignored a callback whose state does not match this sign-in; still waiting.',
      };
    }
    return { answer: page(400, 'Sign-in failed; see the terminal.'), error: error as Error };
  }
}

/** The listener's server, with bounded waits on every connection. */
function loopbackServer(handler: (request: IncomingMessage, response: ServerResponse) => void): Server {
  const server = createServer(handler);
  // A request Node cannot parse is answered 400 by its default clientError handling, which closes only that connection.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  server.maxConnections = 64;
  return server;
}

function listenError(error: NodeJS.ErrnoException, redirect: URL): Error {
  return new Error(
    error.code === 'EADDRINUSE'
      ? `port ${redirect.port} of LP_REDIRECT_URI is already in use: stop the other process (another npm run login?) or use another registered redirect URI.`
      : `could not listen on LP_REDIRECT_URI ${redirect.origin} (${error.code ?? error.message}).`,
  );
}

/** Runs the sign-in: resolves when the exchange succeeded or failed, or the wait timed out. */
export async function signIn(settings: LoginSettings, options: LoginOptions): Promise<LoginOutcome> {
  const redirect = loopbackRedirect(settings.redirectUri);
  if (!redirect) throw new Error('LP_REDIRECT_URI must be a loopback http address with a port, e.g. http://127.0.0.1:8765/callback');
  const { authUrl, clientId, redirectUri, scope } = settings;
  const authorization = await buildAuthorizationUrl({ authUrl, clientId, redirectUri, scope, pkce: true });
  return new Promise<LoginOutcome>((resolve) => {
    let exchanging = false;
    const server = loopbackServer((request, response) => {
      const callback = readCallback(request.url, redirect, authorization.state);
      if ('answer' in callback) {
        callback.answer(response);
        if ('error' in callback) finish({ error: callback.error });
        else if (callback.notice) options.notice(callback.notice);
        return;
      }
      if (exchanging) return page(409, 'This sign-in is already being completed; see the terminal.')(response);
      exchanging = true;
      // The browser waits for the exchange: its page must not say "signed in" when the identity provider refuses.
      exchangeAuthorizationCode({ ...settings, code: callback.code, codeVerifier: authorization.codeVerifier! }).then(
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
    server.on('error', (error: NodeJS.ErrnoException) => finish({ error: listenError(error, redirect) }));
    server.listen(Number(redirect.port), redirect.hostname.replace(/^\[|\]$/g, ''), () => {
      options.listening(authorization.url);
    });
  });
}
