// The authorize redirect sends nothing where it must not (RFC 6749 3.1, 3.1.1, 3.1.2, 4.1.2, 4.1.2.1, 10.15; seed 4.3
// and 5.2), on every answer of the authorization endpoint:
// - a redirect_uri that is not the registered one (LP_REDIRECT_URI, compared as strings, 3.1.2.3), or an unknown or
//   missing client_id, is never redirected back to the client (4.1.2.1);
// - a code is issued only to a request with response_type=code (3.1.1) and no parameter sent twice (3.1, 4.1.2.1), and
//   the redirect carries the state unchanged and once, and at most one code (4.1.2, 3.1);
// - no redirect carries an access token: the seed supports the client credentials and authorization code grants only.
import { specRoles } from '../../model/operations.ts';
import type { Exchange } from '../../send/fetch.ts';
import type { RunContext } from '../context.ts';
import { type ExchangeCheck, violation } from '../exchange-check.ts';
import { locationOf, queryOf, redirectParameters, repeatedFields, valuesOf } from '../exchange-facts.ts';
import { PROMISES } from '../promises.ts';

/** The redirect goes back to the client: to the registered or the given redirect URI's origin (outside the identity
 * provider), or anywhere with a code. A redirect within the identity provider (its login page) does not. */
function toClient(seen: Exchange, location: URL, context: RunContext): boolean {
  const provider = URL.canParse(context.env.LP_AUTH_URL ?? '')
    ? new URL(context.env.LP_AUTH_URL!).origin
    : new URL(seen.request.url).origin;
  if (location.origin === provider) return false;
  const given = valuesOf(queryOf(seen), 'redirect_uri')[0]?.trim();
  const clients = new Set([context.env.LP_REDIRECT_URI, given].flatMap((uri) => (uri && URL.canParse(uri) ? [new URL(uri).origin] : [])));
  return clients.has(location.origin) || location.searchParams.has('code');
}

/** A query parameter's value, when the request sent it once in a well-formed percent-encoding (what a server decodes
 * from a malformed one is its own business), else undefined; empty counts as not sent. */
function cleanlyDecoded(seen: Exchange, name: string): string | undefined {
  const raw = new URL(seen.request.url).search
    .replace(/^\?/, '')
    .split('&')
    .filter((pair) => pair.split('=')[0] === name);
  if (raw.length !== 1) return undefined;
  try {
    const value = decodeURIComponent((raw[0]!.split('=')[1] ?? '').replace(/\+/g, ' '));
    return value === '' ? undefined : value;
  } catch {
    return undefined;
  }
}

/** The redirect goes to the registered redirect URI (origin and path: the query carries the answer). */
function toRegistered(location: URL, context: RunContext): boolean {
  const registered = context.env.LP_REDIRECT_URI;
  if (!registered || !URL.canParse(registered)) return false;
  const uri = new URL(registered);
  return location.origin === uri.origin && location.pathname === uri.pathname;
}

/** A problem: the clause it breaks (judge/clauses/standings.ts), its RFC section and what the redirect did. */
type Problem = [clause: string, section: string, what: string];

function problemsOf(seen: Exchange, location: URL, context: RunContext): Problem[] {
  const query = queryOf(seen);
  const problems: Problem[] = [];
  const back = toClient(seen, location, context);
  const given = valuesOf(query, 'redirect_uri');
  const registered = context.env.LP_REDIRECT_URI;
  // 4.1.2.1 forbids sending the user to an invalid redirect URI; a refusal sent to the registered one is what it asks
  // (a request that named the registered URI beside another gets its error there).
  if (back && given.length && registered !== undefined && given[0] !== registered && !toRegistered(location, context))
    problems.push([
      'RFC6749-4.1.2.1-no-redirect-invalid-redirect-uri',
      '4.1.2.1',
      'redirected back to the client for a redirect_uri that is not the registered one',
    ]);
  const client = valuesOf(query, 'client_id');
  if (back && context.env.LP_CLIENT_ID !== undefined && client[0] !== context.env.LP_CLIENT_ID)
    problems.push([
      'RFC6749-4.1.2.1-no-redirect-invalid-client',
      '4.1.2.1',
      `redirected back to the client for ${client.length ? 'an unknown' : 'a missing'} client_id`,
    ]);
  const answer = redirectParameters(location);
  const codes = valuesOf(answer, 'code');
  if (codes.length && valuesOf(query, 'response_type')[0] !== 'code')
    problems.push(['RFC6749-3.1.1-response-type-error', '3.1.1', 'issued a code without response_type=code']);
  const repeated = repeatedFields(query);
  if (codes.length && repeated.length)
    problems.push(['RFC6749-3.2-parameters-once', '3.1', `issued a code to a request that sent ${repeated.join(', ')} twice`]);
  if (codes.length > 1) problems.push(['RFC6749-3.1-response-parameters-once', '3.1', 'the redirect carries more than one code']);
  const state = cleanlyDecoded(seen, 'state');
  const returned = answer.filter(([n]) => n === 'state').map(([, v]) => v);
  if (back && state !== undefined && !repeated.includes('state') && (returned.length !== 1 || returned[0] !== state))
    problems.push(
      returned.length
        ? ['RFC6749-4.1.2-state-exact', '4.1.2', 'the redirect changed the state or sent it more than once']
        : ['RFC6749-4.1.2-state-returned', '4.1.2', 'the redirect dropped the state'],
    );
  if (answer.some(([n]) => n === 'access_token'))
    problems.push(['RFC6749-5.2-unsupported-grant', '4.1.2', 'the redirect carries an access token (the seed has no implicit grant)']);
  return problems;
}

export const authorizeRedirect: ExchangeCheck = {
  id: 'authorize-redirect',
  promise: () => PROMISES.rfc('6749', '4.1.2.1'),
  source: { rfc: '6749', section: '3.1, 3.1.1, 4.1.2, 4.1.2.1, 10.15' },
  clauses: [
    'RFC6749-4.1.2.1-no-redirect-invalid-redirect-uri',
    'RFC6749-4.1.2.1-no-redirect-invalid-client',
    'RFC6749-3.1.1-response-type-error',
    'RFC6749-3.2-parameters-once',
    'RFC6749-3.1-response-parameters-once',
    'RFC6749-4.1.2-state-exact',
    'RFC6749-4.1.2-state-returned',
    'RFC6749-5.2-unsupported-grant',
  ],
  operations: specRoles().authorization,
  statuses: '3xx',
  needs: 'hasDataSemantics',
  judge(seen, context) {
    const location = locationOf(seen);
    if (!seen.operation || !location) return [];
    return problemsOf(seen, location, context).map(([clause, section, what]) => ({
      ...violation(
        authorizeRedirect,
        `${seen.operation!.operationId} answered ${seen.response.status}: ${what} (RFC 6749 ${section})`,
        clause,
      ),
      promise: PROMISES.rfc('6749', section),
    }));
  },
};
