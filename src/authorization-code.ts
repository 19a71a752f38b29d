// The authorization code grant: build the authorize URL (random state, optional PKCE S256), check the callback
// (state compared in constant time, `error` surfaced), and exchange the code with the exact same redirect_uri.
// Uses Web Crypto only, so it runs in Node and in browsers.
import type { components } from '../generated/token.js';
import { requireBaseUrl, requireString, resolveTransport, type TransportOptions } from './client-options.js';
import { Secrets } from './secrets.js';
import { buildTokenClient, requireAccessToken } from './token-client.js';

/** @internal */
export const AUTHORIZE_PATH = '/oauth2/default/v1/authorize';

export interface AuthorizationUrlOptions {
  /** {auth_url}: the identity provider, with any path prefix. Each string option is required: `undefined` fails, naming it. */
  authUrl: string | undefined;
  clientId: string | undefined;
  redirectUri: string | undefined;
  scope: string | undefined;
  /** Add a PKCE code_challenge (S256) and return its code_verifier (default false). */
  pkce?: boolean | undefined;
}

export interface AuthorizationRequest {
  url: string;
  /** Random value to keep (e.g. in the session) and pass to parseAuthorizationCallback. */
  state: string;
  redirectUri: string;
  /** With pkce: keep it and pass it to exchangeAuthorizationCode. */
  codeVerifier?: string;
  codeChallenge?: string;
}

export async function buildAuthorizationUrl(options: AuthorizationUrlOptions): Promise<AuthorizationRequest> {
  const factory = 'buildAuthorizationUrl';
  const authUrl = requireBaseUrl(factory, 'authUrl', options.authUrl);
  const redirectUri = requireString(factory, 'redirectUri', options.redirectUri);
  const url = new URL(`${authUrl}${AUTHORIZE_PATH}`);
  const state = randomToken(32);
  url.searchParams.set('client_id', requireString(factory, 'clientId', options.clientId));
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('scope', requireString(factory, 'scope', options.scope));
  url.searchParams.set('state', state);
  if (!options.pkce) return { url: url.toString(), state, redirectUri };
  // RFC 7636: a 43-128 character verifier; 32 random bytes give 43 base64url characters.
  const codeVerifier = randomToken(32);
  const codeChallenge = base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(codeVerifier))));
  url.searchParams.set('code_challenge', codeChallenge);
  url.searchParams.set('code_challenge_method', 'S256');
  return { url: url.toString(), state, redirectUri, codeVerifier, codeChallenge };
}

/** The identity provider sent the user back with `error` (RFC 6749 section 4.1.2.1), or the state did not match. */
export class AuthorizationError extends Error {
  override readonly name = 'AuthorizationError';
  constructor(
    message: string,
    /** The `error` parameter (e.g. access_denied), or 'state_mismatch' / 'missing_code'. */
    readonly code: string,
    readonly description?: string,
  ) {
    super(message);
  }
}

export interface AuthorizationCallback {
  code: string;
  state: string;
}

/** Checks the redirect the browser came back with; throws AuthorizationError unless it carries a code and our state. */
export function parseAuthorizationCallback(callbackUrl: string | URL, expected: { state: string }): AuthorizationCallback {
  // Stryker disable next-line ConditionalExpression: new URL() of a URL object and a base is a copy of that URL
  const url = typeof callbackUrl === 'string' ? new URL(callbackUrl, 'http://callback.invalid') : callbackUrl;
  const received = url.searchParams.get('state');
  // Stryker disable next-line StringLiteral: a missing state fails as any string but the one sent does ('' included: an empty expected state is refused)
  const state = received ?? '';
  // State first: an error redirect that is not ours must not be reported as the provider's answer.
  if (!expected.state || !constantTimeEqual(state, expected.state)) {
    throw new AuthorizationError(
      'The authorization callback state does not match the state sent: possible cross-site request forgery; start again.',
      'state_mismatch',
    );
  }
  const error = url.searchParams.get('error');
  if (error) {
    const description = url.searchParams.get('error_description') ?? undefined;
    throw new AuthorizationError(
      `The identity provider refused the authorization: ${error}${description ? ` (${description})` : ''}`,
      error,
      description,
    );
  }
  const code = url.searchParams.get('code');
  if (!code) throw new AuthorizationError('The authorization callback carries no code.', 'missing_code');
  return { code, state };
}

export interface ExchangeAuthorizationCodeOptions extends TransportOptions {
  /** Each string option but codeVerifier is required: `undefined` (an unset variable) fails at once, naming it. */
  authUrl: string | undefined;
  clientId: string | undefined;
  clientSecret: string | undefined;
  subscriptionKey: string | undefined;
  code: string;
  /** Exactly the redirect_uri of the authorization request. */
  redirectUri: string | undefined;
  /** The codeVerifier of buildAuthorizationUrl's result (undefined without PKCE). */
  codeVerifier?: string | undefined;
}

export type IdentityProviderToken = components['schemas']['IdentityProviderTokenResponse'];

/** Exchanges the code at POST {auth_url}/oauth2/default/v1/token; throws ApiError when refused or answered without a token. */
export async function exchangeAuthorizationCode(options: ExchangeAuthorizationCodeOptions): Promise<IdentityProviderToken> {
  const factory = 'exchangeAuthorizationCode';
  const secrets = new Secrets();
  secrets.add(options.clientSecret);
  secrets.add(options.code);
  secrets.add(options.codeVerifier);
  const subscriptionKey = requireString(factory, 'subscriptionKey', options.subscriptionKey);
  secrets.add(subscriptionKey);
  const client = buildTokenClient({
    baseUrl: undefined,
    authUrl: requireBaseUrl(factory, 'authUrl', options.authUrl),
    subscriptionKey,
    transport: resolveTransport(factory, options),
    secrets,
    factory,
  });
  const { data, response } = await client.POST('/oauth2/default/v1/token', {
    body: {
      grant_type: 'authorization_code',
      client_id: requireString(factory, 'clientId', options.clientId),
      client_secret: requireString(factory, 'clientSecret', options.clientSecret),
      code: requireString(factory, 'code', options.code),
      redirect_uri: requireString(factory, 'redirectUri', options.redirectUri),
      ...(options.codeVerifier ? { code_verifier: options.codeVerifier } : {}),
    },
  });
  requireAccessToken(data, response, 'POST /oauth2/default/v1/token');
  return data;
}

function randomToken(bytes: number): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  // Stryker disable next-line Regex: the base64 of 32 bytes (a random token, a SHA-256 digest) ends in exactly one '='
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Compares without an early exit, so the time taken does not reveal how much of a guess was right. */
function constantTimeEqual(a: string, b: string): boolean {
  const left = new TextEncoder().encode(a);
  const right = new TextEncoder().encode(b);
  let difference = left.length ^ right.length;
  // Stryker disable next-line EqualityOperator,MethodExpression: past the shorter string both sides read 0, and strings of other lengths already differ by length
  for (let i = 0; i < Math.max(left.length, right.length); i += 1) difference |= (left[i] ?? 0) ^ (right[i] ?? 0);
  return difference === 0;
}
