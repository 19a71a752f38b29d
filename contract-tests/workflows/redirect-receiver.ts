// The part of the authorization code flow that is the partner's application: the page at LP_REDIRECT_URI. Respect
// always follows redirects, so the authorize step ends there; this receiver listens on the loopback redirect URI for
// the run, checks that the redirect brought this run's state back unchanged, keeps the code (to redact it everywhere)
// and answers with the code as its page, which the workflow's next step exchanges. Before that, the workflow's own
// authorize request, following nothing, asks whether the identity provider approves without a person at all; it goes
// through the proxy the environment names, as every request of the run (src/connections.ts).

import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { proxyFor, sharedConnections } from '../../src/connections.ts';
import { errorCode, networkHint } from '../../src/network-hints.ts';

/** Whether the workflow can run here, and if not, why (`unjudged` when the target could not be asked at all). */
export type Approval = { approves: true } | { approves: false; reason: string; unjudged?: boolean };

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The redirect URI when this run can receive it: plain http on a loopback address with a port. */
export function loopbackRedirectUri(uri: string | undefined): URL | undefined {
  try {
    const url = new URL(uri ?? '');
    return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname) && url.port !== '' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Same origin and path: where a redirect to the registered redirect URI lands. */
const sameEndpoint = (location: URL, redirectUri: URL) =>
  location.origin === redirectUri.origin && location.pathname === redirectUri.pathname;

/** What one authorize request that follows nothing got back. */
type AuthorizeAnswer =
  | { kind: 'code' }
  | { kind: 'error'; error: string }
  | { kind: 'elsewhere'; what: string }
  | { kind: 'unreachable'; cause: string; hint: string | undefined };

async function askAuthorize(authorizeUrl: URL, redirectUri: URL, timeoutMs: number): Promise<AuthorizeAnswer> {
  let response: Response;
  try {
    // fetch's undici option: the run's proxies and keep-alive, as the suite and the client send.
    const init = { redirect: 'manual', signal: AbortSignal.timeout(timeoutMs), dispatcher: sharedConnections().pooled };
    response = await fetch(authorizeUrl, init as RequestInit);
    await response.body?.cancel();
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause ?? error;
    const hint = networkHint(cause, authorizeUrl.href, 'LP_AUTH_URL', proxyFor(authorizeUrl));
    return { kind: 'unreachable', cause: errorCode(cause) ?? (error as Error).name, hint };
  }
  const location = response.headers.get('location');
  const target = location ? new URL(location, authorizeUrl) : undefined;
  if (response.status >= 300 && response.status < 400 && target && sameEndpoint(target, redirectUri)) {
    if (target.searchParams.get('code')) return { kind: 'code' };
    // An error code is a word of RFC 6749's (4.1.2.1); anything else of the server's is left out.
    return { kind: 'error', error: (target.searchParams.get('error') ?? '').replace(/[^\w.-]/g, '').slice(0, 64) };
  }
  const what = `${response.status}${target ? ' with a redirect elsewhere than LP_REDIRECT_URI' : ` ${response.headers.get('content-type') ?? ''}`.trimEnd()}`;
  return { kind: 'elsewhere', what };
}

/** The authorize request with PKCE (RFC 7636, S256) added: a fresh verifier's challenge. */
function withPkce(authorizeUrl: URL): URL {
  const url = new URL(authorizeUrl);
  const verifier = randomBytes(32).toString('base64url');
  url.searchParams.set('code_challenge', createHash('sha256').update(verifier).digest('base64url'));
  url.searchParams.set('code_challenge_method', 'S256');
  return url;
}

const SIGN_IN = 'a person has to sign in and approve, so the flow cannot run unattended here (the sandbox approves without one)';

/**
 * The workflow's own authorize request, following nothing: a redirect straight back to the redirect URI with a code
 * means the identity provider approves unattended (the code is never exchanged; it expires unused). When it redirects
 * back with an error, the same request with PKCE tells an identity provider that requires PKCE (OAuth 2.1) and sends a
 * person to sign in (skipped for that reason) from one that would approve with PKCE alone (skipped: the documented flow
 * sends no PKCE, and the suite reports the contradicted assumption that PKCE is optional).
 */
export async function probeApproval(authorizeUrl: URL, redirectUri: URL, timeoutMs: number): Promise<Approval> {
  const answer = await askAuthorize(authorizeUrl, redirectUri, timeoutMs);
  if (answer.kind === 'unreachable') {
    const reason = `the authorize endpoint could not be asked (${answer.cause})${answer.hint ? `: ${answer.hint}` : ''}`;
    return { approves: false, unjudged: true, reason };
  }
  if (answer.kind === 'code') return { approves: true };
  if (answer.kind === 'elsewhere') return { approves: false, reason: `the authorize endpoint answered ${answer.what}: ${SIGN_IN}` };
  const refused = `the identity provider redirected back without a code${answer.error ? ` (error=${answer.error})` : ''}`;
  const withIt = await askAuthorize(withPkce(authorizeUrl), redirectUri, timeoutMs);
  if (withIt.kind === 'unreachable')
    return { approves: false, unjudged: true, reason: `${refused}; asked again with PKCE, it could not be asked (${withIt.cause})` };
  if (withIt.kind === 'elsewhere')
    return {
      approves: false,
      reason: `the authorize endpoint answered ${withIt.what} when asked with PKCE (without it, ${refused}): ${SIGN_IN}`,
    };
  if (withIt.kind === 'code')
    return {
      approves: false,
      reason: `${refused}, and with a code when asked with PKCE: it requires PKCE, which the workflow, as the published documentation describes the flow, does not send`,
    };
  return { approves: false, reason: refused };
}

export interface RedirectReceiver {
  /** What was wrong with redirects it received (no value of them), for the authorize step's failure. */
  notes: string[];
  close(): Promise<void>;
}

/** The answer to one request at the redirect URI. */
function answer(request: IncomingMessage, redirectUri: URL, state: string): { status: number; page: string; code?: string } {
  const url = new URL(request.url ?? '/', redirectUri);
  if (url.pathname !== redirectUri.pathname) return { status: 404, page: '<!doctype html><p>Not the redirect URI.</p>' };
  const error = url.searchParams.get('error');
  if (error)
    return {
      status: 400,
      page: `<!doctype html><p>The identity provider redirected back with error=${error.replace(/[^\w.-]/g, '')}.</p>`,
    };
  if (url.searchParams.get('state') !== state)
    return { status: 400, page: '<!doctype html><p>The redirect back did not carry the state this run sent, unchanged.</p>' };
  const code = url.searchParams.get('code');
  if (!code) return { status: 400, page: '<!doctype html><p>The redirect back carried no code.</p>' };
  return { status: 200, page: code, code };
}

/** Listens at the redirect URI until closed; `onCode` gets every code received (before it is answered). */
export async function startRedirectReceiver(redirectUri: URL, state: string, onCode: (code: string) => void): Promise<RedirectReceiver> {
  const notes: string[] = [];
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const { status, page, code } = answer(request, redirectUri, state);
    if (code) onCode(code);
    else if (status === 400) notes.push(page.replace(/<[^>]+>/g, ''));
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(Number(redirectUri.port), redirectUri.hostname.replace(/^\[|\]$/g, ''), () => resolve());
  });
  return {
    notes,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
