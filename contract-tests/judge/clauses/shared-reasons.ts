// Words the clause tables share: the reasons that recur.

export const TLS =
  'Needs TLS on a real host: the mock and the sandbox listen on loopback without TLS, and probing whether a live host refuses plain http would send the credentials or the token in clear text.';
export const SECOND_CLIENT =
  'Needs a second registered client, to exchange a code issued to the first one with its own valid credentials; the suite is configured with one client (LP_CLIENT_ID, LP_CLIENT_SECRET).';
export const BROWSER_USER =
  'Needs a user in a browser: the suite runs the code grant only against targets that approve unattended (a test user already signed in and consenting), so the login and consent pages are never seen.';
export const BINDS_CLIENT = 'Binds the client, not the server the suite checks';
export const NO_PUBLIC_CLIENTS =
  'every client of these flows is confidential: both token endpoints and both grants require client_secret (ServiceTokenRequest, ClientCredentialsGrantRequest, AuthorizationCodeGrantRequest), and the clients are registered in the developer portal with a secret.';
export const BASIC_UNUSED =
  'HTTP Basic client authentication is not part of the seed’s flows: they send client_id and client_secret in the form body, which RFC 6749 2.3.1 also allows.';
export const PKCE_UNSEEN =
  'The seed does not mention PKCE; the spec assumes it is accepted and optional (x-assumptions pkceAuthorize and pkceExchange).';
