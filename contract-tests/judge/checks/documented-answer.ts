// The documented answer: a documented status, the documented content type, a body valid against the schema, the required
// headers (judge/conformance.ts). Where the answer breaks a place an x-assumption covers, it contradicts that assumption;
// anywhere else it violates the published documentation (judge/verdicts.ts). An address no operation has is a violation
// unless the request was built on purpose for another address (a raw request of the operators); a method its path does
// not document has no documented answer to match (only "no 5xx" holds for it).
import type { Finding } from '../../model/findings.ts';
import { AnswerMemo } from '../answer-memo.ts';
import { inspectionKey, inspectResponse, type ObservedResponse } from '../conformance.ts';
import { headerGrammar } from '../header-grammar.ts';
import { type ExchangeCheck, violation } from '../exchange-check.ts';
import type { Operation } from '../../model/spec.ts';
import { PROMISES, sectionOfOperation } from '../promises.ts';
import { verdictOf } from '../verdicts.ts';

/** A header that breaks its own grammar breaks RFC 9110; anything else the published documentation (header-grammar.ts). */
const grammarClause = (message: string) => {
  const header = /: header (\S+) ".*" is not /.exec(message)?.[1];
  return (header && headerGrammar(header)?.clause) ?? 'seed-documented-answer';
};

const assumptionOf = (a: { api: string; pointer: string; what: string }) => ({ api: a.api, pointer: a.pointer, match: a.what });

export const documentedAnswer: ExchangeCheck = {
  id: 'documented-answer',
  promise: () => PROMISES.seed(undefined, 'every answer is a documented status, content type, schema and headers'),
  source: { seed: '4' },
  clauses: ['seed-documented-answer', 'RFC9110-10.2.2-location', 'RFC9110-10.2.3-retry-after', 'RFC9110-11.6.1-www-authenticate'],
  operations: '*',
  statuses: 'any but 5xx',
  judge(seen) {
    const { operation } = seen;
    const path = new URL(seen.request.url).pathname;
    if (!operation) {
      if (seen.pathOnly || seen.meta.operationId) return [];
      return [
        violation(
          documentedAnswer,
          `${seen.request.method} ${path} answered ${seen.response.status}: no operation of the spec has this address`,
        ),
      ];
    }
    const answer = { status: seen.response.status, headers: seen.response.headers, bodyText: seen.bodyText };
    // A copy: the findings kept for the next same answer are never changed.
    return [...findingsOfAnswer.of(inspectionKey(operation, answer), () => findingsOf(operation, answer))];
  },
};

/** The same answer of an operation is judged alike: its findings are worked out once (judge/answer-memo.ts). */
const findingsOfAnswer = new AnswerMemo<Finding[]>();

/** The documented answer's findings for one answer of `operation`: violations, contradicted and confirmed assumptions. */
function findingsOf(operation: Operation, answer: ObservedResponse): Finding[] {
  const promise = (statement: string) => PROMISES.seed(sectionOfOperation(operation.operationId), statement);
  const inspection = inspectResponse(operation, answer);
  const verdict = verdictOf(operation.api, {
    ...inspection,
    problems: inspection.problems.filter((p) => !/a 5xx status/.test(p.message)),
  });
  const findings: Finding[] = verdict.violations.map((message) => ({
    check: documentedAnswer.id,
    promise: promise(message.replace(/^(\S+) answered \d+: /, '$1: ')),
    verdict: 'violation',
    message,
    clause: grammarClause(message),
  }));
  for (const { assumption, problems } of verdict.contradictions)
    findings.push({
      check: documentedAnswer.id,
      promise: promise(assumption.what),
      verdict: 'contradicted',
      message: problems.join('; '),
      assumption: assumptionOf(assumption),
    });
  for (const assumption of verdict.confirmed)
    findings.push({
      check: documentedAnswer.id,
      promise: promise(assumption.what),
      verdict: 'confirmed',
      message: 'answered as assumed',
      assumption: assumptionOf(assumption),
    });
  return findings;
}
