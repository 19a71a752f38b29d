// A token keeps working for its documented hour (seed 2.3, 5.2 and 8): a refusal of a bearer-protected call (401) that
// carried a token the run was issued, with the configured subscription key in place, is a violation while the token is
// younger than its lifetime (what its answer declared, at most the seed's 3600 seconds) less a minute's margin for clocks
// and round trips. Judged on every exchange, so a refusal the published client absorbed (it refreshes the token and
// replays the call) is still seen: the client's retries are evidence, not a place for the fault to hide.
import { specRoles } from '../../model/operations.ts';
import { type ExchangeCheck, violation } from '../exchange-check.ts';
import { bearerOf } from '../exchange-facts.ts';
import { PROMISES } from '../promises.ts';
import { keyInPlace } from './bearer-challenge.ts';

/** Clocks and round trips: a refusal this close to the end of the lifetime is not judged. */
export const LIFETIME_MARGIN_SECONDS = 60;

export const tokenLifetime: ExchangeCheck = {
  id: 'token-lifetime',
  promise: () => PROMISES.seed('5.2', 'an access token is valid for one hour (3600 seconds, section 8)'),
  source: { seed: '5.2' },
  clauses: ['seed-5.2-token-lifetime'],
  operations: specRoles().bearerProtected,
  statuses: '401',
  needs: 'verifiesCredentials',
  judge(seen, context) {
    const token = bearerOf(seen);
    const issued = token === undefined ? undefined : context.tokens.get(token);
    if (!seen.operation || seen.response.status !== 401 || !issued || !keyInPlace(seen, context)) return [];
    const age = context.ageSeconds(issued, seen.sentAt);
    if (age >= issued.lifetimeSeconds - LIFETIME_MARGIN_SECONDS) return [];
    return [
      violation(
        tokenLifetime,
        `${seen.operation.operationId} refused (401) a token of ${issued.operationId} ${age.toFixed(1)} s after it was issued, within its lifetime of ${issued.lifetimeSeconds} s`,
      ),
    ];
  },
};
