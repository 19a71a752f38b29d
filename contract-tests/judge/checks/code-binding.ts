// A code is bound to its grant (RFC 6749 4.1.2, 4.1.3), on every exchange at the identity provider's token endpoint,
// whatever its shape: a token for a code the run obtained requires that the code was not redeemed before (4.1.2: once),
// that redirect_uri is present and identical to the one of its authorize request (4.1.3), and that the client is the one
// it was issued to. A code the run never obtained from the authorize endpoint gets no token at all.
import { specRoles } from '../../model/operations.ts';
import type { Exchange } from '../../send/fetch.ts';
import type { RunContext } from '../context.ts';
import { type ExchangeCheck, violation } from '../exchange-check.ts';
import { answerObject, basicOf, formOf, statusClassOf, valuesOf } from '../exchange-facts.ts';
import { PROMISES } from '../promises.ts';

function problemsOf(seen: Exchange, context: RunContext): Array<[clause: string, section: string, what: string]> {
  const form = formOf(seen);
  const code = valuesOf(form, 'code')[0];
  if (valuesOf(form, 'grant_type')[0] !== 'authorization_code' || code === undefined) return [];
  const issued = context.codes.get(code);
  if (!issued) return [['RFC6749-4.1.3-code-valid', '4.1.3', 'exchanged a code the authorize endpoint never issued to this run']];
  const problems: Array<[clause: string, section: string, what: string]> = [];
  if (issued.redeemed) problems.push(['RFC6749-4.1.2-code-reuse-denied', '4.1.2', 'exchanged a code that was already redeemed']);
  const redirect = valuesOf(form, 'redirect_uri');
  if (issued.redirectUri !== undefined && redirect[0] !== issued.redirectUri)
    problems.push([
      redirect.length ? 'RFC6749-4.1.3-redirect-uri-identical' : 'RFC6749-4.1.3-redirect-uri-present',
      '4.1.3',
      redirect.length
        ? 'exchanged a code with another redirect_uri than its authorize request'
        : 'exchanged a code without the redirect_uri of its authorize request',
    ]);
  const client = valuesOf(form, 'client_id')[0] ?? basicOf(seen)?.id;
  if (issued.clientId !== undefined && client !== undefined && client !== issued.clientId)
    problems.push(['RFC6749-10.5-same-client', '4.1.3', 'exchanged a code for another client than the one it was issued to']);
  return problems;
}

export const codeBinding: ExchangeCheck = {
  id: 'code-bound-to-grant',
  promise: () => PROMISES.rfc('6749', '4.1.3'),
  source: { rfc: '6749', section: '4.1.2, 4.1.3' },
  clauses: [
    'RFC6749-4.1.3-code-valid',
    'RFC6749-4.1.2-code-reuse-denied',
    'RFC6749-4.1.3-redirect-uri-present',
    'RFC6749-4.1.3-redirect-uri-identical',
    'RFC6749-10.5-same-client',
  ],
  operations: specRoles().tokenEndpoints,
  statuses: '2xx',
  needs: 'hasDataSemantics',
  judge(seen, context) {
    if (!seen.operation || statusClassOf(seen) !== 2) return [];
    if (typeof answerObject(seen)?.access_token !== 'string') return [];
    return problemsOf(seen, context).map(([clause, section, what]) => ({
      ...violation(
        codeBinding,
        `${seen.operation!.operationId} answered ${seen.response.status} (a token): ${what} (RFC 6749 ${section})`,
        clause,
      ),
      promise: PROMISES.rfc('6749', section),
    }));
  },
};
