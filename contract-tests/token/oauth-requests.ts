// What the OAuth clause checks (oauth-clauses.test.ts, oauth-token-clauses.test.ts) send and read: the authorize
// request of the published client with parameters changed, the token endpoints this target has settings for, and how
// an answer is described in a message (never a code, a token or a credential).
import { buildAuthorizationUrl } from '../../src/index.ts';
import { needsAuthorize, sameEndpoint, unattendedApproval } from '../send/authorization.ts';
import { statusClass } from '../judge/answers.ts';
import { reasonIfCannot } from '../send/capabilities.ts';
import { type Exchange, exchange } from '../send/fetch.ts';
import { request } from '../send/model.ts';
import { withForm } from '../send/parts.ts';
import type { Ledger } from '../send/ledger.ts';
import type { Run } from '../send/run.ts';
import { reasonIfUnset, required, type Target } from '../send/target.ts';
import { currentTest } from '../send/test-scope.ts';

export const AUTHORIZE = ['requestAuthorization'];
export const CODE_GRANT = ['requestAuthorization', 'requestIdentityProviderToken'];
export const TOKEN_ENDPOINTS = ['requestServiceToken', 'requestIdentityProviderToken'];

/** Why the checks that need an approving redirect cannot run: the settings, the mock (no data), or an authorize
 * endpoint that does not approve unattended (a user must log in). Asked in a file's beforeAll. */
export const whyNoApproval = async (run: Run): Promise<string | undefined> =>
  needsAuthorize(run.target) ?? reasonIfCannot(run.target.name, 'hasDataSemantics') ?? (await unattendedApproval(run));

/** The authorize request of the published client (with PKCE when asked), its parameters replaced or added by
 * `overrides` (an undefined value removes one); follows no redirect. */
export async function authorizeWith(run: Run, overrides: Record<string, string | undefined> = {}, options: { pkce?: boolean } = {}) {
  const { target } = run;
  const request = await buildAuthorizationUrl({
    authUrl: required(target, 'LP_AUTH_URL'),
    clientId: required(target, 'LP_CLIENT_ID'),
    redirectUri: required(target, 'LP_REDIRECT_URI'),
    scope: required(target, 'LP_SCOPE'),
    pkce: options.pkce,
  });
  const url = new URL(request.url);
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) url.searchParams.delete(name);
    else url.searchParams.set(name, value);
  }
  const seen = await exchange(run, url, { redirect: 'manual' });
  const header = seen.response.headers.get('location');
  const location = header !== null && URL.canParse(header, url) ? new URL(header, url) : undefined;
  return { request, url, seen, response: seen.response, header, location, state: url.searchParams.get('state') ?? undefined };
}
export type Authorized = Awaited<ReturnType<typeof authorizeWith>>;

/** A redirect back to LP_REDIRECT_URI of the target that answered (origin and path; the query carries the answer). */
export const redirectedBack = (answer: Authorized) =>
  statusClass(answer.response.status) === 3 &&
  answer.location !== undefined &&
  sameEndpoint(answer.location, new URL(required(answer.seen.run.target, 'LP_REDIRECT_URI')));

/** What came back, for messages: never the Location's query (it may carry a code). */
export const answered = (answer: Authorized) =>
  `${answer.response.status}${answer.location ? ` with a redirect to ${redirectedBack(answer) ? 'LP_REDIRECT_URI' : 'another address'}` : ''}`;

/** What a check left unjudged on this target, and why: printed, and listed in the report's "Noted, not judged". (A
 * skip after requests would leave their answers unjudged: setup.ts fails the file on them in strict runs.) */
export function noteNotJudged(ledger: Ledger, operationId: string, text: string): void {
  console.log(`${currentTest()}: ${text}`);
  ledger.record({ kind: 'note', operationId, dimension: 'OAuth clauses', text, test: currentTest() });
}

export const randomToken = (bytes = 24) => Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('base64url');

export interface TokenEndpoint {
  operationId: 'requestServiceToken' | 'requestIdentityProviderToken';
  label: string;
  /** A client credentials request through the run, its form fields replaced by `fields` (undefined removes one). */
  post(run: Run, fields?: Record<string, string | undefined>): Promise<Exchange>;
}

export const SERVICE: TokenEndpoint = {
  operationId: 'requestServiceToken',
  label: 'POST {base_url}/token',
  post: (run, fields = {}) => request(run, 'requestServiceToken', withForm(fields)),
};

export const IDENTITY_PROVIDER: TokenEndpoint = {
  operationId: 'requestIdentityProviderToken',
  label: 'POST {auth_url}/oauth2/default/v1/token',
  post: (run, fields = {}) => request(run, 'requestIdentityProviderToken', withForm(fields), { variant: 'client_credentials' }),
};

/** The token endpoints the target has settings for (a partner may configure one API only). */
export const tokenEndpoints = (target: Target): TokenEndpoint[] => [
  ...(reasonIfUnset(target, 'LP_BASE_URL', 'LP_CLIENT_ID', 'LP_CLIENT_SECRET') ? [] : [SERVICE]),
  ...(reasonIfUnset(target, 'LP_AUTH_URL', 'LP_CLIENT_ID', 'LP_CLIENT_SECRET', 'LP_SCOPE', 'LP_SUBSCRIPTION_KEY')
    ? []
    : [IDENTITY_PROVIDER]),
];
export const NO_TOKEN_ENDPOINT =
  'neither token endpoint is configured (LP_BASE_URL, LP_CLIENT_ID, LP_CLIENT_SECRET; or LP_AUTH_URL, LP_CLIENT_ID, LP_CLIENT_SECRET, LP_SCOPE, LP_SUBSCRIPTION_KEY)';

/** A well-formed S256 challenge (43 base64url characters) of no verifier the suite keeps. */
export function unknownChallenge(): string {
  return randomToken(32);
}

export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
