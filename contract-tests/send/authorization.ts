// The authorize request of the code grant and the code exchange, built from the model (send/model.ts) like every
// other request: a check changes one part and sends the rest as a valid request has it. Also whether the target
// approves unattended (answers with a redirect to LP_REDIRECT_URI, so that codes can be had without a user).
import type { Exchange } from './fetch.ts';
import { request } from './model.ts';
import { type Change, unchanged, withForm, withQuery } from './parts.ts';
import { reasonIfUnset, required, target } from './target.ts';

export const needsAuthorize = () => reasonIfUnset(target, 'LP_AUTH_URL', 'LP_CLIENT_ID', 'LP_SCOPE', 'LP_REDIRECT_URI');
export const needsCodeExchange = () =>
  reasonIfUnset(target, 'LP_AUTH_URL', 'LP_CLIENT_ID', 'LP_CLIENT_SECRET', 'LP_SCOPE', 'LP_REDIRECT_URI', 'LP_SUBSCRIPTION_KEY');

export interface Authorized {
  seen: Exchange;
  response: Response;
  /** The request's URL (its query as sent). */
  url: URL;
  /** The Location of the answer, resolved against the request; undefined when it has none. */
  location: URL | undefined;
  /** The state the request sent. */
  state: string | undefined;
}

/** Sends a valid authorize request with `change` applied; follows no redirect. */
export async function authorizeWith(change: Change = unchanged): Promise<Authorized> {
  const seen = await request('requestAuthorization', change);
  const url = new URL(seen.request.url);
  const header = seen.response.headers.get('location');
  return {
    seen,
    response: seen.response,
    url,
    location: header !== null && URL.canParse(header, url) ? new URL(header, url) : undefined,
    state: url.searchParams.get('state') ?? undefined,
  };
}

/** Sends the authorize request with `overrides` replacing its query parameters (an undefined value removes one). */
export const authorize = (overrides: Record<string, string | undefined> = {}) => authorizeWith(withQuery(overrides));

/** Same origin and path (the query carries code and state). */
export const sameEndpoint = (a: URL, b: URL) => a.origin === b.origin && a.pathname === b.pathname;

/** The answer is a redirect back to LP_REDIRECT_URI. */
export const redirectedBack = (answer: Authorized) =>
  Math.floor(answer.response.status / 100) === 3 &&
  answer.location !== undefined &&
  sameEndpoint(answer.location, new URL(required(target, 'LP_REDIRECT_URI')));

/** Undefined when authorize redirects to LP_REDIRECT_URI unattended, else why the code-grant checks cannot run. */
export async function unattendedApproval(): Promise<string | undefined> {
  const absent = needsAuthorize();
  if (absent) return absent;
  const answer = await authorize();
  if (redirectedBack(answer)) return undefined;
  return `the authorize endpoint answered ${answer.response.status}${answer.location ? ' with a redirect elsewhere' : ''}, not a redirect to LP_REDIRECT_URI: the flow needs a user to log in`;
}

/** A fresh code for the registered redirect URI (the caller has checked unattendedApproval), from an authorize request
 * with `change` applied (e.g. a PKCE challenge). */
export async function freshCode(change: Change = unchanged): Promise<string> {
  const { location } = await authorizeWith(change);
  const code = location?.searchParams.get('code');
  if (!code) throw new Error('the authorize endpoint redirected without a code');
  return code;
}

/** A code exchange at the identity provider for `code`, with `fields` replacing the valid request's form fields
 * (an undefined value removes one). */
export const exchangeCode = (fields: Record<string, string | undefined> & { code: string }) =>
  request('requestIdentityProviderToken', withForm(fields), { variant: 'authorization_code', values: { code: fields.code } });
