// The part of the authorization code flow that is the partner's application: the page at LP_REDIRECT_URI. Respect
// always follows redirects, so the authorize step ends there; this receiver listens on the loopback redirect URI for
// the run, checks that the redirect brought this run's state back unchanged, keeps the code (to redact it everywhere)
// and answers with the code as its page, which the workflow's next step exchanges. Before that, one request that
// follows nothing asks whether the identity provider approves without a person at all.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

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

/**
 * One authorize request that follows nothing: a redirect straight back to the redirect URI with a code means the
 * identity provider approves unattended. The code it issues is never exchanged (it expires unused).
 */
export async function probeApproval(authorizeUrl: URL, redirectUri: URL, timeoutMs: number): Promise<Approval> {
  let response: Response;
  try {
    response = await fetch(authorizeUrl, { redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    return { approves: false, unjudged: true, reason: `the authorize endpoint could not be asked (${cause})` };
  }
  const location = response.headers.get('location');
  const target = location ? new URL(location, authorizeUrl) : undefined;
  if (response.status >= 300 && response.status < 400 && target && sameEndpoint(target, redirectUri)) {
    if (target.searchParams.get('code')) return { approves: true };
    const error = target.searchParams.get('error');
    return { approves: false, reason: `the identity provider redirected back without a code${error ? ` (error=${error})` : ''}` };
  }
  const what = `${response.status}${target ? ' with a redirect elsewhere than LP_REDIRECT_URI' : ` ${response.headers.get('content-type') ?? ''}`.trimEnd()}`;
  return {
    approves: false,
    reason: `the authorize endpoint answered ${what}: a person has to sign in and approve, so the flow cannot run unattended here (the sandbox approves without one)`,
  };
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
