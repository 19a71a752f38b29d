// RFC 6749 5.1 and 5.2 on every answer of both token endpoints, success and error alike, whichever check sent it. A
// token answer is a JSON object with access_token and token_type (bearer: the seed uses every token as one, 5.2), and
// Cache-Control: no-store and Pragma: no-cache (5.1). A refusal by the authorization server (400, 401, 403 to a
// form-encoded POST that passed the gateway: the identity provider's needs the configured subscription key) is a JSON
// object whose `error` is in the allowed characters, without repeated members (5.2, 3.2), and a 401 to a request that
// authenticated with HTTP Basic carries a WWW-Authenticate challenge of that scheme (5.2). Which error code names
// which refusal is the specs' guess (OAuthError's x-assumption), recorded by the checks that provoke each.
import Negotiator from 'negotiator';
import { specRegistry, specRoles } from '../../model/operations.ts';
import type { Exchange } from '../../send/fetch.ts';
import { mediaTypeOf } from '../../model/media-types.ts';
import type { RunContext } from '../context.ts';
import { type ExchangeCheck, violation } from '../exchange-check.ts';
import { basicOf, formOf, operationIdOf, requestHeader, statusClassOf } from '../exchange-facts.ts';
import { errorCharacterProblems, parseChallenges, repeatedNames, topLevelMemberNames } from '../oauth-syntax.ts';
import { PROMISES } from '../promises.ts';

const directives = (value: string | null) => (value ?? '').split(',').map((d) => d.trim().toLowerCase().split('=')[0]);

/** The refusal came from the authorization server, not from a gateway or a framework in front of it. */
function fromAuthorizationServer(seen: Exchange, context: RunContext): boolean {
  if (!seen.operation || seen.request.method !== 'POST' || !formOf(seen)) return false;
  // Behind the gateway (the operation takes the subscription key), only a request with the right key reached it.
  if (!specRegistry().some((e) => e.operationId === seen.operation!.operationId && e.credentials.includes('subscriptionKey'))) return true;
  const key = context.env.LP_SUBSCRIPTION_KEY;
  return key === undefined || requestHeader(seen, 'ocp-apim-subscription-key') === key;
}

/** A problem of an answer: the clause it breaks (judge/clauses/standings.ts) and what the answer showed. */
type Problem = [clause: string, text: string];

function successProblems(seen: Exchange): Problem[] {
  const service = operationIdOf(seen) === 'requestServiceToken';
  const problems: Problem[] = [];
  let body: Record<string, unknown> | undefined;
  try {
    const parsed = JSON.parse(seen.bodyText) as unknown;
    body = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    body = undefined;
  }
  const accessToken = service ? 'RFC6749-5.1-service-access-token' : 'RFC6749-5.1-idp-access-token';
  if (!body) return [[accessToken, '5.1: the token answer is not a JSON object']];
  if (typeof body.access_token !== 'string' || body.access_token === '')
    problems.push([accessToken, '5.1: access_token is missing or empty']);
  if (typeof body.token_type !== 'string' || body.token_type.toLowerCase() !== 'bearer')
    problems.push([
      service ? 'RFC6749-5.1-service-token-type' : 'RFC6749-5.1-idp-token-type',
      `5.1: token_type is ${JSON.stringify(body.token_type ?? null)}, not Bearer (compared without case)`,
    ]);
  if (!directives(seen.response.headers.get('cache-control')).includes('no-store'))
    problems.push(['RFC6749-5.1-cache-control-no-store', '5.1: no Cache-Control: no-store']);
  if (!directives(seen.response.headers.get('pragma')).includes('no-cache'))
    problems.push(['RFC6749-5.1-pragma-no-cache', '5.1: no Pragma: no-cache']);
  const repeated = repeatedNames(topLevelMemberNames(seen.bodyText) ?? []);
  if (repeated.length)
    problems.push(['RFC6749-3.2-response-parameters-once', `3.2: the answer names ${repeated.join(', ')} more than once`]);
  return problems;
}

/**
 * The client asked for the refusal's media type before JSON (its Accept, RFC 9110 12.5.1): a server that honours the
 * negotiation (oidc-provider, certified, renders its errors as HTML to `Accept: text/html`) answers as it was asked,
 * and RFC 6749 5.2's JSON speaks to a client that takes JSON.
 */
function askedForInstead(seen: Exchange, type: string): boolean {
  const accept = requestHeader(seen, 'accept');
  if (!accept || !type || type === 'application/json') return false;
  return new Negotiator({ headers: { accept } }).mediaType(['application/json', type]) === type;
}

function refusalProblems(seen: Exchange): Problem[] {
  const type = mediaTypeOf(seen.response.headers.get('content-type'));
  if (askedForInstead(seen, type)) return [];
  const names = topLevelMemberNames(seen.bodyText);
  if (!names) return [['RFC6749-5.2-error-required', `5.2: the refusal is not a JSON object (${type || 'no content type'})`]];
  const problems: Problem[] = [];
  if (type !== 'application/json')
    problems.push(['RFC6749-5.2-error-required', `5.2: the refusal's content type is ${type || '(none)'}, not application/json`]);
  const body = JSON.parse(seen.bodyText) as Record<string, unknown>;
  problems.push(...errorCharacterProblems(body).map((p): Problem => ['RFC6749-5.2-error-characters', `5.2: ${p}`]));
  const repeated = repeatedNames(names);
  if (repeated.length)
    problems.push(['RFC6749-3.2-response-parameters-once', `3.2: the refusal names ${repeated.join(', ')} more than once`]);
  if (seen.response.status === 401 && basicOf(seen)) {
    const challenges = parseChallenges(seen.response.headers.get('www-authenticate') ?? '') ?? [];
    if (!challenges.some((c) => c.scheme.toLowerCase() === 'basic'))
      problems.push([
        'RFC6749-5.2-basic-failure-401',
        '5.2: a 401 to a client that authenticated with HTTP Basic has no Basic WWW-Authenticate challenge',
      ]);
  }
  return problems;
}

export const tokenAnswer: ExchangeCheck = {
  id: 'rfc6749-token-answer',
  promise: () => PROMISES.rfc('6749', '5.1'),
  source: { rfc: '6749', section: '5.1, 5.2' },
  clauses: [
    'RFC6749-5.1-idp-access-token',
    'RFC6749-5.1-service-access-token',
    'RFC6749-5.1-idp-token-type',
    'RFC6749-5.1-service-token-type',
    'RFC6749-5.1-cache-control-no-store',
    'RFC6749-5.1-pragma-no-cache',
    'RFC6749-3.2-response-parameters-once',
    'RFC6749-5.2-error-required',
    'RFC6749-5.2-error-characters',
    'RFC6749-5.2-basic-failure-401',
  ],
  operations: specRoles().tokenEndpoints,
  statuses: '2xx, and 400/401/403 from the authorization server',
  judge(seen, context) {
    if (!seen.operation) return [];
    const what = `${operationIdOf(seen)} answered ${seen.response.status}`;
    if (statusClassOf(seen) === 2)
      return successProblems(seen).map(([clause, p]) => violation(tokenAnswer, `${what}: RFC 6749 ${p}`, clause));
    if (![400, 401, 403].includes(seen.response.status) || !fromAuthorizationServer(seen, context)) return [];
    return refusalProblems(seen).map(([clause, p]) => ({
      ...violation(tokenAnswer, `${what}: RFC 6749 ${p}`, clause),
      promise: PROMISES.rfc('6749', '5.2'),
    }));
  },
};
