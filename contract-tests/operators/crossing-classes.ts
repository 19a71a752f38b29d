// The dimensions of the pairwise crossings (property/crossings.ts): the operators in classes, one dimension of
// parameter operators and one of operation operators, so that every pair of a security question, a parameter class and
// an operation class is tried in a bounded number of requests. Every operator is in exactly one class
// (self/pairwise.test.ts holds it), so a new operator joins the crossings as soon as it is classed.
import { OPERATORS } from './operators.ts';

export interface OperatorClass {
  id: string;
  operators: readonly string[];
}

/** What a parameter operator does to the value, in six kinds. */
export const PARAMETER_CLASSES: readonly OperatorClass[] = [
  { id: 'absent', operators: ['omit', 'empty'] },
  { id: 'whitespace-case', operators: ['pad', 'case'] },
  { id: 'encodings', operators: ['percent-once', 'percent-twice', 'malformed-encoding'] },
  { id: 'near-values', operators: ['near-miss', 'injection', 'repeat'] },
  { id: 'unicode', operators: ['unicode'] },
  { id: 'bounds-types', operators: ['format-boundary', 'over-limit', 'json-types'] },
];

/** What an operation operator does to the request as a whole, in six kinds. */
export const OPERATION_CLASSES: readonly OperatorClass[] = [
  { id: 'undocumented', operators: ['undocumented-query', 'undocumented-fields'] },
  { id: 'credential-places', operators: ['credential-channels', 'basic-credentials'] },
  { id: 'methods', operators: ['methods'] },
  { id: 'grant-types', operators: ['grant-types'] },
  { id: 'media-types', operators: ['media-types'] },
  { id: 'body-shapes', operators: ['body-shapes'] },
];

/** What is wrong with the classes against the operators: an operator in no class or in two, a class naming none. */
export function classProblems(operators = OPERATORS.map((operator) => operator.id)): string[] {
  const classes = [...PARAMETER_CLASSES, ...OPERATION_CLASSES];
  const problems: string[] = [];
  for (const id of operators) {
    const holding = classes.filter((c) => c.operators.includes(id)).map((c) => c.id);
    if (holding.length !== 1) problems.push(`the operator "${id}" is in ${holding.length ? holding.join(' and ') : 'no class'}`);
  }
  for (const c of classes)
    for (const id of c.operators) if (!operators.includes(id)) problems.push(`the class "${c.id}" names "${id}", no operator`);
  return problems;
}
