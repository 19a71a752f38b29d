// The authorize request of the code grant and the code exchange, built from the model (send/model.ts) like every
// other request: a check changes one part and sends the rest as a valid request has it. Also whether the target
// approves unattended (answers with a redirect to LP_REDIRECT_URI, so that codes can be had without a user).
import { reasonIfCannot } from './capabilities.ts';
import type { Exchange } from './fetch.ts';
import { request } from './model.ts';
import { type Change, unchanged, withForm, withQuery } from './parts.ts';
import { perRun } from './per-run.ts';
import type { Run } from './run.ts';
import { reasonIfUnset, required, type Target } from './target.ts';

export const needsAuthorize = (target: Target) => reasonIfUnset(target, 'LP_AUTH_URL', 'LP_CLIENT_ID', 'LP_SCOPE', 'LP_REDIRECT_URI');
export const needsCodeExchange = (target: Target) =>
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
export async function authorizeWith(run: Run, change: Change = unchanged): Promise<Authorized> {
  const seen = await request(run, 'requestAuthorization', change);
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
export const authorize = (run: Run, overrides: Record<string, string | undefined> = {}) => authorizeWith(run, withQuery(overrides));

/** Same origin and path (the query carries code and state). */
export const sameEndpoint = (a: URL, b: URL) => a.origin === b.origin && a.pathname === b.pathname;

/** The answer is a redirect back to LP_REDIRECT_URI of the target that answered (with a code, or with an error). */
export const redirectedBack = (answer: Authorized) =>
  Math.floor(answer.response.status / 100) === 3 &&
  answer.location !== undefined &&
  sameEndpoint(answer.location, new URL(required(answer.seen.run.target, 'LP_REDIRECT_URI')));

/** The parameters a redirect back carries: its query, and its fragment (RFC 6749 4.2.2.1 answers response_type=token
 * there, errors included). */
export function redirectParameters(location: URL): URLSearchParams {
  const parameters = new URLSearchParams(location.search);
  for (const [name, value] of new URLSearchParams(location.hash.replace(/^#/, ''))) parameters.append(name, value);
  return parameters;
}

/**
 * What an authorize answer means for a run that needs codes without a person:
 * - `approved`: a redirect back to LP_REDIRECT_URI with a code;
 * - `refused`: a redirect back with `error` (RFC 6749 4.1.2.1), e.g. a server that requires PKCE;
 * - `sign-in`: the identity provider shows its login or consent page, or redirects to one of its own (a 200 page, or a
 *   3xx anywhere but LP_REDIRECT_URI, a relative Location included): a person has to sign in;
 * - `other`: any other answer (a 4xx page, a redirect without a Location).
 */
export type AuthorizeOutcome = 'approved' | 'refused' | 'sign-in' | 'other';

export function outcomeOf(answer: Authorized): AuthorizeOutcome {
  const status = answer.response.status;
  if (redirectedBack(answer)) {
    const parameters = redirectParameters(answer.location!);
    if (parameters.has('code')) return 'approved';
    return parameters.has('error') ? 'refused' : 'other';
  }
  if (status === 200) return 'sign-in';
  return Math.floor(status / 100) === 3 && answer.location !== undefined ? 'sign-in' : 'other';
}

/** The answer in words, for a skip reason: never the Location's query (it may carry a code). */
function described(answer: Authorized, outcome: AuthorizeOutcome): string {
  const status = answer.response.status;
  if (outcome === 'sign-in')
    return status === 200
      ? 'the authorize endpoint answered 200 (its login or consent page): a person has to sign in, so no code can be had unattended'
      : `the authorize endpoint answered ${status} with a redirect to a page of its own, not to LP_REDIRECT_URI: a person has to sign in, so no code can be had unattended`;
  if (outcome === 'refused')
    return `the authorize endpoint refused the request with error=${redirectParameters(answer.location!).get('error')}`;
  return `the authorize endpoint answered ${status}${answer.location ? ' with a redirect elsewhere' : ''}, not a redirect to LP_REDIRECT_URI with a code`;
}

/** A PKCE pair (RFC 7636 4.1, 4.2: S256). */
export async function pkcePair(): Promise<{ verifier: string; challenge: string }> {
  const verifier = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return { verifier, challenge: Buffer.from(digest).toString('base64url') };
}

async function probeApproval(run: Run): Promise<string | undefined> {
  const absent = needsAuthorize(run.target) ?? reasonIfCannot(run.target.name, 'hasDataSemantics');
  if (absent) return absent;
  const plain = await authorize(run);
  const outcome = outcomeOf(plain);
  if (outcome === 'approved') return undefined;
  if (outcome !== 'refused') return described(plain, outcome);
  // A refusal of the plain request may be a server that requires PKCE (RFC 7636 4.4.1 answers invalid_request): asked
  // again with an S256 challenge, it shows whether a person has to sign in.
  const { challenge } = await pkcePair();
  const withPkce = await authorize(run, { code_challenge: challenge, code_challenge_method: 'S256' });
  const second = outcomeOf(withPkce);
  const refusal = `${described(plain, outcome)} without PKCE`;
  if (second === 'approved')
    return `${refusal}, and approved it with an S256 code_challenge: the identity provider requires PKCE, and the checks that need a code send none`;
  return `${refusal}; with an S256 code_challenge ${described(withPkce, second).replace(/^the authorize endpoint /, 'it ')}`;
}

/** Undefined when authorize redirects to LP_REDIRECT_URI with a code unattended, else why the code-grant checks cannot
 * run (settings, a person who has to sign in, a refusal). Probed once per run: the answer does not change in a run. */
export const unattendedApproval = perRun(
  (run): Promise<string | undefined> =>
    // A probe that got no answer to judge is asked again by the next check, not taken as the answer.
    probeApproval(run).catch((error: unknown) => {
      unattendedApproval.forget(run);
      throw error;
    }),
);

/** A fresh code for the registered redirect URI (the caller has checked unattendedApproval), from an authorize request
 * with `change` applied (e.g. a PKCE challenge). */
export async function freshCode(run: Run, change: Change = unchanged): Promise<string> {
  const { location } = await authorizeWith(run, change);
  const code = location && redirectParameters(location).get('code');
  if (!code) throw new Error('the authorize endpoint redirected without a code');
  return code;
}

/** A code exchange at the identity provider for `code`, with `fields` replacing the valid request's form fields
 * (an undefined value removes one). */
export const exchangeCode = (run: Run, fields: Record<string, string | undefined> & { code: string }) =>
  request(run, 'requestIdentityProviderToken', withForm(fields), { variant: 'authorization_code', values: { code: fields.code } });
