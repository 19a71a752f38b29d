// Security: a refused request discloses nothing of what an accepted one returns (judge/disclosure.ts): no property of
// the operation's success schema, and no identifying value the run saw in an accepted answer, unless the request
// carried it. The values are learned from every accepted answer, after it was judged.
import { disclosures, learnAccepted } from '../disclosure.ts';
import { type ExchangeCheck, violation } from '../exchange-check.ts';
import { statusClassOf } from '../exchange-facts.ts';
import { PROMISES } from '../promises.ts';

/** What the request carried that an answer may name back: its URL (decoded too), its body and its headers. */
export function requestText(seen: Parameters<ExchangeCheck['judge']>[0]): string {
  let decoded = seen.request.url;
  try {
    decoded = decodeURIComponent(seen.request.url);
  } catch {
    // a malformed percent-encoding: the raw URL is all there is
  }
  return `${seen.request.url}\n${decoded}\n${seen.request.body}\n${[...seen.request.headers.values()].join('\n')}`;
}

export const refusalDisclosure: ExchangeCheck = {
  id: 'refusals-disclose-nothing',
  promise: PROMISES.disclosure,
  source: { security: 'refusals disclose nothing' },
  clauses: ['security-refusals-disclose-nothing'],
  operations: '*',
  statuses: '4xx',
  judge(seen) {
    const { operation } = seen;
    if (!operation) return [];
    if (statusClassOf(seen) < 4) {
      learnAccepted(operation.operationId, seen.bodyText, seen.response.headers.get('location'));
      return [];
    }
    if (statusClassOf(seen) !== 4) return [];
    return disclosures(operation, requestText(seen), seen.response.status, seen.bodyText).map((message) =>
      violation(refusalDisclosure, message),
    );
  },
};
