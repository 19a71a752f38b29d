// Injected contract violations for mutation testing of the contract suite: each id switches
// on exactly one wrong behaviour at one place in the request path (`--mutation ID`). `operation` names the operation or
// security scheme it breaks; `check` the exchange check of the suite that must find it (contract:mutation requires a
// finding of that check in the run that catches it), and `operator` the operator of the negative space whose requests
// show it (contract-tests/operators/): every check and every operator has at least one (test/sandbox/mutations.test.ts).
export const MUTATIONS = [
  // Service token endpoint (POST {base_url}/token)
  {
    id: 'service-token-expires-in',
    operation: 'requestServiceToken',
    description: 'Token response names the lifetime expires_in instead of expired_in.',
  },
  {
    id: 'service-token-expired-in-string',
    operation: 'requestServiceToken',
    description: 'expired_in is the string "3600" instead of an integer.',
  },
  {
    id: 'service-token-lifetime-7200',
    operation: 'requestServiceToken',
    description: 'expired_in is 7200 (more than 3600) and tokens live that long.',
  },
  { id: 'service-token-type-lowercase', operation: 'requestServiceToken', description: 'token_type is "bearer" instead of "Bearer".' },
  {
    id: 'service-token-client-id-ignored',
    operation: 'requestServiceToken',
    description: 'client_id is not compared: the right client_secret gets a token whatever client_id says.',
  },
  {
    id: 'service-token-wrong-secret-accepted',
    operation: 'requestServiceToken',
    description: 'A wrong client_secret still gets a token.',
    check: 'credentials-refused',
  },
  {
    id: 'service-token-secret-trimmed',
    operation: 'requestServiceToken',
    description: 'client_secret is compared after trimming surrounding whitespace, so a near miss gets a token.',
    operator: 'pad',
    check: 'credentials-refused',
  },
  {
    id: 'service-token-error-not-rfc6749',
    operation: 'requestServiceToken',
    description: 'Wrong credentials are answered 401 with a body lacking the RFC 6749 "error" field.',
    check: 'rfc6749-token-answer',
  },
  // Identity provider token endpoint
  { id: 'idp-token-type-jwt', operation: 'requestIdentityProviderToken', description: 'token_type is "JWT" instead of "Bearer".' },
  { id: 'idp-missing-access-token', operation: 'requestIdentityProviderToken', description: 'The token response has no access_token.' },
  { id: 'idp-wrong-secret-accepted', operation: 'requestIdentityProviderToken', description: 'A wrong client_secret still gets a token.' },
  {
    id: 'idp-scope-not-required',
    operation: 'requestIdentityProviderToken',
    description: 'A client credentials request without scope (or with an unknown scope) gets a token.',
  },
  {
    id: 'idp-code-grant-subscription-key-unchecked',
    operation: 'SubscriptionKey',
    description:
      'The identity provider checks Ocp-Apim-Subscription-Key on client credentials requests only: a code exchange without (or with a wrong) key gets a token.',
  },
  {
    id: 'authorize-unknown-client-redirects',
    operation: 'requestAuthorization',
    description:
      'An authorization request with an unknown client_id is redirected to its redirect_uri with error=unauthorized_client (RFC 6749 4.1.2.1 forbids it).',
  },
  {
    id: 'authorize-unsupported-type-to-unregistered-uri',
    operation: 'requestAuthorization',
    operator: 'grant-types',
    check: 'authorize-redirect',
    description:
      'An authorization request with an unsupported response_type and an unregistered redirect_uri is redirected to that URI with error=unsupported_response_type (RFC 6749 4.1.2.1 forbids it); each alone is handled right.',
  },
  {
    id: 'idp-subscription-key-not-required',
    operation: 'SubscriptionKey',
    description: 'The identity provider token endpoint accepts a request without (or with a wrong) Ocp-Apim-Subscription-Key.',
  },
  {
    id: 'idp-code-replayable',
    operation: 'requestIdentityProviderToken',
    description: 'An authorization code can be exchanged more than once.',
    check: 'code-bound-to-grant',
  },
  {
    id: 'idp-code-redirect-uri-unchecked',
    operation: 'requestIdentityProviderToken',
    description: 'A code exchange with a redirect_uri different from the authorization request is accepted.',
  },
  { id: 'idp-code-never-expires', operation: 'requestIdentityProviderToken', description: 'Authorization codes do not expire.' },
  {
    id: 'idp-pkce-unchecked',
    operation: 'requestIdentityProviderToken',
    description: 'A wrong or missing PKCE code_verifier is accepted.',
  },
  // Authorization endpoint
  {
    id: 'authorize-open-redirect',
    operation: 'requestAuthorization',
    description: 'An unregistered redirect_uri is redirected to (open redirect).',
    check: 'authorize-redirect',
  },
  {
    id: 'authorize-redirect-uri-prefix-match',
    operation: 'requestAuthorization',
    description: 'Any redirect_uri that starts with the registered one is redirected to.',
    operator: 'near-miss',
    check: 'authorize-redirect',
  },
  { id: 'authorize-drops-state', operation: 'requestAuthorization', description: "The redirect back omits the caller's state." },
  {
    id: 'authorize-changes-state',
    operation: 'requestAuthorization',
    description: 'The redirect back carries a different state than the caller sent.',
  },
  // Load milestones (OAuth2 bearer)
  { id: 'milestone-no-token-accepted', operation: 'OAuth2', description: 'A milestone without an Authorization header is recorded.' },
  {
    id: 'milestone-garbage-token-accepted',
    operation: 'OAuth2',
    description: 'A milestone with a bearer token that was never issued is recorded.',
  },
  { id: 'milestone-expired-token-accepted', operation: 'OAuth2', description: 'A milestone with an expired token is recorded.' },
  {
    id: 'milestone-malformed-json-500',
    operation: 'recordLoadMilestoneEvent',
    description: 'Malformed JSON is answered 500 instead of 400.',
  },
  {
    id: 'milestone-non-utc-accepted',
    operation: 'recordLoadMilestoneEvent',
    description: 'An event_time with a non-UTC offset (or no offset) is accepted.',
  },
  {
    id: 'milestone-missing-field-accepted',
    operation: 'recordLoadMilestoneEvent',
    description: 'A milestone without milestone_type is accepted.',
  },
  {
    id: 'milestone-confirmation-without-message',
    operation: 'recordLoadMilestoneEvent',
    description: 'The 200 confirmation has no message field.',
  },
  { id: 'milestone-text-plain', operation: 'recordLoadMilestoneEvent', description: 'The confirmation is sent as text/plain.' },
  {
    id: 'milestone-other-content-type-500',
    operation: 'recordLoadMilestoneEvent',
    description: 'A milestone body in a content type other than application/json (text/plain) is answered 500.',
    operator: 'media-types',
    check: 'no-server-error',
  },
  // Fleet (API-Key)
  {
    id: 'fleet-missing-key-accepted',
    operation: 'FleetApiKey',
    description: "Fleet requests without an API-Key header are answered 200 (with the first lessee's vehicles).",
  },
  {
    id: 'fleet-wrong-key-with-unknown-query-accepted',
    operation: 'FleetApiKey',
    description: 'A wrong API-Key is accepted when the query also has a parameter the list does not document (two faults at once).',
    operator: 'pairwise',
    check: 'credentials-refused',
  },
  {
    id: 'fleet-key-case-insensitive',
    operation: 'FleetApiKey',
    description: 'API-Key is compared ignoring case.',
    operator: 'case',
    check: 'credentials-refused',
  },
  {
    id: 'fleet-subscription-key-accepted',
    operation: 'FleetApiKey',
    description: "A fleet request with the developer's Ocp-Apim-Subscription-Key and no API-Key is answered as the first lessee.",
  },
  {
    id: 'fleet-refusal-discloses-vehicles',
    operation: 'FleetApiKey',
    description: "A wrong API-Key is refused with 401, but the error body lists the first lessee's first vehicles.",
    check: 'refusals-disclose-nothing',
  },
  {
    id: 'fleet-other-methods-500',
    operation: 'listVehicles',
    description: 'PUT, PATCH and DELETE on /vehicles are answered 500.',
    operator: 'methods',
    check: 'no-server-error',
  },
  {
    id: 'get-non-ascii-500',
    operation: 'getVehicle',
    description: 'A vehicle number with characters outside ASCII is answered 500.',
    operator: 'unicode',
    check: 'no-server-error',
  },
  {
    id: 'list-license-plate-ignored-with-sort',
    operation: 'listVehicles',
    description: 'The licensePlate filter is ignored when a sort is also given.',
  },
  {
    id: 'list-leaks-foreign-vehicles',
    operation: 'listVehicles',
    description: 'The list includes vehicles of another lessee.',
    check: 'lessee-isolation',
  },
  {
    id: 'list-leaks-on-foreign-customer-filter',
    operation: 'listVehicles',
    description: "A customerNumber filter naming another lessee's customer lists that customer's vehicles (the unfiltered list is clean).",
  },
  { id: 'list-filters-ignored', operation: 'listVehicles', description: 'All filters are ignored.', check: 'list-matches-filters' },
  { id: 'list-filters-ored', operation: 'listVehicles', description: 'Different filters are combined with OR instead of AND.' },
  {
    id: 'list-changes-between-reads',
    operation: 'listVehicles',
    description: 'The nth unfiltered list lacks its last n vehicles (modulo the fleet): the same request twice gets different vehicles.',
  },
  { id: 'list-first-value-only', operation: 'listVehicles', description: 'Only the first of repeated filter values is honoured.' },
  { id: 'list-sort-ignored', operation: 'listVehicles', description: 'sort is ignored.' },
  { id: 'list-desc-ignored', operation: 'listVehicles', description: 'sort direction desc is treated as asc.' },
  {
    id: 'list-customervehiclenumber-ignored',
    operation: 'listVehicles',
    description: 'The customervehicleNumber filter is ignored; only customerVehicleNumber (upper-case V) filters.',
  },
  {
    id: 'list-field-renamed',
    operation: 'listVehicles',
    description: 'Listed vehicles carry licencePlate instead of licensePlate.',
    check: 'documented-answer',
  },
  {
    id: 'list-sort-moves-field',
    operation: 'listVehicles',
    check: 'list-agrees-with-unfiltered',
    description: 'A sorted list holds the same vehicles, but each licensePlate moved to the next vehicle of the answer.',
  },
  { id: 'list-wrong-content-type', operation: 'listVehicles', description: 'The list is sent as text/plain.' },
  { id: 'get-foreign-vehicle-returned', operation: 'getVehicle', description: 'A vehicle of another lessee is returned.' },
  {
    id: 'get-foreign-with-customer-query',
    operation: 'getVehicle',
    operator: 'undocumented-query',
    check: 'lessee-isolation',
    description:
      "Get-one of another lessee's vehicle returns it when the query carries the list's customerNumber filter; each alone is handled right.",
  },
  {
    id: 'get-foreign-refusal-names-customer',
    operation: 'getVehicle',
    check: 'foreign-identifiers-undisclosed',
    description: "The 404 for another lessee's vehicle says whose it is: its customer number is in the message.",
  },
  { id: 'get-unknown-200', operation: 'getVehicle', description: 'An unknown vehicle number is answered 200 with an empty object.' },
  { id: 'get-unknown-500', operation: 'getVehicle', description: 'An unknown vehicle number is answered 500.' },
  { id: 'get-field-missing', operation: 'getVehicle', description: 'The returned vehicle has no vin field.' },
  // Issue 30: promises judged on every exchange, and the operators of the negative space that show them.
  {
    id: 'list-desc-leaks-foreign',
    operation: 'listVehicles',
    check: 'lessee-isolation',
    description: "A list sorted with direction desc also holds another lessee's vehicles.",
  },
  {
    id: 'list-quote-filter-leaks-foreign',
    operation: 'listVehicles',
    operator: 'injection',
    check: 'lessee-isolation',
    description: "A filter value with a quote character (') adds another lessee's vehicles to the list.",
  },
  {
    id: 'get-query-leaks-foreign',
    operation: 'getVehicle',
    operator: 'undocumented-query',
    check: 'get-one-asked',
    description: "Get one vehicle sent with any query parameter answers another lessee's vehicle.",
  },
  {
    id: 'milestone-blank-load-id-500',
    operation: 'recordLoadMilestoneEvent',
    operator: 'empty',
    check: 'no-server-error',
    description: 'A milestone whose load_id is whitespace only (blank, not empty) is answered 500.',
  },
  {
    id: 'milestone-leap-second-500',
    operation: 'recordLoadMilestoneEvent',
    operator: 'format-boundary',
    check: 'no-server-error',
    description: 'A valid milestone whose event_time is a leap second (23:59:60Z) is answered 500.',
  },
  {
    id: 'idp-code-redirect-uri-omitted-accepted',
    operation: 'requestIdentityProviderToken',
    operator: 'omit',
    check: 'code-bound-to-grant',
    description: 'A code exchange without redirect_uri gets a token (RFC 6749 4.1.3: it must match the authorize request).',
  },
  {
    id: 'service-token-basic-secret-unchecked',
    operation: 'requestServiceToken',
    operator: 'credential-channels',
    check: 'credentials-refused',
    description: 'A token request that authenticates with HTTP Basic gets a token whatever its secret (RFC 6749 2.3.1, 3.2.1).',
  },
  {
    id: 'service-token-basic-trimmed',
    operation: 'requestServiceToken',
    operator: 'basic-credentials',
    check: 'credentials-refused',
    description: 'A token request with HTTP Basic gets a token when its client_id and secret match once trimmed (RFC 6749 2.3.1).',
  },
  {
    id: 'idp-repeated-parameter-accepted',
    operation: 'requestIdentityProviderToken',
    operator: 'repeat',
    check: 'rfc6749-refusals',
    description: 'A token request that repeats a form field is answered with the first value (RFC 6749 3.2: refused).',
  },
  {
    id: 'idp-password-grant-accepted',
    operation: 'requestIdentityProviderToken',
    operator: 'grant-types',
    check: 'rfc6749-refusals',
    description: 'grant_type=password with any username and password gets a token (the seed has two grants).',
  },
  {
    id: 'token-refused-early',
    operation: 'OAuth2',
    check: 'token-lifetime',
    description:
      'A milestone sent with a token more than one second old is refused 401, long before its hour (the client refreshes and replays).',
  },
  {
    id: 'list-empty-filter-500',
    operation: 'listVehicles',
    operator: 'empty',
    check: 'no-server-error',
    description: 'A filter with an empty value is answered 500.',
  },
  {
    id: 'get-percent-encoded-500',
    operation: 'getVehicle',
    operator: 'percent-once',
    check: 'no-server-error',
    description: 'A vehicle number whose letters are percent-encoded in the path is answered 500.',
  },
  {
    id: 'list-filter-decoded-twice',
    operation: 'listVehicles',
    operator: 'percent-twice',
    check: 'list-matches-filters',
    description: 'Filter values are percent-decoded a second time, so %2541 matches A.',
  },
  {
    id: 'list-over-limit-500',
    operation: 'listVehicles',
    operator: 'over-limit',
    check: 'no-server-error',
    description: 'A filter with more values than its limit (100) is answered 500.',
  },
  {
    id: 'idp-malformed-form-500',
    operation: 'requestIdentityProviderToken',
    operator: 'malformed-encoding',
    check: 'no-server-error',
    description: 'A token request form with a malformed percent-encoding is answered 500.',
  },
  {
    id: 'milestone-null-body-500',
    operation: 'recordLoadMilestoneEvent',
    operator: 'body-shapes',
    check: 'no-server-error',
    description: 'A milestone request whose JSON body is null (valid JSON, not an object) is answered 500.',
  },
  {
    id: 'milestone-non-string-500',
    operation: 'recordLoadMilestoneEvent',
    operator: 'json-types',
    check: 'no-server-error',
    description: 'A milestone field of another JSON type than a string is answered 500.',
  },
  {
    id: 'milestone-unknown-field-500',
    operation: 'recordLoadMilestoneEvent',
    operator: 'undocumented-fields',
    check: 'no-server-error',
    description: 'A milestone with a field the schema does not document is answered 500.',
  },
  {
    id: 'fleet-refusal-echoes-key',
    operation: 'FleetApiKey',
    check: 'no-credential-echo',
    description: 'A refused fleet request names the API-Key it was sent in its error message.',
  },
  {
    id: 'service-token-cacheable',
    operation: 'requestServiceToken',
    check: 'rfc6749-token-answer',
    description: 'Token answers come without Cache-Control: no-store and Pragma: no-cache (RFC 6749 5.1).',
  },
  {
    id: 'milestone-401-without-challenge',
    operation: 'OAuth2',
    check: 'rfc6750-bearer-challenge',
    description: 'A milestone refused for its token is answered 401 without a WWW-Authenticate challenge (RFC 6750 3).',
  },
  {
    id: 'get-plate-differs-from-list',
    operation: 'getVehicle',
    check: 'get-one-agrees-with-list',
    description: 'A vehicle fetched on its own answers another licensePlate than the list shows for it.',
  },
  {
    id: 'get-case-mismatch-other-vehicle',
    operation: 'getVehicle',
    check: 'get-one-asked',
    description: 'A vehicle number that matches only without regard to case answers the next vehicle of the fleet.',
  },
] as const;

export type MutationId = (typeof MUTATIONS)[number]['id'];

export function parseMutation(id: string | undefined): MutationId | undefined {
  if (id === undefined) return undefined;
  const known = MUTATIONS.find((mutation) => mutation.id === id);
  if (!known) throw new Error(`unknown mutation "${id}"; see --list-mutations`);
  return known.id;
}
