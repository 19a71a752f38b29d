// A workflow step's success criteria as Postman tests: each Arazzo criterion of a shape the workflows use becomes one
// `pm.test`, named by the criterion itself. A criterion of another shape is an error here, so a new kind of check in a
// workflow cannot drop out of the Postman folders unnoticed.
import { shellName } from '../workflows/step-request.ts';

type Criterion = { condition: string; context?: string; type?: string };

/** The prefix of the collection variables a workflow's steps keep for the steps after them. */
export const WORKFLOW_VARIABLE_PREFIX = 'wf_';

/** The collection variable of a step output or input (`accessToken` -> `wf_access_token`). */
export const workflowVariable = (name: string) => `${WORKFLOW_VARIABLE_PREFIX}${shellName(name).toLowerCase()}`;

/** A JavaScript expression for one side of a simple condition. */
function operand(side: string): string {
  const trimmed = side.trim();
  if (trimmed === '$statusCode') return 'pm.response.code';
  const body = /^\$response\.body#(\/\S*)$/.exec(trimmed);
  if (body) return `at(pm.response.json(), ${JSON.stringify(body[1])})`;
  const output = /^\$steps\.[\w-]+\.outputs\.(\w+)$/.exec(trimmed);
  if (output) return `pm.collectionVariables.get(${JSON.stringify(workflowVariable(output[1]!))})`;
  if (/^'[^']*'$/.test(trimmed)) return JSON.stringify(trimmed.slice(1, -1));
  if (/^\d+$/.test(trimmed)) return trimmed;
  throw new Error(`no Postman test for the operand "${trimmed}"`);
}

/** JSONPath conditions of the workflows, as JavaScript on the answer's body. */
const JSONPATH: Array<[RegExp, (m: RegExpExecArray) => string]> = [
  [/^\$\[\?count\(@\[\?!@\.(\w+)\]\) == 0\]$/, (m) => `pm.response.json().every((item) => item && ${JSON.stringify(m[1])} in item)`],
  [/^\$\[\?!@\.(\w+)\]$/, (m) => `!(${JSON.stringify(m[1])} in pm.response.json())`],
  [/^\$\[\?length\(@\.(\w+)\) > 0\]$/, (m) => `String(pm.response.json()[${JSON.stringify(m[1])}] ?? '').length > 0`],
  [/^\$\[\?length\(@\) > 0\]$/, () => 'pm.response.json().length > 0'],
];

/** The JavaScript condition a criterion states. */
function conditionOf(criterion: Criterion): string {
  if (criterion.type === 'jsonpath') {
    if (criterion.context !== '$response.body') throw new Error(`no Postman test for a JSONPath on ${criterion.context}`);
    for (const [pattern, code] of JSONPATH) {
      const match = pattern.exec(criterion.condition);
      if (match) return code(match);
    }
    throw new Error(`no Postman test for the JSONPath condition "${criterion.condition}"`);
  }
  const sides = criterion.condition.split(/\s*(==|!=)\s*/);
  if (sides.length !== 3) throw new Error(`no Postman test for the condition "${criterion.condition}"`);
  return `${operand(sides[0]!)} ${sides[1] === '==' ? '===' : '!=='} ${operand(sides[2]!)}`;
}

/** The helper the tests use to read a JSON pointer (`/0/vin`) of the answer. */
export const AT_HELPER =
  "const at = (value, pointer) => pointer.split('/').slice(1).reduce((node, key) => (node == null ? undefined : node[key.replace(/~1/g, '/').replace(/~0/g, '~')]), value);";

/** One `pm.test` per criterion (a criterion of an unknown shape throws). */
export function criteriaTests(criteria: Criterion[]): string[] {
  return criteria.map(
    (criterion) => `pm.test(${JSON.stringify(criterion.condition)}, () => pm.expect(${conditionOf(criterion)}).to.equal(true));`,
  );
}
