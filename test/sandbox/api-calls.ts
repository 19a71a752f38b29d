// Plain-fetch calls to the sandbox used by several tests, with the sandbox's default
// (public, test-only) credentials.
import { SANDBOX_DEFAULTS } from '../../sandbox/config.ts';

export const defaults = SANDBOX_DEFAULTS;

export function postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

export async function serviceToken(origin: string): Promise<string> {
  const response = await postForm(`${origin}/svc/token`, {
    grant_type: 'client_credentials',
    client_id: defaults.LP_CLIENT_ID,
    client_secret: defaults.LP_CLIENT_SECRET,
  });
  if (response.status !== 200) throw new Error(`token request answered ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

export function idpToken(
  origin: string,
  fields: Record<string, string>,
  subscriptionKey: string | null = defaults.LP_SUBSCRIPTION_KEY,
): Promise<Response> {
  return postForm(
    `${origin}/idp/oauth2/default/v1/token`,
    { client_id: defaults.LP_CLIENT_ID, client_secret: defaults.LP_CLIENT_SECRET, ...fields },
    subscriptionKey === null ? {} : { 'ocp-apim-subscription-key': subscriptionKey },
  );
}

/** GET the authorize endpoint without following the redirect. */
export function authorize(origin: string, params: Record<string, string>): Promise<Response> {
  const query = new URLSearchParams({
    client_id: defaults.LP_CLIENT_ID,
    response_type: 'code',
    redirect_uri: defaults.LP_REDIRECT_URI,
    scope: defaults.LP_SCOPE,
    ...params,
  });
  return fetch(`${origin}/idp/oauth2/default/v1/authorize?${query}`, { redirect: 'manual' });
}

/** Runs the authorize step and returns the code from the redirect. */
export async function authorizationCode(origin: string, params: Record<string, string> = {}): Promise<string> {
  const response = await authorize(origin, params);
  const location = response.headers.get('location');
  if (response.status !== 302 || !location) throw new Error(`authorize answered ${response.status}`);
  const code = new URL(location).searchParams.get('code');
  if (!code) throw new Error(`redirect carried no code: ${new URL(location).searchParams.get('error')}`);
  return code;
}

export function recordMilestone(
  origin: string,
  token: string | undefined,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${origin}/svc/v1/load-milestone-events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export const aMilestone = { load_id: 'LD-TEST-1', milestone_type: 'PICKED_UP', event_time: '2026-11-22T14:30:00Z' };

export function advanceClock(origin: string, seconds: number): Promise<Response> {
  return fetch(`${origin}/_sandbox/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advanceSeconds: seconds }),
  });
}

export function fleetGet(origin: string, pathAndQuery: string, apiKey: string | null = defaults.LP_FLEET_API_KEY): Promise<Response> {
  return fetch(`${origin}/fleet${pathAndQuery}`, { headers: apiKey === null ? {} : { 'api-key': apiKey } });
}
