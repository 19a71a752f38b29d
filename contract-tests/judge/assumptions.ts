// Records whether a target's behaviour confirms or contradicts an x-assumption of the specs that only a sequence of
// requests can show (filters, PKCE, refusals); the shape of each single response is judged by the contract fetch.
// Only targets with data semantics count: the Prism mock answers from the spec itself, so it can neither confirm nor
// contradict. A contradiction does not fail the check, except in strict runs.
import type { ApiName } from '../../spec-core/apis.ts';
import { capabilityOf } from '../send/capabilities.ts';
import type { Exchange } from '../send/fetch.ts';
import type { Run } from '../send/run.ts';
import { currentTest } from '../send/test-scope.ts';

export interface AssumptionRef {
  api: ApiName;
  /** JSON pointer of the node carrying the x-assumption in the bundle. */
  pointer: string;
  /** Text of its `what`, to pick one of several assumptions at the same node. */
  match: string;
}

// Only the assumptions that a sequence of requests shows; those about the shape of one response (Vehicle field types,
// the bare list, error bodies, the identity provider's token response, the confirmation) are judged by the contract
// fetch from their `covers`, on every response. The size limits (seed 8) are found by operators/input-limits.ts on
// every operation that has them, and probed by property/input-limits.test.ts.
export const ASSUMPTIONS = {
  serviceTokenNoKey: { api: 'token', pointer: '/paths/~1token/post', match: 'no subscription key' },
  authorizeBehaviour: { api: 'token', pointer: '/paths/~1oauth2~1default~1v1~1authorize/get', match: 'never redirected' },
  authorizePath: { api: 'carriers', pointer: '/components/securitySchemes/OAuth2', match: 'authorization endpoint' },
  pkceAuthorize: { api: 'token', pointer: '/paths/~1oauth2~1default~1v1~1authorize/get/parameters/5', match: 'PKCE' },
  pkceExchange: { api: 'token', pointer: '/components/schemas/AuthorizationCodeGrantRequest/properties/code_verifier', match: 'PKCE' },
  idpTokenResponse: { api: 'token', pointer: '/components/schemas/IdentityProviderTokenResponse', match: 'expires_in' },
  oauthErrorBody: { api: 'token', pointer: '/components/schemas/OAuthError', match: 'RFC 6749 section 5.2' },
  errorBody: { api: 'fleet', pointer: '/components/schemas/Error', match: 'JSON objects' },
  milestoneBearerAlone: { api: 'carriers', pointer: '/paths/~1v1~1load-milestone-events/post', match: 'bearer token alone' },
  milestoneRequired: { api: 'carriers', pointer: '/components/schemas/LoadMilestoneEvent', match: 'All three fields' },
  milestoneType: {
    api: 'carriers',
    pointer: '/components/schemas/LoadMilestoneEvent/properties/milestone_type',
    match: 'any non-empty string',
  },
  impossibleDate: {
    api: 'carriers',
    pointer: '/components/schemas/LoadMilestoneEvent/properties/event_time',
    match: 'impossible calendar date',
  },
  readsRepeatable: { api: 'fleet', pointer: '/paths/~1vehicles/get', match: 'sent twice in a short while' },
  filtersRepeatedOr: { api: 'fleet', pointer: '/paths/~1vehicles/get', match: 'repeated query parameters' },
  filtersAnd: { api: 'fleet', pointer: '/paths/~1vehicles/get', match: 'AND' },
  sortForm: { api: 'fleet', pointer: '/paths/~1vehicles/get/parameters/5', match: 'asc' },
  unknownVehicle404: { api: 'fleet', pointer: '/paths/~1vehicles~1{vehicleNumber}/get', match: '404' },
  exactMatch: { api: 'fleet', pointer: '/paths/~1vehicles~1{vehicleNumber}/get', match: 'matches a vehicle' },
  fleetKeyAlone: { api: 'fleet', pointer: '', match: 'API-Key' },
} as const satisfies Record<string, AssumptionRef>;

/**
 * Notes the outcome of one assumption on the run's target, computed from what the server answered (never from a
 * condition an assertion has already forced). `seen` is the exchange that showed it, for the report's evidence;
 * `evidence` must not contain credentials (it is redacted anyway).
 */
export function observeAssumption(run: Run, ref: AssumptionRef, holds: boolean, evidence: string, seen?: Exchange): void {
  if (!capabilityOf(run.target.name).hasDataSemantics) return;
  const text = run.redactor.redact(evidence);
  run.ledger.record({
    kind: 'assumption',
    ...ref,
    outcome: holds ? 'confirmed' : 'contradicted',
    evidence: text,
    ...(seen ? { observed: seen.observed } : {}),
    test: currentTest(),
  });
  if (!holds) run.ledger.reportContradictions([`${text} (assumed at ${ref.api}#${ref.pointer}: "${ref.match}")`]);
}
