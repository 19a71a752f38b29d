// What the published client sent again, as evidence: each re-send the client itself announced (its onResend, which
// send/clients.ts wires), noted with why and what the target then answered. Nothing is inferred from two similar
// requests: a check may send the same request twice on purpose. The exchanges themselves are judged like every other
// (a token refused within its hour is a violation of token-lifetime, whoever absorbed it); the note shows which
// positive flows needed the client's help, and why.
import type { ResendEvent } from '../../src/index.ts';
import { resendOf } from '../send/clients.ts';
import type { Exchange } from '../send/fetch.ts';
import { operationIdOf } from './exchange-facts.ts';

/** A re-send in words: what the client did, and what the target answered it. */
export function resendNote(operationId: string, event: ResendEvent, answered: number): string {
  const client = 'the published client';
  switch (event.reason) {
    case 'renewed-credential':
      return `${client} renewed its token after a 401 and sent ${operationId} again; the server answered ${answered}`;
    case 'new-connection':
      return `${client} sent ${operationId} again on a new connection (the kept-alive one had been closed before an answer came); the server answered ${answered}`;
    case 'retry':
      return `${client} retried ${operationId} after ${event.status ? `a ${event.status}` : 'no answer'} (attempt ${event.attempt}); the server answered ${answered}`;
  }
}

/** Notes the exchange when the published client announced it as a re-send; every other exchange is left alone. */
export function recordClientEvidence(seen: Exchange): void {
  const event = resendOf(seen);
  if (!event) return;
  const operationId = operationIdOf(seen) ?? event.operation;
  seen.run.ledger.record({
    kind: 'note',
    operationId,
    dimension: 'client',
    text: resendNote(operationId, event, seen.response.status),
    test: seen.test,
  });
}
