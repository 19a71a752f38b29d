// Tokens only where the RFC and the specs allow them: a token endpoint that answers a token to a request it must refuse
// breaks RFC 6749, whichever check sent the request. Refused must be: another method than POST (3.2; the client's
// credentials would travel in the URI, 2.3.1); a parameter sent twice (3.2, 5.2 invalid_request); more than one way of
// authenticating the client, HTTP Basic and the form together (2.3, 5.2); no client authentication (5.2
// invalid_client); no grant_type, or one the endpoint does not support (5.2); a field the grant's request requires left
// out, an empty value counting as left out (3.2): the required fields are the specs' (the registry's body schemas), so
// the identity provider's required scope (seed 4.2) and a code exchange's redirect_uri (4.1.3) are among them.
import type { Exchange } from '../../send/fetch.ts';
import { specRegistry, specRoles } from '../../model/operations.ts';
import { type ExchangeCheck, violation } from '../exchange-check.ts';
import { answerObject, basicOf, formOf, operationIdOf, repeatedFields, statusClassOf, valuesOf } from '../exchange-facts.ts';
import { PROMISES, sectionOfOperation } from '../promises.ts';

/** The grant types an endpoint documents, and the fields each requires (from the registry's body schemas). */
function grantsOf(operationId: string): Map<string, string[]> {
  const grants = new Map<string, string[]>();
  for (const entry of specRegistry().filter((e) => e.operationId === operationId)) {
    const properties = (entry.bodySchema?.properties ?? {}) as Record<string, { const?: unknown; enum?: unknown[] }>;
    const values = properties.grant_type?.const !== undefined ? [properties.grant_type.const] : (properties.grant_type?.enum ?? []);
    for (const value of values) grants.set(String(value), (entry.bodySchema?.required as string[] | undefined) ?? []);
  }
  return grants;
}

/** Why the request must be refused: the clause (judge/clauses/standings.ts), the RFC section when an RFC is its source,
 * and what was wrong, never a value; or undefined. */
export function refusalRequired(seen: Exchange, operationId: string): { clause: string; rfc?: string; why: string } | undefined {
  if (seen.request.method !== 'POST')
    return {
      clause: 'RFC6749-3.2-post',
      rfc: '3.2',
      why: `a ${seen.request.method} (token requests are POSTs; credentials never go in the URI, 2.3.1)`,
    };
  const form = formOf(seen);
  if (!form) return undefined;
  const repeated = repeatedFields(form);
  if (repeated.length) return { clause: 'RFC6749-3.2-parameters-once', rfc: '3.2', why: `${repeated.join(', ')} sent more than once` };
  const basic = basicOf(seen);
  const formSecret = valuesOf(form, 'client_secret').length > 0;
  if (basic && formSecret)
    return {
      clause: 'RFC6749-2.3-one-authentication-method',
      rfc: '2.3',
      why: 'the client authenticated twice, with HTTP Basic and with client_secret in the form',
    };
  if (!basic && !formSecret)
    return {
      clause: 'RFC6749-5.2-client-authentication-required',
      rfc: '5.2',
      why: 'no client authentication (no client_secret, no HTTP Basic)',
    };
  const grant = valuesOf(form, 'grant_type')[0];
  if (grant === undefined) return { clause: 'RFC6749-4.4.2-required-fields', rfc: '5.2', why: 'no grant_type' };
  const required = grantsOf(operationId).get(grant);
  if (!required)
    return {
      clause: 'RFC6749-5.2-unsupported-grant',
      rfc: '5.2',
      why: `grant_type ${JSON.stringify(grant.slice(0, 40))}, which the endpoint does not support`,
    };
  const missing = required.filter((name) => valuesOf(form, name).length === 0 && !(basic && ['client_id', 'client_secret'].includes(name)));
  if (!missing.length) return undefined;
  const why = `no ${missing.join(', ')} (required for ${grant}; an empty value counts as none, RFC 6749 3.2)`;
  // The published documentation's own requirement (4.2 shows scope as required); the RFC would allow a default scope.
  if (missing.includes('scope') && missing.length === 1) return { clause: 'seed-4.2-scope-required', why };
  return { clause: missing.includes('redirect_uri') ? 'RFC6749-4.1.3-redirect-uri-present' : 'RFC6749-4.4.2-required-fields', why };
}

export const tokenRefusals: ExchangeCheck = {
  id: 'rfc6749-refusals',
  promise: () => PROMISES.rfc('6749', '5.2'),
  source: { rfc: '6749', section: '2.3, 3.2, 5.2' },
  clauses: [
    'RFC6749-3.2-post',
    'RFC6749-3.2-parameters-once',
    'RFC6749-2.3-one-authentication-method',
    'RFC6749-5.2-client-authentication-required',
    'RFC6749-4.4.2-required-fields',
    'RFC6749-5.2-unsupported-grant',
    'seed-4.2-scope-required',
    'RFC6749-4.1.3-redirect-uri-present',
  ],
  operations: specRoles().tokenEndpoints,
  statuses: '2xx',
  needs: 'verifiesCredentials',
  judge(seen) {
    const operationId = operationIdOf(seen);
    if (statusClassOf(seen) !== 2 || !operationId) return [];
    if (typeof answerObject(seen)?.access_token !== 'string') return [];
    const required = refusalRequired(seen, operationId);
    if (!required) return [];
    const message = `${operationId} answered ${seen.response.status} (a token) to a request it must refuse: ${required.why}`;
    return [
      {
        ...violation(tokenRefusals, required.rfc ? `${message} (RFC 6749 ${required.rfc})` : message, required.clause),
        promise: required.rfc
          ? PROMISES.rfc('6749', required.rfc)
          : PROMISES.seed(sectionOfOperation(operationId), 'a token request without a field the grant requires is refused'),
      },
    ];
  },
};
