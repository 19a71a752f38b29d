// The authorize request of the code grant, for the security checks that vary one of its parameters, and whether the
// target approves unattended (answers with a redirect to LP_REDIRECT_URI, so that codes can be had without a user).
import { buildAuthorizationUrl } from '../../src/index.ts';
import { exchange } from './fetch.ts';
import { FORM, form, send, statusClass } from './requests.ts';
import { reasonIfUnset, required, target } from './target.ts';

export const needsAuthorize = () => reasonIfUnset(target, 'LP_AUTH_URL', 'LP_CLIENT_ID', 'LP_SCOPE', 'LP_REDIRECT_URI');
export const needsCodeExchange = () =>
  reasonIfUnset(target, 'LP_AUTH_URL', 'LP_CLIENT_ID', 'LP_CLIENT_SECRET', 'LP_SCOPE', 'LP_REDIRECT_URI', 'LP_SUBSCRIPTION_KEY');

/** Sends the authorize request built by the published client, with `overrides` replacing its query parameters;
 * follows no redirect. */
export async function authorize(overrides: Record<string, string> = {}) {
  const request = await buildAuthorizationUrl({
    authUrl: required(target, 'LP_AUTH_URL'),
    clientId: required(target, 'LP_CLIENT_ID'),
    redirectUri: required(target, 'LP_REDIRECT_URI'),
    scope: required(target, 'LP_SCOPE'),
  });
  const url = new URL(request.url);
  for (const [name, value] of Object.entries(overrides)) url.searchParams.set(name, value);
  const seen = await exchange(url, { redirect: 'manual' });
  const { response } = seen;
  const location = response.headers.get('location');
  return {
    url,
    response,
    seen,
    location: location && URL.canParse(location, url) ? new URL(location, url) : undefined,
    state: url.searchParams.get('state')!,
  };
}

/** Same origin and path (the query carries code and state). */
export const sameEndpoint = (a: URL, b: URL) => a.origin === b.origin && a.pathname === b.pathname;

/** Undefined when authorize redirects to LP_REDIRECT_URI unattended, else why the code-grant checks cannot run. */
export async function unattendedApproval(): Promise<string | undefined> {
  const absent = needsAuthorize();
  if (absent) return absent;
  const { response, location } = await authorize();
  if (statusClass(response.status) === 3 && location && sameEndpoint(location, new URL(required(target, 'LP_REDIRECT_URI'))))
    return undefined;
  return `the authorize endpoint answered ${response.status}${location ? ' with a redirect elsewhere' : ''}, not a redirect to LP_REDIRECT_URI: the flow needs a user to log in`;
}

/** A fresh code for the registered redirect URI (the caller has checked unattendedApproval). */
export async function freshCode(): Promise<string> {
  const { location } = await authorize();
  const code = location?.searchParams.get('code');
  if (!code) throw new Error('the authorize endpoint redirected without a code');
  return code;
}

/** A raw authorization_code exchange at the identity provider, with `fields` replacing the right ones. */
export const exchangeCode = (fields: Record<string, string | undefined>) =>
  send(target, 'LP_AUTH_URL', '/oauth2/default/v1/token', {
    method: 'POST',
    headers: { ...FORM, 'Ocp-Apim-Subscription-Key': required(target, 'LP_SUBSCRIPTION_KEY') },
    body: form({
      grant_type: 'authorization_code',
      client_id: target.env.LP_CLIENT_ID,
      client_secret: target.env.LP_CLIENT_SECRET,
      redirect_uri: target.env.LP_REDIRECT_URI,
      ...fields,
    }),
  });
