// Get one vehicle answers the vehicle that was asked for (seed 4.6): its vehicleNumber is the path's, decoded once as
// any server decodes a path segment. One that differs only in letter case or surrounding whitespace contradicts the
// specs' guess that vehicle numbers match exactly; any other vehicle, or one a second decoding found, breaks 4.6.
import { specRoles } from '../../model/operations.ts';
import { ASSUMPTIONS } from '../assumptions.ts';
import { assumptionOutcome, type ExchangeCheck, violation } from '../exchange-check.ts';
import { answerObject, statusClassOf } from '../exchange-facts.ts';
import { PROMISES } from '../promises.ts';

const loosely = (value: string) => value.trim().toLowerCase();

export const getOneAsked: ExchangeCheck = {
  id: 'get-one-asked',
  promise: () => PROMISES.seed('4.6', 'get one vehicle answers the vehicle asked for'),
  source: { seed: '4.6' },
  clauses: ['seed-4.6-get-one'],
  operations: specRoles().getsOneVehicle,
  statuses: '2xx',
  needs: 'hasDataSemantics',
  judge(seen, context) {
    if (!seen.operation || statusClassOf(seen) !== 2) return [];
    const match = seen.operation.pathPattern.exec(
      new URL(seen.request.url).pathname.slice(pathPrefix(context.env[seen.operation.baseVariable]).length),
    );
    let asked: string;
    try {
      asked = decodeURIComponent(match?.[1] ?? '');
    } catch {
      return [];
    }
    const answered = answerObject(seen)?.vehicleNumber;
    if (answered === asked) return [ASSUMPTION_KEPT(asked)];
    if (typeof answered === 'string' && loosely(answered) === loosely(asked))
      return [
        assumptionOutcome(
          getOneAsked,
          ASSUMPTIONS.exactMatch,
          `${seen.operation.operationId} for '${asked}' answered vehicle '${answered}', which differs in case or whitespace only`,
        ),
      ];
    return [
      violation(
        getOneAsked,
        `${seen.operation.operationId} for '${asked}' answered ${seen.response.status} with vehicle ${JSON.stringify(answered ?? null)}`,
      ),
    ];
  },
};

const ASSUMPTION_KEPT = (asked: string) =>
  assumptionOutcome(getOneAsked, ASSUMPTIONS.exactMatch, `the vehicle '${asked}' was answered as asked`, true);

/** The path prefix of a base URL, which the operation's path pattern does not include. */
const pathPrefix = (base: string | undefined) => (base && URL.canParse(base) ? new URL(base).pathname.replace(/\/+$/, '') : '');
