// The OAuth clauses as a table: each MUST / MUST NOT / REQUIRED / SHALL of RFC 6749 (OAuth 2.0), RFC 6750 (bearer
// token usage) and RFC 7636 (PKCE, which the spec lets a client send) that bears on the flows of the token spec:
// client credentials at POST {base_url}/token and at POST {auth_url}/oauth2/default/v1/token, the authorization code
// grant (GET {auth_url}/oauth2/default/v1/authorize, its redirects, the code exchange), and bearer tokens on
// POST {base_url}/v1/load-milestone-events. Each clause names the check that asserts it, or why no request can check
// it, or why it does not bear on these flows: "pending" is not a reason, and self/oauth-clauses.test.ts fails on a
// clause without one of the three. Most checks of these clauses are in token/oauth-clauses.test.ts.
// The clause texts paraphrase the RFCs with their section numbers; they are not quotations.

import { EXCHANGE_CHECKS } from './exchange-checks.ts';

export type Rfc = '6749' | '6750' | '7636';
export type Level = 'MUST' | 'MUST NOT' | 'REQUIRED' | 'SHALL';

export interface CheckRef {
  /** Test file from the repository root, e.g. contract-tests/token/authorization-code.test.ts. */
  file: string;
  /** A substring of exactly one it(...) title of that file (the raw title, before any %s substitution). */
  test: string;
  /** The exchange check that judges the clause on every exchange, whichever test sent it; the test above is one that
   * sends the requests that provoke it. */
  exchangeCheck?: string;
}

interface ClauseCore {
  /** RFC<rfc>-<section>-<slug>. */
  id: string;
  rfc: Rfc;
  section: string;
  level: Level;
  /** The clause in a few words of our own. */
  text: string;
  /** Why it bears on the flows of the specs. */
  applies: string;
  /** What the reader of the table should know about the check or the reason (e.g. what the check leaves out). */
  note?: string;
}

/** Exactly one of: a check that asserts (or, where the spec guessed the detail, records) the clause; why no request
 * can check it; why it does not bear on these flows. There is no pending state. */
export type Clause = ClauseCore &
  (
    | { check: CheckRef; untestable?: never; notApplicable?: never }
    | { untestable: string; check?: never; notApplicable?: never }
    | { notApplicable: string; check?: never; untestable?: never }
  );

export type Coverage = 'checked' | 'untestable' | 'not applicable';
export type ClauseRow = Clause & { coverage: Coverage };

const SERVICE_TOKEN = 'contract-tests/token/service-token.test.ts';
const IDP_TOKEN = 'contract-tests/token/identity-provider.test.ts';
const CODE_GRANT = 'contract-tests/token/authorization-code.test.ts';
const EXPIRY = 'contract-tests/token/expiry.test.ts';
const REDIRECT_NEAR_MISSES = 'contract-tests/security/authorization-near-misses.test.ts';
const MILESTONES = 'contract-tests/carriers/load-milestone-events.test.ts';
const CLAUSE_CHECKS = 'contract-tests/token/oauth-clauses.test.ts';
const AUTH_MATRIX = 'contract-tests/security/auth-matrix-checks.ts';

const TLS =
  'Needs TLS on a real host: the mock and the sandbox listen on loopback without TLS, and probing whether a live host refuses plain http would send the credentials or the token in clear text.';
const SECOND_CLIENT =
  'Needs a second registered client, to exchange a code issued to the first one with its own valid credentials; the suite is configured with one client (LP_CLIENT_ID, LP_CLIENT_SECRET).';
const BROWSER_USER =
  'Needs a user in a browser: the suite runs the code grant only against targets that approve unattended (a test user already signed in and consenting), so the login and consent pages are never seen.';
const BINDS_CLIENT = 'Binds the client, not the server the suite checks';
const NO_PUBLIC_CLIENTS =
  'every client of these flows is confidential: both token endpoints and both grants require client_secret (ServiceTokenRequest, ClientCredentialsGrantRequest, AuthorizationCodeGrantRequest), and the clients are registered in the developer portal with a secret.';
const BASIC_UNUSED =
  'HTTP Basic client authentication is not part of the seed’s flows: they send client_id and client_secret in the form body, which RFC 6749 2.3.1 also allows.';
const PKCE_UNSEEN =
  'The seed does not mention PKCE; the spec assumes it is accepted and optional (x-assumptions pkceAuthorize and pkceExchange).';

export const OAUTH_CLAUSES: readonly Clause[] = [
  // RFC 6749 section 2.3: client authentication.
  {
    id: 'RFC6749-2.3-public-client-not-identified',
    rfc: '6749',
    section: '2.3',
    level: 'MUST NOT',
    text: 'The authorization server must not rely on the authentication of a public client to identify it.',
    applies: 'Client authentication at both token endpoints.',
    notApplicable: `There are no public clients: ${NO_PUBLIC_CLIENTS}`,
  },
  {
    id: 'RFC6749-2.3.1-basic-supported',
    rfc: '6749',
    section: '2.3.1',
    level: 'MUST',
    text: 'For clients issued a client password, the authorization server must support HTTP Basic authentication (form-urlencoded client_id and secret as user name and password).',
    applies: 'Both token endpoints authenticate clients by a client password (client_secret).',
    notApplicable: `${BASIC_UNUSED} The specs require client_secret as a form field (ServiceTokenRequest, ClientCredentialsGrantRequest, AuthorizationCodeGrantRequest) and document no Authorization header for the token endpoints, so a server without Basic still serves every flow of the seed.`,
    note: 'Should the specs add Basic, this becomes a check: a client credentials request to each token endpoint with Authorization: Basic base64(urlencode(client_id) ":" urlencode(client_secret)) and no credential in the body gets a token.',
  },
  {
    id: 'RFC6749-2.3.1-tls-for-passwords',
    rfc: '6749',
    section: '2.3.1',
    level: 'MUST',
    text: 'The authorization server must require TLS for requests that authenticate a client with a password.',
    applies: 'client_secret travels to both token endpoints.',
    untestable: TLS,
  },
  {
    id: 'RFC6749-2.3.1-brute-force',
    rfc: '6749',
    section: '2.3.1',
    level: 'MUST',
    text: 'An endpoint that authenticates clients by password must be protected against brute-force guessing.',
    applies: 'Both token endpoints take client_secret.',
    untestable:
      'No bounded number of wrong secrets shows the protection (a lockout, a growing delay or an alert all qualify), and probing for a lockout on a live target would lock out the partner’s own client; the suite sends a few near misses per run only.',
  },
  // RFC 6749 section 3.1: the authorization endpoint.
  {
    id: 'RFC6749-3.1-tls',
    rfc: '6749',
    section: '3.1',
    level: 'MUST',
    text: 'The authorization server must require TLS on the authorization endpoint (the user’s credentials pass through it).',
    applies: 'GET {auth_url}/oauth2/default/v1/authorize.',
    untestable: TLS,
  },
  {
    id: 'RFC6749-3.1-verify-resource-owner',
    rfc: '6749',
    section: '3.1',
    level: 'MUST',
    text: 'The authorization server must first verify the identity of the resource owner (the user logs in).',
    applies: 'The authorize step of the authorization code grant.',
    untestable: BROWSER_USER,
  },
  {
    id: 'RFC6749-3.1-get-supported',
    rfc: '6749',
    section: '3.1',
    level: 'MUST',
    text: 'The authorization endpoint must support GET (POST is optional).',
    applies: 'The spec documents the authorize step as GET {auth_url}/oauth2/default/v1/authorize.',
    check: { file: CODE_GRANT, test: 'redirects to the registered redirect_uri with a code and the state unchanged' },
    note: 'A GET that is approved unattended must answer the redirect with a code.',
  },
  {
    id: 'RFC6749-3.1-empty-as-omitted',
    rfc: '6749',
    section: '3.1',
    level: 'MUST',
    text: 'At the authorization endpoint, a parameter sent without a value must be treated as if it were omitted.',
    applies: 'The authorize request has optional parameters (state, code_challenge, code_challenge_method).',
    check: { file: CLAUSE_CHECKS, test: 'authorize treats an empty code_challenge and code_challenge_method as omitted' },
    note: 'The approving redirect must carry a code and the state, and the code must then be exchanged without a code_verifier (no challenge was bound to it).',
  },
  {
    id: 'RFC6749-3.1-ignore-unknown-parameters',
    rfc: '6749',
    section: '3.1',
    level: 'MUST',
    text: 'The authorization endpoint must ignore request parameters it does not recognise.',
    applies: 'Clients may add parameters of extensions (e.g. nonce, prompt) to the authorize request.',
    check: { file: CLAUSE_CHECKS, test: 'authorize ignores a parameter it does not recognise' },
    note: 'Adds contract_probe=1; parameters of extensions the server may know (nonce, prompt) are not sent, since it may act on them.',
  },
  {
    id: 'RFC6749-3.1-response-parameters-once',
    rfc: '6749',
    section: '3.1',
    level: 'MUST NOT',
    text: 'Response parameters of the authorization endpoint must not appear more than once.',
    applies: 'The approving redirect carries code and state in its query.',
    check: {
      file: REDIRECT_NEAR_MISSES,
      test: 'authorize returns each tricky state exactly once and exactly as sent',
      exchangeCheck: 'authorize-redirect',
    },
    note: 'Asserts one state and at most one code per redirect, including for states that look like more parameters.',
  },
  {
    id: 'RFC6749-3.1.1-response-type-error',
    rfc: '6749',
    section: '3.1.1',
    level: 'MUST',
    text: 'A missing or not understood response_type must get an error response as described in 4.1.2.1.',
    applies: 'response_type is always `code` in the spec; a client may send none or another one.',
    check: {
      file: CLAUSE_CHECKS,
      test: 'a missing or unsupported response_type is redirected back with an error and the state, never a code',
      exchangeCheck: 'authorize-redirect',
    },
    note: 'Without response_type and with response_type=token: an error response (a redirect back to LP_REDIRECT_URI, or a 4xx), never a code or a token. Whether the error is redirected rather than shown is the spec’s guess (x-assumption authorizeBehaviour), recorded.',
  },
  // RFC 6749 section 3.1.2: the redirection endpoint.
  {
    id: 'RFC6749-3.1.2-query-retained',
    rfc: '6749',
    section: '3.1.2',
    level: 'MUST',
    text: 'A query component of the redirection URI must be kept when the server adds its parameters.',
    applies: 'authorize redirects to the registered LP_REDIRECT_URI with code and state added.',
    check: { file: CLAUSE_CHECKS, test: 'the approving redirect keeps the query of the registered redirect URI' },
    note: 'Runs only when LP_REDIRECT_URI has a query (the sandbox’s default has none; the check is skipped with that reason); then each of its parameters must be in the approving redirect beside the code.',
  },
  {
    id: 'RFC6749-3.1.2-no-fragment',
    rfc: '6749',
    section: '3.1.2',
    level: 'MUST NOT',
    text: 'A redirection URI must not include a fragment component.',
    applies: 'redirect_uri of the authorize request.',
    check: {
      file: REDIRECT_NEAR_MISSES,
      test: 'authorize never redirects to a near miss of LP_REDIRECT_URI',
      exchangeCheck: 'authorize-redirect',
    },
    note: 'Its "with a fragment" near miss must never be redirected back to the client.',
  },
  {
    id: 'RFC6749-3.1.2.2-registration-required',
    rfc: '6749',
    section: '3.1.2.2',
    level: 'MUST',
    text: 'Public clients, and confidential clients of the implicit grant, must register their redirection endpoint.',
    applies: 'The code grant redirects to LP_REDIRECT_URI, registered at onboarding.',
    notApplicable: `Neither public clients nor the implicit grant take part (response_type is always code): ${NO_PUBLIC_CLIENTS} That registration is enforced is the 3.1.2.3 rows.`,
  },
  {
    id: 'RFC6749-3.1.2.3-match-registered',
    rfc: '6749',
    section: '3.1.2.3',
    level: 'MUST',
    text: 'A redirect_uri sent with the authorization request must be compared and matched with the client’s registered redirection URIs.',
    applies: 'authorize takes redirect_uri; the registered one is LP_REDIRECT_URI.',
    check: { file: CODE_GRANT, test: 'never redirects to an unregistered redirect_uri', exchangeCheck: 'authorize-redirect' },
  },
  {
    id: 'RFC6749-3.1.2.3-simple-string-comparison',
    rfc: '6749',
    section: '3.1.2.3',
    level: 'MUST',
    text: 'When the full redirection URI was registered, the server must compare by simple string comparison (RFC 3986 6.2.1).',
    applies: 'The portal registers the full redirect URI of the application.',
    check: {
      file: REDIRECT_NEAR_MISSES,
      test: 'authorize never redirects to a near miss of LP_REDIRECT_URI',
      exchangeCheck: 'authorize-redirect',
    },
    note: 'Near misses: case, trailing slash, extra and dot segments, encodings, query, fragment, port, scheme, host prefix, user info, whitespace.',
  },
  {
    id: 'RFC6749-3.1.2.4-no-redirect-invalid-uri',
    rfc: '6749',
    section: '3.1.2.4',
    level: 'MUST NOT',
    text: 'A request failing for a missing, invalid or mismatching redirection URI must not redirect the user agent to it.',
    applies: 'authorize with a redirect_uri that is not the registered one.',
    check: {
      file: REDIRECT_NEAR_MISSES,
      test: 'authorize never redirects to a near miss of LP_REDIRECT_URI',
      exchangeCheck: 'authorize-redirect',
    },
  },
  // RFC 6749 section 3.2: the token endpoint.
  {
    id: 'RFC6749-3.2-tls',
    rfc: '6749',
    section: '3.2',
    level: 'MUST',
    text: 'The authorization server must require TLS on the token endpoint (credentials and tokens pass in clear text).',
    applies: 'Both token endpoints.',
    untestable: TLS,
  },
  {
    id: 'RFC6749-3.2-post',
    rfc: '6749',
    section: '3.2',
    level: 'MUST',
    text: 'The client must use POST for access token requests.',
    applies: 'Both token endpoints are documented as POST only.',
    notApplicable: `${BINDS_CLIENT}: the suite and the published client always POST to the token endpoints.`,
  },
  {
    id: 'RFC6749-3.2-empty-as-omitted',
    rfc: '6749',
    section: '3.2',
    level: 'MUST',
    text: 'At the token endpoint, a parameter sent without a value must be treated as if it were omitted.',
    applies: 'The code exchange has an optional parameter (code_verifier).',
    check: { file: CLAUSE_CHECKS, test: 'the code exchange treats an empty code_verifier as omitted' },
    note: 'A code issued without PKCE, exchanged with code_verifier= (empty): the same 2xx token as without it.',
  },
  {
    id: 'RFC6749-3.2-ignore-unknown-parameters',
    rfc: '6749',
    section: '3.2',
    level: 'MUST',
    text: 'The token endpoint must ignore request parameters it does not recognise.',
    applies: 'Both token endpoints; clients may send extension parameters (e.g. audience, resource).',
    check: { file: CLAUSE_CHECKS, test: 'both token endpoints ignore a form field they do not recognise' },
    note: 'Client credentials with contract_probe=1 at both endpoints; the code exchange is not varied. Extension parameters a server may know (audience, resource) are not sent, since it may act on them.',
  },
  {
    id: 'RFC6749-3.2-response-parameters-once',
    rfc: '6749',
    section: '3.2',
    level: 'MUST NOT',
    text: 'Response parameters of the token endpoint must not appear more than once.',
    applies: 'The JSON token and error responses of both token endpoints.',
    check: {
      file: CLAUSE_CHECKS,
      test: 'token responses and OAuth errors of both endpoints name each member once',
      exchangeCheck: 'rfc6749-token-answer',
    },
    note: 'Reads the raw JSON text of a token and of an unsupported_grant_type refusal of each endpoint (JSON.parse would keep a repeated member silently).',
  },
  {
    id: 'RFC6749-3.2.1-client-authenticates',
    rfc: '6749',
    section: '3.2.1',
    level: 'MUST',
    text: 'A confidential client (one issued client credentials) must authenticate when it calls the token endpoint.',
    applies: 'Both token endpoints, both grants.',
    notApplicable: `${BINDS_CLIENT}: the suite and the published client always send client_secret. What the server must do about it is in the 4.1.3 and 4.4.2 rows.`,
  },
  // RFC 6749 section 3.3: scope.
  {
    id: 'RFC6749-3.3-scope-default-or-fail',
    rfc: '6749',
    section: '3.3',
    level: 'MUST',
    text: 'When the client omits scope, the server must either apply a pre-defined default or fail the request, indicating an invalid scope.',
    applies: 'Client credentials at the identity provider, where the seed makes scope required.',
    check: { file: IDP_TOKEN, test: 'rejects client credentials without scope with a 4xx' },
    note: 'Asserts the refusal the seed prescribes; whether it names invalid_scope is not compared (see RFC6749-5.2-error-required).',
  },
  {
    id: 'RFC6749-3.3-scope-if-different',
    rfc: '6749',
    section: '3.3',
    level: 'MUST',
    text: 'If the granted scope differs from the requested one, the token response must include scope.',
    applies: 'Client credentials and the code exchange at the identity provider take scope.',
    untestable:
      'The client can only request the scope it was given (LP_SCOPE), and a response without scope does not show whether the server narrowed it: the granted scope stays inside the server (the token is opaque to the client).',
  },
  // RFC 6749 section 4.1: the authorization code grant.
  {
    id: 'RFC6749-4.1.2-code-required',
    rfc: '6749',
    section: '4.1.2',
    level: 'REQUIRED',
    text: 'The approving redirect carries the authorization code.',
    applies: 'The authorize step of the code grant.',
    check: { file: CODE_GRANT, test: 'redirects to the registered redirect_uri with a code and the state unchanged' },
    note: 'parseAuthorizationCallback throws on a redirect without a code.',
  },
  {
    id: 'RFC6749-4.1.2-code-expires',
    rfc: '6749',
    section: '4.1.2',
    level: 'MUST',
    text: 'The authorization code must expire shortly after it is issued (at most 10 minutes is recommended).',
    applies: 'Codes issued by authorize and exchanged at the identity provider.',
    check: { file: EXPIRY, test: 'refuses an authorization code exchanged an hour after it was issued' },
    note: 'Needs a target whose clock the suite can move (the sandbox); it shows a lifetime under an hour, not the recommended 10 minutes.',
  },
  {
    id: 'RFC6749-4.1.2-code-reuse-denied',
    rfc: '6749',
    section: '4.1.2',
    level: 'MUST',
    text: 'When a code is used more than once, the server must deny the request.',
    applies: 'The code exchange at the identity provider.',
    check: {
      file: CODE_GRANT,
      test: 'exchanges a code once and rejects the replayed code with a 4xx',
      exchangeCheck: 'code-bound-to-grant',
    },
    note: 'The SHOULD that follows (revoke the tokens issued on that code) is not checked.',
  },
  {
    id: 'RFC6749-4.1.2-state-returned',
    rfc: '6749',
    section: '4.1.2',
    level: 'REQUIRED',
    text: 'When the request carried state, the redirect must return it.',
    applies: 'The spec tells clients to send a fresh state and check it (CSRF).',
    check: {
      file: CODE_GRANT,
      test: 'redirects to the registered redirect_uri with a code and the state unchanged',
      exchangeCheck: 'authorize-redirect',
    },
  },
  {
    id: 'RFC6749-4.1.2-state-exact',
    rfc: '6749',
    section: '4.1.2',
    level: 'REQUIRED',
    text: 'The returned state is exactly the value the client sent.',
    applies: 'States with reserved, encoded or look-alike characters must survive the redirect.',
    check: {
      file: REDIRECT_NEAR_MISSES,
      test: 'authorize returns each tricky state exactly once and exactly as sent',
      exchangeCheck: 'authorize-redirect',
    },
  },
  // RFC 6749 section 4.1.2.1: errors of the authorization request.
  {
    id: 'RFC6749-4.1.2.1-no-redirect-invalid-redirect-uri',
    rfc: '6749',
    section: '4.1.2.1',
    level: 'MUST NOT',
    text: 'When the redirection URI is missing, invalid or mismatching, the server must not redirect the user agent to it.',
    applies: 'authorize with a redirect_uri that is not registered for the client.',
    check: { file: CODE_GRANT, test: 'never redirects to an unregistered redirect_uri', exchangeCheck: 'authorize-redirect' },
  },
  {
    id: 'RFC6749-4.1.2.1-no-redirect-invalid-client',
    rfc: '6749',
    section: '4.1.2.1',
    level: 'MUST NOT',
    text: 'When the client identifier is missing or invalid, the server must not redirect the user agent to the redirection URI.',
    applies: 'authorize with an unknown or missing client_id and a redirect URI that is registered for another client.',
    check: {
      file: CLAUSE_CHECKS,
      test: 'authorize never redirects to the redirect URI for an unknown or missing client_id',
      exchangeCheck: 'authorize-redirect',
    },
    note: 'An unknown client_id (the configured one with a suffix) and none at all, with LP_REDIRECT_URI: never a redirect to it (neither a code nor an error).',
  },
  {
    id: 'RFC6749-4.1.2.1-error-required',
    rfc: '6749',
    section: '4.1.2.1',
    level: 'REQUIRED',
    text: 'Other refusals are redirected with error, one code of the 4.1.2.1 list, in the characters %x20-21 / %x23-5B / %x5D-7E (error_uri, if sent, a URI reference).',
    applies: 'The spec assumes errors after the redirect URI is validated are redirected with error.',
    check: {
      file: CLAUSE_CHECKS,
      test: 'a missing or unsupported response_type is redirected back with an error and the state, never a code',
    },
    note: 'The refusals are a missing and an unsupported response_type (a scope the client was not given may be narrowed instead, RFC 6749 3.3, so it is not one). Whether errors are redirected is the spec’s guess (authorizeBehaviour), recorded; a redirect must carry exactly one error that describes the refusal, error and error_description in the allowed characters, and no code. The PKCE check adds an unsupported code_challenge_method (invalid_request).',
  },
  {
    id: 'RFC6749-4.1.2.1-error-state',
    rfc: '6749',
    section: '4.1.2.1',
    level: 'REQUIRED',
    text: 'An error redirect returns the state exactly as sent, when the request carried one.',
    applies: 'The client checks state on every callback, an error included (the published client does it first).',
    check: {
      file: CLAUSE_CHECKS,
      test: 'a missing or unsupported response_type is redirected back with an error and the state, never a code',
      exchangeCheck: 'authorize-redirect',
    },
    note: 'The state carries a space, reserved characters, < and " and look-alike &code= and &error= parts; the error redirect must return it once and unchanged.',
  },
  // RFC 6749 section 4.1.3: the code exchange.
  {
    id: 'RFC6749-4.1.3-require-client-authentication',
    rfc: '6749',
    section: '4.1.3',
    level: 'MUST',
    text: 'The token endpoint must require client authentication from confidential clients exchanging a code.',
    applies: 'The code exchange at the identity provider (client_secret is required there).',
    check: { file: AUTH_MATRIX, test: 'refuses a request without any credential', exchangeCheck: 'credentials-refused' },
    note: 'The "requestIdentityProviderToken (authorization_code)" row, its "client_secret missing" case: a fresh code exchanged with everything right but no client_secret must get a 4xx.',
  },
  {
    id: 'RFC6749-4.1.3-authenticate-client',
    rfc: '6749',
    section: '4.1.3',
    level: 'MUST',
    text: 'The token endpoint must authenticate the client when the request includes client authentication.',
    applies: 'The code exchange at the identity provider.',
    check: {
      file: CODE_GRANT,
      test: 'rejects a code exchanged with a wrong client_secret with a 4xx',
      exchangeCheck: 'credentials-refused',
    },
  },
  {
    id: 'RFC6749-4.1.3-code-issued-to-client',
    rfc: '6749',
    section: '4.1.3',
    level: 'MUST',
    text: 'The token endpoint must ensure the code was issued to the authenticated client.',
    applies: 'The code exchange at the identity provider.',
    untestable: SECOND_CLIENT,
  },
  {
    id: 'RFC6749-4.1.3-code-valid',
    rfc: '6749',
    section: '4.1.3',
    level: 'MUST',
    text: 'The token endpoint must verify that the authorization code is valid.',
    applies: 'The code exchange at the identity provider.',
    check: { file: CLAUSE_CHECKS, test: 'the code exchange refuses a code the target never issued', exchangeCheck: 'code-bound-to-grant' },
    note: 'A well-formed code (32 random base64url characters) with the client, secret, redirect_uri and subscription key right: a 4xx without access_token. Whether it names invalid_grant is recorded against the OAuthError x-assumption (oauthErrorBody).',
  },
  {
    id: 'RFC6749-4.1.3-redirect-uri-present',
    rfc: '6749',
    section: '4.1.3',
    level: 'MUST',
    text: 'When the authorization request carried redirect_uri, the exchange must carry it too.',
    applies: 'The spec requires redirect_uri in both steps of the code grant.',
    check: {
      file: CLAUSE_CHECKS,
      test: 'the code exchange refuses a code exchanged without redirect_uri',
      exchangeCheck: 'code-bound-to-grant',
    },
  },
  {
    id: 'RFC6749-4.1.3-redirect-uri-identical',
    rfc: '6749',
    section: '4.1.3',
    level: 'MUST',
    text: 'The redirect_uri of the exchange must be identical to the one of the authorization request.',
    applies: 'The code exchange at the identity provider.',
    check: {
      file: CODE_GRANT,
      test: 'rejects a code exchanged with a different redirect_uri with a 4xx',
      exchangeCheck: 'code-bound-to-grant',
    },
  },
  // RFC 6749 section 4.4: the client credentials grant.
  {
    id: 'RFC6749-4.4-confidential-only',
    rfc: '6749',
    section: '4.4',
    level: 'MUST',
    text: 'The client credentials grant must only be used by confidential clients.',
    applies: 'Both token endpoints serve the client credentials grant.',
    notApplicable: `There are no public clients: ${NO_PUBLIC_CLIENTS}`,
  },
  {
    id: 'RFC6749-4.4.2-service-authenticates-client',
    rfc: '6749',
    section: '4.4.2',
    level: 'MUST',
    text: 'The authorization server must authenticate the client of a client credentials request.',
    applies: 'POST {base_url}/token.',
    check: { file: SERVICE_TOKEN, test: 'rejects a wrong client secret with a 4xx', exchangeCheck: 'credentials-refused' },
    note: 'security/auth-matrix-checks.ts adds the wrong and near-miss values of the secret and of client_id.',
  },
  {
    id: 'RFC6749-4.4.2-service-requires-credentials',
    rfc: '6749',
    section: '4.4.2',
    level: 'MUST',
    text: 'A client credentials request without the client’s credentials is not authenticated and must not get a token.',
    applies: 'POST {base_url}/token.',
    check: { file: SERVICE_TOKEN, test: 'rejects a request without client_secret with a 4xx', exchangeCheck: 'rfc6749-refusals' },
  },
  {
    id: 'RFC6749-4.4.2-idp-authenticates-client',
    rfc: '6749',
    section: '4.4.2',
    level: 'MUST',
    text: 'The authorization server must authenticate the client of a client credentials request.',
    applies: 'POST {auth_url}/oauth2/default/v1/token with grant_type=client_credentials.',
    check: { file: IDP_TOKEN, test: 'rejects a wrong client secret with a 4xx', exchangeCheck: 'credentials-refused' },
    note: 'security/auth-matrix-checks.ts adds the wrong and near-miss values of the secret and of client_id.',
  },
  {
    id: 'RFC6749-4.4.2-idp-requires-credentials',
    rfc: '6749',
    section: '4.4.2',
    level: 'MUST',
    text: 'A client credentials request without the client’s credentials is not authenticated and must not get a token.',
    applies: 'POST {auth_url}/oauth2/default/v1/token with grant_type=client_credentials.',
    check: { file: AUTH_MATRIX, test: 'refuses a request without any credential', exchangeCheck: 'rfc6749-refusals' },
    note: 'The "requestIdentityProviderToken (client_credentials)" row, its "client_secret missing" case (and "client_id missing", "no credential at all"): each must get a 4xx.',
  },
  // RFC 6749 section 5.1: the token response.
  {
    id: 'RFC6749-5.1-service-access-token',
    rfc: '6749',
    section: '5.1',
    level: 'REQUIRED',
    text: 'A successful token response carries access_token.',
    applies: 'POST {base_url}/token.',
    check: {
      file: SERVICE_TOKEN,
      test: 'issues a Bearer token with an integer expired_in of 1..3600',
      exchangeCheck: 'rfc6749-token-answer',
    },
  },
  {
    id: 'RFC6749-5.1-service-token-type',
    rfc: '6749',
    section: '5.1',
    level: 'REQUIRED',
    text: 'A successful token response carries token_type.',
    applies: 'POST {base_url}/token (the seed shows token_type Bearer).',
    check: {
      file: SERVICE_TOKEN,
      test: 'issues a Bearer token with an integer expired_in of 1..3600',
      exchangeCheck: 'rfc6749-token-answer',
    },
  },
  {
    id: 'RFC6749-5.1-idp-access-token',
    rfc: '6749',
    section: '5.1',
    level: 'REQUIRED',
    text: 'A successful token response carries access_token.',
    applies: 'POST {auth_url}/oauth2/default/v1/token, client credentials (the code exchange asserts it as well).',
    check: {
      file: IDP_TOKEN,
      test: 'issues an access token for client credentials with scope and the subscription key',
      exchangeCheck: 'rfc6749-token-answer',
    },
    note: 'The published client’s token provider throws when access_token is missing.',
  },
  {
    id: 'RFC6749-5.1-idp-token-type',
    rfc: '6749',
    section: '5.1',
    level: 'REQUIRED',
    text: 'A successful token response carries token_type.',
    applies: 'POST {auth_url}/oauth2/default/v1/token, both grants.',
    check: {
      file: CLAUSE_CHECKS,
      test: 'token responses of both endpoints say Cache-Control no-store and Pragma no-cache',
      exchangeCheck: 'rfc6749-token-answer',
    },
    note: 'Recorded, not asserted: IdentityProviderTokenResponse requires token_type under an x-assumption that covers the whole schema (idpTokenResponse), and the token provider reads a missing one as Bearer, so the seed’s flows do not rely on it; an identity provider without token_type, or with another type than Bearer, is a contradicted assumption. Client credentials, and the code exchange where authorize approves unattended (elsewhere the report notes it as not judged).',
  },
  {
    id: 'RFC6749-5.1-cache-control-no-store',
    rfc: '6749',
    section: '5.1',
    level: 'MUST',
    text: 'A response carrying tokens or credentials must have Cache-Control: no-store.',
    applies: 'Every 2xx of both token endpoints, both grants.',
    check: {
      file: CLAUSE_CHECKS,
      test: 'token responses of both endpoints say Cache-Control no-store and Pragma no-cache',
      exchangeCheck: 'rfc6749-token-answer',
    },
    note: 'Asserted on each 2xx of both endpoints (client credentials, and the code exchange where authorize approves unattended; elsewhere the report notes it as not judged). Neither spec documents the header on its 200, so the contract fetch does not judge it; this check does.',
  },
  {
    id: 'RFC6749-5.1-pragma-no-cache',
    rfc: '6749',
    section: '5.1',
    level: 'MUST',
    text: 'A response carrying tokens or credentials must also have Pragma: no-cache.',
    applies: 'Every 2xx of both token endpoints, both grants.',
    check: {
      file: CLAUSE_CHECKS,
      test: 'token responses of both endpoints say Cache-Control no-store and Pragma no-cache',
      exchangeCheck: 'rfc6749-token-answer',
    },
    note: 'Asserted with Cache-Control, on the same responses; neither spec documents the header.',
  },
  // RFC 6749 section 5.2: the error response of the token endpoint.
  {
    id: 'RFC6749-5.2-error-required',
    rfc: '6749',
    section: '5.2',
    level: 'REQUIRED',
    text: 'A token endpoint error response carries error, one of invalid_request, invalid_client, invalid_grant, unauthorized_client, unsupported_grant_type, invalid_scope.',
    applies: 'Every refusal of both token endpoints (the identity provider’s behind a valid subscription key).',
    check: {
      file: CLAUSE_CHECKS,
      test: 'each refusal of the token endpoints names its error, in the allowed characters',
      exchangeCheck: 'rfc6749-token-answer',
    },
    note: 'Asserts a 4xx for a wrong and a missing client_secret, a missing and an unsupported grant_type at both endpoints, and a missing scope at the identity provider; the error each body names is recorded against the OAuthError x-assumption (oauthErrorBody: the seed shows no error body, and the spec lets provider-specific codes pass). A never-issued code and the PKCE failures record theirs (invalid_grant) in their checks.',
  },
  {
    id: 'RFC6749-5.2-error-characters',
    rfc: '6749',
    section: '5.2',
    level: 'MUST NOT',
    text: 'error and error_description must not hold characters outside %x20-21 / %x23-5B / %x5D-7E; error_uri must be a URI reference within %x21 / %x23-5B / %x5D-7E.',
    applies: 'The OAuth error bodies of both token endpoints.',
    check: {
      file: CLAUSE_CHECKS,
      test: 'each refusal of the token endpoints names its error, in the allowed characters',
      exchangeCheck: 'rfc6749-token-answer',
    },
    note: 'Recorded against the OAuthError x-assumption (oauthErrorBody) for every OAuth error body of that check. The characters of the authorize error redirects are asserted (RFC6749-4.1.2.1-error-required).',
  },
  {
    id: 'RFC6749-5.2-basic-failure-401',
    rfc: '6749',
    section: '5.2',
    level: 'MUST',
    text: 'When a client authenticating with the Authorization header fails, the server must answer 401 with a WWW-Authenticate for the scheme the client used.',
    applies: 'Both token endpoints, once HTTP Basic client authentication is supported (2.3.1).',
    notApplicable: `Depends on HTTP Basic client authentication: ${BASIC_UNUSED} No request of these flows authenticates with the Authorization header, so none can fail that way (see RFC6749-2.3.1-basic-supported).`,
  },
  // RFC 6749 section 7: accessing protected resources.
  {
    id: 'RFC6749-7-validate-token',
    rfc: '6749',
    section: '7',
    level: 'MUST',
    text: 'The resource server must validate the access token.',
    applies: 'POST {base_url}/v1/load-milestone-events takes the bearer token.',
    check: { file: MILESTONES, test: 'rejects an event with a garbage bearer token with a 4xx', exchangeCheck: 'credentials-refused' },
  },
  {
    id: 'RFC6749-7-not-expired',
    rfc: '6749',
    section: '7',
    level: 'MUST',
    text: 'The resource server must ensure the access token has not expired.',
    applies: 'POST {base_url}/v1/load-milestone-events; tokens live one hour (seed).',
    check: { file: EXPIRY, test: 'refuses a milestone sent with a token whose lifetime has passed', exchangeCheck: 'credentials-refused' },
    note: 'Needs a target whose clock the suite can move (the sandbox) and writes allowed.',
  },
  {
    id: 'RFC6749-7-scope-covers',
    rfc: '6749',
    section: '7',
    level: 'MUST',
    text: 'The resource server must ensure the token’s scope covers the requested resource.',
    applies: 'POST {base_url}/v1/load-milestone-events (the spec documents a 403 for a missing scope).',
    untestable:
      'Needs a token whose scope does not cover the milestone call: the suite holds one scope (LP_SCOPE, given at onboarding) and the service token takes none, so it cannot obtain a lesser one.',
  },
  // RFC 6749 section 10: security considerations.
  {
    id: 'RFC6749-10.3-tls',
    rfc: '6749',
    section: '10.3',
    level: 'MUST',
    text: 'Access tokens must stay confidential in transit and be sent only over TLS with server authentication.',
    applies: 'Tokens come from both token endpoints and go to the milestone call.',
    untestable: TLS,
  },
  {
    id: 'RFC6749-10.3-tokens-not-forgeable',
    rfc: '6749',
    section: '10.3',
    level: 'MUST',
    text: 'The authorization server must ensure access tokens cannot be generated, modified or guessed into valid ones by others.',
    applies: 'Bearer tokens on POST {base_url}/v1/load-milestone-events.',
    check: { file: AUTH_MATRIX, test: 'refuses a request without any credential', exchangeCheck: 'credentials-refused' },
    note: 'The recordLoadMilestoneEvent row: a wrong (suffixed, cut, changed) and a near-miss (case, prefix, suffix, encoding, extra segment) bearer token must be refused; guessing is RFC6749-10.10-guessing.',
  },
  {
    id: 'RFC6749-10.4-refresh-token-binding',
    rfc: '6749',
    section: '10.4',
    level: 'MUST',
    text: 'The authorization server must keep each refresh token bound to the client it was issued to.',
    applies: 'The identity provider’s token response may carry refresh_token.',
    notApplicable:
      'No flow uses refresh tokens: the grants are client credentials and authorization code, the client requests a new token before expiry, and refresh_token is an optional response field that is never exchanged.',
  },
  {
    id: 'RFC6749-10.5-short-lived',
    rfc: '6749',
    section: '10.5',
    level: 'MUST',
    text: 'Authorization codes must be short lived.',
    applies: 'Codes of the authorization code grant.',
    check: { file: EXPIRY, test: 'refuses an authorization code exchanged an hour after it was issued' },
    note: 'Shows a lifetime under an hour (sandbox only).',
  },
  {
    id: 'RFC6749-10.5-single-use',
    rfc: '6749',
    section: '10.5',
    level: 'MUST',
    text: 'Authorization codes must be single-use.',
    applies: 'Codes of the authorization code grant.',
    check: {
      file: CODE_GRANT,
      test: 'exchanges a code once and rejects the replayed code with a 4xx',
      exchangeCheck: 'code-bound-to-grant',
    },
  },
  {
    id: 'RFC6749-10.5-same-client',
    rfc: '6749',
    section: '10.5',
    level: 'MUST',
    text: 'When the client can be authenticated, the server must authenticate it and ensure the code was issued to that same client.',
    applies: 'The code exchange at the identity provider.',
    untestable: SECOND_CLIENT,
    note: 'Authenticating the client is RFC6749-4.1.3-authenticate-client.',
  },
  {
    id: 'RFC6749-10.6-redirect-uri-identical',
    rfc: '6749',
    section: '10.6',
    level: 'MUST',
    text: 'The server must ensure the redirection URI of the exchange is identical to the one used to obtain the code.',
    applies: 'The code exchange at the identity provider.',
    check: {
      file: REDIRECT_NEAR_MISSES,
      test: 'the code exchange refuses a near miss of the redirect_uri the code was issued for',
      exchangeCheck: 'code-bound-to-grant',
    },
  },
  {
    id: 'RFC6749-10.9-tls-endpoints',
    rfc: '6749',
    section: '10.9',
    level: 'MUST',
    text: 'The authorization server must require TLS with server authentication for every request to the authorization and token endpoints.',
    applies: 'authorize and both token endpoints.',
    untestable: TLS,
  },
  {
    id: 'RFC6749-10.10-guessing',
    rfc: '6749',
    section: '10.10',
    level: 'MUST',
    text: 'Tokens, codes and credentials must not be guessable: the probability of guessing one must be at most 2^-128.',
    applies: 'Access tokens of both token endpoints and the codes of authorize.',
    check: { file: CLAUSE_CHECKS, test: 'issued tokens and codes can carry 128 bits and do not repeat' },
    note: 'A necessary condition only: 3 access tokens of each endpoint and 16 codes each have at least 128 bits of encoding capacity (length times log2 of the alphabet they use) and are pairwise distinct; the real entropy stays inside the server. Codes only where authorize approves unattended (elsewhere the report notes them as not judged).',
  },
  {
    id: 'RFC6749-10.12-server-csrf',
    rfc: '6749',
    section: '10.12',
    level: 'MUST',
    text: 'The authorization server must protect its authorization endpoint against CSRF: no authorization without the resource owner’s awareness and explicit consent.',
    applies: 'The login and consent of the authorize step.',
    untestable: BROWSER_USER,
  },
  {
    id: 'RFC6749-10.12-client-csrf',
    rfc: '6749',
    section: '10.12',
    level: 'MUST',
    text: 'The client must protect its redirection URI against CSRF (e.g. with state bound to the user agent).',
    applies: 'The callback at LP_REDIRECT_URI.',
    notApplicable: `${BINDS_CLIENT}: the redirection endpoint is the partner’s; the published client’s parseAuthorizationCallback compares the state first. The server’s part (returning state exactly) is the 4.1.2 rows.`,
  },
  {
    id: 'RFC6749-10.14-sanitize',
    rfc: '6749',
    section: '10.14',
    level: 'MUST',
    text: 'The authorization server must sanitise (and where possible validate) the values it receives, state and redirect_uri in particular.',
    applies: 'authorize echoes state and shows an HTML page for a refused redirect_uri.',
    check: { file: CLAUSE_CHECKS, test: 'authorize echoes no markup unescaped, in its pages or in its redirects' },
    note: 'Markup and quotes in an unregistered redirect_uri, an unknown client_id and a state: no page contains them unescaped, no Location carries them unencoded, and a redirect returns the state exactly. How the server sanitises beyond what it echoes stays inside it.',
  },
  // RFC 6750: bearer token usage.
  {
    id: 'RFC6750-2-one-method',
    rfc: '6750',
    section: '2',
    level: 'MUST NOT',
    text: 'A client must not send the access token by more than one method in a request.',
    applies: 'The milestone call with a bearer token.',
    notApplicable: `${BINDS_CLIENT}: the suite and the published client send the token in the Authorization header only.`,
  },
  {
    id: 'RFC6750-2.1-header-supported',
    rfc: '6750',
    section: '2.1',
    level: 'MUST',
    text: 'Resource servers must accept the token as Authorization: Bearer <token>.',
    applies: 'POST {base_url}/v1/load-milestone-events; the spec tells clients to send the token this way.',
    check: { file: MILESTONES, test: 'records a valid event sent with a fresh token and confirms it' },
    note: 'Runs only with writes allowed (LP_ALLOW_WRITES=1, LP_TEST_LOAD_ID); the read-only code-grant call check asserts only that the token is not refused with 401.',
  },
  {
    id: 'RFC6750-2.2-form-body',
    rfc: '6750',
    section: '2.2',
    level: 'MUST',
    text: 'A token sent in the body requires a single-part application/x-www-form-urlencoded body and a method other than GET.',
    applies: 'The milestone call takes a bearer token.',
    notApplicable:
      'The milestone call’s body is JSON, so the form body method cannot carry a token there; resource servers may support it but need not, and the seed shows only the header.',
  },
  {
    id: 'RFC6750-3-www-authenticate',
    rfc: '6750',
    section: '3',
    level: 'MUST',
    text: 'A request without credentials, or without a token that grants access, must be answered with a WWW-Authenticate header.',
    applies: 'The 401 of POST {base_url}/v1/load-milestone-events (the spec lists the header on its 401).',
    check: {
      file: CLAUSE_CHECKS,
      test: 'refusals carry a Bearer challenge with auth-params, each attribute once and in its characters',
      exchangeCheck: 'rfc6750-bearer-challenge',
    },
    note: 'A milestone without a token and with a token the target never issued (only where writes are allowed: a server that accepted one would record the event). The carriers spec lists the header on its 401 without requiring it, so the contract fetch does not insist; this check does.',
  },
  {
    id: 'RFC6750-3-bearer-scheme',
    rfc: '6750',
    section: '3',
    level: 'MUST',
    text: 'The challenge must use the auth-scheme Bearer, followed by one or more auth-params.',
    applies: 'The WWW-Authenticate of the milestone call’s 401.',
    check: {
      file: CLAUSE_CHECKS,
      test: 'refusals carry a Bearer challenge with auth-params, each attribute once and in its characters',
      exchangeCheck: 'rfc6750-bearer-challenge',
    },
    note: 'Parses the header as RFC 9110 challenges: exactly one Bearer challenge, with auth-params. The carriers spec’s example value of the header, a bare "Bearer", would fail it.',
  },
  {
    id: 'RFC6750-3-attributes',
    rfc: '6750',
    section: '3',
    level: 'MUST NOT',
    text: 'realm, scope, error, error_description and error_uri must not appear more than once; error and error_description stay within %x20-21 / %x23-5B / %x5D-7E, scope within %x21 / %x23-5B / %x5D-7E and spaces, error_uri is a URI reference.',
    applies: 'The WWW-Authenticate of the milestone call’s 401.',
    check: {
      file: CLAUSE_CHECKS,
      test: 'refusals carry a Bearer challenge with auth-params, each attribute once and in its characters',
      exchangeCheck: 'rfc6750-bearer-challenge',
    },
  },
  {
    id: 'RFC6750-5.3-tls',
    rfc: '6750',
    section: '5.3',
    level: 'MUST',
    text: 'Bearer tokens must only be sent over TLS, with the certificate chain validated.',
    applies: 'The milestone call with a bearer token.',
    untestable: TLS,
  },
  // RFC 7636: PKCE, which the spec lets a client send (code_challenge, code_challenge_method=S256, code_verifier).
  {
    id: 'RFC7636-4.2-client-uses-s256',
    rfc: '7636',
    section: '4.2',
    level: 'MUST',
    text: 'A client capable of S256 must use S256 (plain only when it cannot).',
    applies: 'code_challenge_method of the authorize request.',
    notApplicable: `${BINDS_CLIENT}: the published client always sends S256, the only method the spec lists.`,
  },
  {
    id: 'RFC7636-4.2-server-s256',
    rfc: '7636',
    section: '4.2',
    level: 'MUST',
    text: 'S256 is mandatory to implement on a server that supports PKCE.',
    applies: `authorize with code_challenge and code_challenge_method=S256. ${PKCE_UNSEEN}`,
    check: {
      file: CLAUSE_CHECKS,
      test: 'authorize takes an S256 code_challenge, its code does not carry the challenge, and the matching code_verifier gets a token',
    },
    note: 'Asserted, not only recorded: a server without PKCE must ignore the parameters (RFC 6749 3.1), and one with it must implement S256, so either way the redirect carries a code.',
  },
  {
    id: 'RFC7636-4.4-associate-challenge',
    rfc: '7636',
    section: '4.4',
    level: 'MUST',
    text: 'The server must associate code_challenge and code_challenge_method with the code it issues, to verify them later.',
    applies: `Codes issued for a code_challenge. ${PKCE_UNSEEN}`,
    untestable:
      'Server-internal storage; its only visible effect is the verification at the exchange (RFC7636-4.6-mismatch-invalid-grant).',
  },
  {
    id: 'RFC7636-4.4-challenge-not-extractable',
    rfc: '7636',
    section: '4.4',
    level: 'MUST NOT',
    text: 'The server must not put code_challenge into what the client receives in a form other parties can extract.',
    applies: `The code in the approving redirect, when authorize carried a code_challenge. ${PKCE_UNSEEN}`,
    check: {
      file: CLAUSE_CHECKS,
      test: 'authorize takes an S256 code_challenge, its code does not carry the challenge, and the matching code_verifier gets a token',
    },
    note: 'The Location (raw and percent-decoded) and the code (raw, percent-decoded, base64url-decoded, whole and per dot-separated part) contain neither the challenge nor its bytes (raw or hex). An encrypted challenge inside the code is beyond what a client can see.',
  },
  {
    id: 'RFC7636-4.4.1-challenge-required',
    rfc: '7636',
    section: '4.4.1',
    level: 'MUST',
    text: 'A server that requires PKCE must answer a request without code_challenge with the error invalid_request.',
    applies: 'authorize without code_challenge.',
    notApplicable:
      'The spec makes PKCE optional (x-assumption pkceAuthorize) and every client confidential; the seed’s flow sends no code_challenge, and its checks expect a code without one.',
  },
  {
    id: 'RFC7636-4.4.1-unsupported-method',
    rfc: '7636',
    section: '4.4.1',
    level: 'MUST',
    text: 'A server supporting PKCE must answer a transformation it does not support with the error invalid_request.',
    applies: `code_challenge_method of the authorize request (the spec lists S256 only). ${PKCE_UNSEEN}`,
    check: { file: CLAUSE_CHECKS, test: 'a server that refuses a wrong code_verifier refuses a missing one too with invalid_grant' },
    note: 'Only on a server that showed PKCE support (it refused a wrong or a missing code_verifier); on one without PKCE nothing binds it, and the report notes it as not judged. code_challenge_method=S512: no code, and a redirect back must name invalid_request and return the state (whether it redirects is recorded, authorizeBehaviour).',
  },
  {
    id: 'RFC7636-4.6-match-continues',
    rfc: '7636',
    section: '4.6',
    level: 'MUST',
    text: 'When the transformed code_verifier equals the stored code_challenge, the token endpoint must continue as usual.',
    applies: `The exchange of a code issued for a code_challenge. ${PKCE_UNSEEN}`,
    check: {
      file: CLAUSE_CHECKS,
      test: 'authorize takes an S256 code_challenge, its code does not carry the challenge, and the matching code_verifier gets a token',
    },
    note: 'Asserted, not only recorded: a server without PKCE ignores code_verifier (RFC 6749 3.2), so any conforming server exchanges the code.',
  },
  {
    id: 'RFC7636-4.6-mismatch-invalid-grant',
    rfc: '7636',
    section: '4.6',
    level: 'MUST',
    text: 'When they differ, the token endpoint must answer with the error invalid_grant (RFC 6749 5.2).',
    applies: `The exchange of a code issued for a code_challenge. ${PKCE_UNSEEN}`,
    check: { file: CLAUSE_CHECKS, test: 'a server that refuses a wrong code_verifier refuses a missing one too with invalid_grant' },
    note: 'A server that refuses a wrong or a missing code_verifier must refuse both, with 400 and no token; the error code (invalid_grant) is recorded against oauthErrorBody. A server that accepts both does not support PKCE and still conforms: the report notes it as not judged (authorization-code.test.ts records the guess pkceExchange).',
  },
];

/** A clause as data of unknown quality: what clauseProblems() inspects (the self-test feeds it broken rows too).
 * `missing`, what a check would send and expect, is no coverage: clauseProblems() refuses a row that sets it. */
export type ClauseLike = { [K in keyof ClauseCore | 'check' | 'untestable' | 'notApplicable' | 'missing']?: unknown };

const present = (value: unknown) => value !== undefined && value !== null;

/** How a clause is covered, from which of its fields are set (checked before the rest, as clauseProblems() requires
 * exactly one); undefined for a clause with none, which clauseProblems() reports. */
export function coverageOf(clause: ClauseLike): Coverage | undefined {
  if (present(clause.check)) return 'checked';
  if (present(clause.untestable)) return 'untestable';
  if (present(clause.notApplicable)) return 'not applicable';
  return undefined;
}

/** The table with each clause's coverage (the Clause type admits no clause without one). */
export function clauseTable(clauses: readonly Clause[] = OAUTH_CLAUSES): ClauseRow[] {
  return clauses.map((clause) => ({ ...clause, coverage: coverageOf(clause)! }));
}

const cell = (text: string) => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');

function coveredBy(row: ClauseRow): string {
  const note = row.note ? ` (${row.note})` : '';
  switch (row.coverage) {
    case 'checked':
      return `\`${row.check!.file}\`: "${row.check!.test}"${row.check!.exchangeCheck ? `, and on every exchange by exchange check \`${row.check!.exchangeCheck}\`` : ''}${note}`;
    case 'untestable':
      return `not testable: ${row.untestable}${note}`;
    case 'not applicable':
      return `not applicable: ${row.notApplicable}${note}`;
  }
}

/** The rows as a Markdown table: clause id, RFC section, level, what it says, and what covers it or why nothing does. */
export function clausesMarkdown(rows: readonly ClauseRow[]): string {
  const lines = [
    '| Clause | RFC § | Level | What | Covered by / why not |',
    '|---|---|---|---|---|',
    ...rows.map((row) => `| \`${row.id}\` | RFC ${row.rfc} §${row.section} | ${row.level} | ${cell(row.text)} | ${cell(coveredBy(row))} |`),
  ];
  return `${lines.join('\n')}\n`;
}

// The checks of the table: each referenced test must exist, found by its title in the test file's source.

const TABLE_MODIFIERS = new Set(['for', 'each', 'skipIf', 'runIf']);
const TEST_CALL = /(?<![\w$.])(?:it|test)((?:\.[A-Za-z]+)*)\s*\(/y;

/** Index after the quoted string starting at `at` ('...' or "..."), or -1. */
function afterQuoted(source: string, at: number): number {
  const quote = source[at];
  for (let i = at + 1; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === quote) return i + 1;
    else if (source[i] === '\n') return -1;
  }
  return -1;
}

/** Index after the template literal starting at `at`, its ${...} parts skipped as code, or -1. */
function afterTemplate(source: string, at: number): number {
  for (let i = at + 1; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === '`') return i + 1;
    else if (source[i] === '$' && source[i + 1] === '{') {
      const end = afterBracket(source, i + 2, '}');
      if (end < 0) return -1;
      i = end - 1;
    }
  }
  return -1;
}

/** From inside a bracket, the index after the bracket `closer` that closes it; strings and comments skipped. -1 if none. */
function afterBracket(source: string, from: number, closer: string): number {
  const open: string[] = [closer];
  for (let i = from; i < source.length; i++) {
    const c = source[i]!;
    let end = i;
    if (c === '"' || c === "'") end = afterQuoted(source, i) - 1;
    else if (c === '`') end = afterTemplate(source, i) - 1;
    else if (c === '/' && source[i + 1] === '/') end = source.indexOf('\n', i);
    else if (c === '/' && source[i + 1] === '*') end = source.indexOf('*/', i + 2) + 1;
    else if (c === '(') open.push(')');
    else if (c === '[') open.push(']');
    else if (c === '{') open.push('}');
    else if (c === ')' || c === ']' || c === '}') {
      if (open.pop() !== c) return -1;
      if (open.length === 0) return i + 1;
    }
    if (end < i) return -1;
    i = end;
  }
  return -1;
}

const skipSpace = (source: string, at: number) => at + (/^\s*/.exec(source.slice(at))?.[0].length ?? 0);

/** The string literal at `at`, unescaped (a template literal's text as written), or undefined. */
function literalAt(source: string, at: number): string | undefined {
  const quote = source[at];
  if (quote === "'" || quote === '"') {
    const end = afterQuoted(source, at);
    if (end < 0) return undefined;
    return source.slice(at + 1, end - 1).replace(/\\(.)/g, (_, c: string) => ({ n: '\n', t: '\t' })[c] ?? c);
  }
  if (quote === '`') {
    const end = afterTemplate(source, at);
    return end < 0 ? undefined : source.slice(at + 1, end - 1);
  }
  return undefined;
}

/** The raw titles of the tests a vitest file declares: it('...'), it.skip('...'), it.for([...])('...'), test(...);
 * calls inside comments and string literals are not tests. */
export function testTitles(source: string): string[] {
  const titles: string[] = [];
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    // Strings and comments are skipped whole; an unterminated one (a quote inside a regular expression) is a character.
    const end =
      c === '"' || c === "'"
        ? afterQuoted(source, i)
        : c === '`'
          ? afterTemplate(source, i)
          : c === '/' && source[i + 1] === '/'
            ? source.indexOf('\n', i)
            : c === '/' && source[i + 1] === '*'
              ? source.indexOf('*/', i + 2) + 2
              : i;
    if (end > i) {
      i = end - 1;
      continue;
    }
    TEST_CALL.lastIndex = i;
    const match = TEST_CALL.exec(source);
    if (!match) continue;
    let at = TEST_CALL.lastIndex;
    const modifiers = match[1]!.split('.').filter(Boolean);
    if (modifiers.some((modifier) => TABLE_MODIFIERS.has(modifier))) {
      at = afterBracket(source, at, ')');
      if (at < 0) continue;
      at = skipSpace(source, at);
      if (source[at] !== '(') continue;
      at += 1;
    }
    const title = literalAt(source, skipSpace(source, at));
    if (title !== undefined) titles.push(title);
    // Scanning goes on inside the call: the title is skipped as a string, and a nested test would be found.
    i = TEST_CALL.lastIndex - 1;
  }
  return titles;
}

const RFCS = new Set<unknown>(['6749', '6750', '7636']);
const LEVELS = new Set<unknown>(['MUST', 'MUST NOT', 'REQUIRED', 'SHALL']);
const text = (value: unknown) => typeof value === 'string' && value.trim().length > 0;

/**
 * Everything wrong with a clause table, one sentence each; empty when it is honest. `readCheckFile` answers a test
 * file's source by its path from the repository root, or undefined when there is no such file.
 */
export function clauseProblems(
  clauses: readonly ClauseLike[],
  readCheckFile: (path: string) => string | undefined,
  exchangeChecks: readonly string[] = EXCHANGE_CHECKS.map((c) => c.id),
): string[] {
  const problems: string[] = [];
  const seen = new Set<unknown>();
  const titlesOf = new Map<string, string[] | undefined>();
  const titles = (file: string) => {
    if (!titlesOf.has(file)) {
      const source = readCheckFile(file);
      titlesOf.set(file, source === undefined ? undefined : testTitles(source));
    }
    return titlesOf.get(file);
  };

  clauses.forEach((clause, index) => {
    const name = typeof clause.id === 'string' && clause.id ? clause.id : `clause #${index + 1}`;
    if (!text(clause.id)) problems.push(`${name}: has no id`);
    else if (seen.has(clause.id)) problems.push(`${name}: the id is not unique`);
    seen.add(clause.id);
    if (!RFCS.has(clause.rfc)) problems.push(`${name}: rfc ${JSON.stringify(clause.rfc)} is not 6749, 6750 or 7636`);
    if (typeof clause.section !== 'string' || !/^\d+(\.\d+)*$/.test(clause.section))
      problems.push(`${name}: section ${JSON.stringify(clause.section)} is not a section number`);
    else if (typeof clause.id === 'string' && !clause.id.startsWith(`RFC${String(clause.rfc)}-${clause.section}-`))
      problems.push(`${name}: the id does not start with RFC${String(clause.rfc)}-${clause.section}-`);
    if (!LEVELS.has(clause.level)) problems.push(`${name}: level ${JSON.stringify(clause.level)} is not MUST, MUST NOT, REQUIRED or SHALL`);
    if (!text(clause.text)) problems.push(`${name}: says nothing (text)`);
    if (!text(clause.applies)) problems.push(`${name}: does not say why it bears on the flows (applies)`);
    if (present(clause.note) && !text(clause.note)) problems.push(`${name}: has an empty note`);

    const covered = (['check', 'untestable', 'notApplicable'] as const).filter((field) => present(clause[field]));
    if (covered.length > 1) problems.push(`${name}: sets ${covered.join(' and ')}; exactly one of check, untestable, notApplicable`);
    for (const field of ['untestable', 'notApplicable'] as const)
      if (present(clause[field]) && !text(clause[field])) problems.push(`${name}: ${field} gives no reason`);
    if (covered.length === 0)
      problems.push(`${name}: has neither a check nor a reason (untestable, notApplicable); "pending" is not a reason`);
    if (present(clause.missing))
      problems.push(`${name}: sets missing (what a check would do): write the check, or say why none can (untestable, notApplicable)`);

    const exchangeCheck = present(clause.check) ? (clause.check as { exchangeCheck?: unknown }).exchangeCheck : undefined;
    if (exchangeCheck !== undefined && !exchangeChecks.includes(exchangeCheck as string))
      problems.push(`${name}: check.exchangeCheck ${JSON.stringify(exchangeCheck)} is not an exchange check of judge/exchange-checks.ts`);
    if (present(clause.check)) {
      const check = clause.check as Partial<Record<'file' | 'test', unknown>>;
      // A test file, or a module of checks that test files register (`*-checks.ts`, e.g. the matrix per API).
      if (typeof check.file !== 'string' || !/^contract-tests\/.+(\.test|-checks)\.ts$/.test(check.file))
        problems.push(`${name}: check.file ${JSON.stringify(check.file)} is not a contract-tests/…test.ts or …-checks.ts path`);
      else if (!text(check.test)) problems.push(`${name}: check.test names no test`);
      else {
        const declared = titles(check.file);
        const wanted = check.test as string;
        if (declared === undefined) problems.push(`${name}: check file ${check.file} does not exist`);
        else {
          const matching = declared.filter((title) => title.includes(wanted));
          if (matching.length === 0) problems.push(`${name}: no test of ${check.file} has "${wanted}" in its title`);
          else if (matching.length > 1)
            problems.push(`${name}: "${wanted}" is in ${matching.length} test titles of ${check.file}; name one`);
        }
      }
    }
  });
  return problems;
}

// What the RFCs say about the characters, JSON members and challenges of an answer: the grammar the checks of
// token/oauth-clauses.test.ts apply (and self/oauth-clauses.test.ts shows able to fail). Problems are named, never
// the values (an answer may echo a credential).
