// Every clause a check of the suite judges, by id, with how it reads today (clause-standing.ts): the rows of the OAuth
// table (RFC 6749, 6750, 7636) and the clauses the exchange checks judge beside them: the published documentation's
// facts, the security properties, the grammar RFC 9110 gives the headers the specs document, and the rules of RFC 6749
// the OAuth table leaves to the exchange checks. A finding names its clause by id; the judge makes it a violation
// only when that clause is a MUST that still stands and binds the server.
import type { Clause, Level } from './clause.ts';
import type { Standing } from './clause-standing.ts';
import { RESOURCES_AND_SECURITY } from './resources-and-security.ts';
import { RFC6749_ENDPOINTS } from './rfc6749-endpoints.ts';
import { RFC6749_GRANTS } from './rfc6749-grants.ts';

const MUST_LEVELS: readonly Level[] = ['MUST', 'MUST NOT', 'REQUIRED', 'SHALL'];

const fromOAuthTable = (clause: Clause): Standing => ({
  id: clause.id,
  source: `RFC ${clause.rfc} ${clause.section}`,
  text: clause.text,
  strength: MUST_LEVELS.includes(clause.level) ? 'MUST' : 'SHOULD',
  ...(clause.updates ? { updates: clause.updates } : {}),
  ...(clause.bindsClient ? { bindsClient: clause.bindsClient } : {}),
});

const OAUTH21 = 'the OAuth 2.1 draft (draft-ietf-oauth-v2-1-14)';

/** The clauses beside the OAuth table. */
const OTHER_CLAUSES: readonly Standing[] = [
  // The published documentation (the seed), as the specs state it.
  {
    id: 'seed-documented-answer',
    source: 'published documentation 4 (the specs)',
    text: 'Every answer is a documented status, content type, schema and headers.',
    strength: 'MUST',
  },
  {
    id: 'seed-4.2-scope-required',
    source: 'published documentation 4.2',
    text: 'Client credentials at the identity provider carry scope: a request without it is refused.',
    strength: 'MUST',
    rfcAlone:
      'RFC 6749 alone would allow the answer: 4.4.2 makes scope optional and 3.3 lets a server apply a default scope to a request without one',
  },
  {
    id: 'seed-5.2-token-lifetime',
    source: 'published documentation 5.2, 8',
    text: 'An access token is valid for one hour: it is not refused within it.',
    strength: 'MUST',
  },
  {
    id: 'seed-4.6-get-one',
    source: 'published documentation 4.6',
    text: 'Get one vehicle answers the vehicle asked for.',
    strength: 'MUST',
  },
  {
    id: 'seed-4.5-4.6-agree',
    source: 'published documentation 4.5, 4.6',
    text: 'Get one vehicle answers the fields the list showed for it.',
    strength: 'MUST',
  },
  {
    id: 'seed-4.5-filters',
    source: 'published documentation 4.5',
    text: 'The list answers the vehicles that match the filters.',
    strength: 'MUST',
  },
  // Security properties the kit promises (published documentation 1, 5).
  {
    id: 'security-no-5xx',
    source: 'security property (published documentation 7 lists the 200, 300 and 400 classes)',
    text: 'No request, however malformed, is answered with a 5xx.',
    strength: 'MUST',
  },
  {
    id: 'security-lessee-isolation',
    source: 'security property (published documentation 1, 5.3)',
    text: "One lessee never sees another lessee's vehicles.",
    strength: 'MUST',
  },
  {
    id: 'security-credentials-refused',
    source: 'security property (published documentation 5)',
    text: 'Wrong, missing or misplaced credentials are refused.',
    strength: 'MUST',
  },
  {
    id: 'security-no-credential-echo',
    source: 'security property',
    text: 'No answer shows a credential, or a part of one, in any encoding.',
    strength: 'MUST',
  },
  {
    id: 'security-refusals-disclose-nothing',
    source: 'security property',
    text: 'A refused request discloses nothing of what an accepted one returns.',
    strength: 'MUST',
  },
  // The grammar of the headers the specs document (a header is judged by its own grammar, never a body format).
  {
    id: 'RFC9110-10.2.2-location',
    source: 'RFC 9110 10.2.2',
    text: 'Location is a URI-reference (RFC 3986 4.1): an absolute URI, or a relative reference resolved against the request.',
    strength: 'MUST',
  },
  {
    id: 'RFC9110-10.2.3-retry-after',
    source: 'RFC 9110 10.2.3',
    text: 'Retry-After is an HTTP-date or a number of seconds (delta-seconds).',
    strength: 'MUST',
  },
  {
    id: 'RFC9110-11.6.1-www-authenticate',
    source: 'RFC 9110 11.6.1',
    text: 'WWW-Authenticate is a list of one or more challenges.',
    strength: 'MUST',
  },
  // Rules of RFC 6749 the exchange checks judge that the OAuth table words otherwise (or leaves to them).
  {
    id: 'RFC6749-3.2-parameters-once',
    source: 'RFC 6749 3.1, 3.2, 5.2',
    text: 'A request that repeats a parameter is malformed (invalid_request): it gets no code and no token.',
    strength: 'MUST',
  },
  {
    id: 'RFC6749-2.3-one-authentication-method',
    source: 'RFC 6749 2.3',
    text: 'A client uses one authentication method per request.',
    strength: 'MUST',
    bindsClient: 'RFC 6749 2.3: "the client MUST NOT use more than one authentication method in each request"',
  },
  {
    id: 'RFC6749-5.2-client-authentication-required',
    source: 'RFC 6749 3.2.1, 5.2',
    text: 'A confidential client that does not authenticate gets no token (invalid_client).',
    strength: 'MUST',
  },
  {
    id: 'RFC6749-4.4.2-required-fields',
    source: 'RFC 6749 4.1.3, 4.4.2',
    text: 'A token request without grant_type or a field its grant requires gets no token (invalid_request).',
    strength: 'MUST',
  },
  {
    id: 'RFC6749-5.2-unsupported-grant',
    source: 'RFC 6749 5.2; published documentation 5.2',
    text: 'A grant type the endpoint does not support gets no token (unsupported_grant_type).',
    strength: 'MUST',
    updates: [
      {
        by: `RFC 9700 2.4 and ${OAUTH21}`,
        says: 'forbid the resource owner password credentials grant and drop the implicit grant',
        today: 'MUST',
      },
    ],
  },
];

export const STANDINGS: ReadonlyMap<string, Standing> = new Map(
  [...[...RFC6749_ENDPOINTS, ...RFC6749_GRANTS, ...RESOURCES_AND_SECURITY].map(fromOAuthTable), ...OTHER_CLAUSES].map((s) => [s.id, s]),
);

/** The clause's standing; a check that names a clause no table has is the suite's own error. */
export function standingOf(id: string): Standing {
  const standing = STANDINGS.get(id);
  if (!standing) throw new Error(`the suite names a clause no table has: ${id}`);
  return standing;
}
