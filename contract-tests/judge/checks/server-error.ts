// No 5xx, on any exchange: a documented operation, another method on its path, an address no operation has. A server
// error is never the client's fault, so no x-assumption can cover it.
import { type ExchangeCheck, violation } from '../exchange-check.ts';
import { operationIdOf } from '../exchange-facts.ts';
import { PROMISES } from '../promises.ts';

export const serverError: ExchangeCheck = {
  id: 'no-server-error',
  promise: PROMISES.serverError,
  source: { security: 'no 5xx' },
  clauses: ['security-no-5xx'],
  operations: '*',
  statuses: '5xx',
  judge(seen) {
    const { status } = seen.response;
    if (status < 500) return [];
    const what = operationIdOf(seen) ?? `${seen.request.method} ${new URL(seen.request.url).pathname}`;
    return [violation(serverError, `${what} answered ${status}: a 5xx status (the server failed on this request)`)];
  },
};
