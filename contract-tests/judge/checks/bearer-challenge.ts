// RFC 6750 3 on every refusal of a bearer-protected call (the milestone operation): a 401 to a request whose bearer
// token is missing or not one the target issued and still valid carries a WWW-Authenticate with one Bearer challenge,
// followed by auth-params, each attribute once and in its characters. Judged only where the refusal is the bearer
// token's: with the configured subscription key in place (a gateway's refusal of a missing key is not RFC 6750's).
import { specRoles } from '../../model/operations.ts';
import type { Exchange } from '../../send/fetch.ts';
import type { RunContext } from '../context.ts';
import { type ExchangeCheck, violation } from '../exchange-check.ts';
import { bearerOf, requestHeader } from '../exchange-facts.ts';
import { errorCharacterProblems, parseChallenges } from '../oauth-syntax.ts';
import { PROMISES } from '../promises.ts';

/** The request's token is one the run was issued and still within its lifetime. */
export function liveToken(seen: Exchange, context: RunContext): boolean {
  const token = bearerOf(seen);
  const issued = token === undefined ? undefined : context.tokens.get(token);
  return issued !== undefined && context.ageSeconds(issued, seen.sentAt) < issued.lifetimeSeconds;
}

/** The subscription key the request carried is the configured one; none is configured, it carried none. */
export const keyInPlace = (seen: Exchange, context: RunContext) =>
  requestHeader(seen, 'ocp-apim-subscription-key') === context.env.LP_SUBSCRIPTION_KEY;

export function challengeProblems(header: string | null): string[] {
  if (header === null) return ['no WWW-Authenticate header'];
  const challenges = parseChallenges(header);
  if (!challenges) return ['the WWW-Authenticate header does not parse as challenges (RFC 9110 11.6.1)'];
  const bearer = challenges.filter((c) => c.scheme.toLowerCase() === 'bearer');
  if (bearer.length !== 1) return [`${bearer.length} Bearer challenges, not one`];
  const { params, token68 } = bearer[0]!;
  if (!params.length || token68 !== undefined) return ['the Bearer challenge is not followed by auth-params'];
  const values = (name: string) => params.filter(([param]) => param === name).map(([, value]) => value);
  const problems = ['realm', 'scope', 'error', 'error_description', 'error_uri']
    .filter((name) => values(name).length > 1)
    .map((name) => `${name} appears more than once in the Bearer challenge`);
  const [error, description, uri, scope] = ['error', 'error_description', 'error_uri', 'scope'].map((name) => values(name)[0]);
  return [...problems, ...errorCharacterProblems({ error, error_description: description, error_uri: uri, scope }, false)];
}

/** The clause a problem of the challenge breaks (judge/clauses/standings.ts). */
function clauseOf(problem: string): string {
  if (problem === 'no WWW-Authenticate header') return 'RFC6750-3-www-authenticate';
  if (problem.includes('RFC 9110 11.6.1')) return 'RFC9110-11.6.1-www-authenticate';
  return /Bearer challenge/.test(problem) && !/appears more than once/.test(problem) ? 'RFC6750-3-bearer-scheme' : 'RFC6750-3-attributes';
}

export const bearerChallenge: ExchangeCheck = {
  id: 'rfc6750-bearer-challenge',
  promise: () => PROMISES.rfc('6750', '3'),
  source: { rfc: '6750', section: '3' },
  clauses: ['RFC6750-3-www-authenticate', 'RFC6750-3-bearer-scheme', 'RFC6750-3-attributes', 'RFC9110-11.6.1-www-authenticate'],
  operations: specRoles().bearerProtected,
  statuses: '401',
  needs: 'verifiesCredentials',
  judge(seen, context) {
    if (!seen.operation || seen.response.status !== 401 || liveToken(seen, context) || !keyInPlace(seen, context)) return [];
    return challengeProblems(seen.response.headers.get('www-authenticate')).map((p) =>
      violation(
        bearerChallenge,
        `${seen.operation!.operationId} refused a request ${bearerOf(seen) === undefined ? 'without a token' : 'with a token it did not accept'} (401): RFC 6750 3: ${p}`,
        clauseOf(p),
      ),
    );
  },
};
