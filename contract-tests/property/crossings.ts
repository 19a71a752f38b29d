// Two and three faults at once, bounded: for every operation, a pairwise covering array (operators/pairwise.ts) over
// three dimensions (a security question or none, a class of parameter operators, a class of operation operators:
// operators/crossing-classes.ts) gives rows in which every pair of values of two dimensions is tried at least once.
// A row is one request: the valid request asked the question, then changed by one variant of each class. A server that
// handles each fault alone but not two together (a wrong key let through when the query has an unknown parameter) is
// caught by the exchange checks, which judge every answer. The coverage counts each row's requests as
// "pairwise: <question> × <parameter class> × <operation class>" (report/coverage.ts: per dimension and per pair).
import { describe, it, type TestContext } from 'vitest';
import type { ApiName } from '../../spec-core/apis.ts';
import { OPERATION_CLASSES, type OperatorClass, PARAMETER_CLASSES } from '../operators/crossing-classes.ts';
import { isInapplicable, type Variant } from '../operators/operator.ts';
import { type Application, applicationsOf, OPERATORS } from '../operators/operators.ts';
import { coveringArray } from '../operators/pairwise.ts';
import { wrongValues } from '../operators/wrong-credentials.ts';
import { type ModelEntry, specModel } from '../model/model-entries.ts';
import { CREDENTIALS, entryLabel, holding, send, without, withCredentials } from '../send/model.ts';
import { crossingName } from '../send/ledger.ts';
import type { RequestParts } from '../send/parts.ts';
import type { Run } from '../send/run.ts';
import { mapConcurrently } from '../send/transport.ts';
import { skipIf } from '../support/skips.ts';
import { redactNearCopies, skipUnjudgedSweep, valueIn, valuesOf } from './operator-sweep.ts';
import { isSafe, QUESTIONS } from './questions.ts';

/** A question a row asks of the valid request; `none` asks nothing. */
interface Asked {
  id: string;
  ask(run: Run, entry: ModelEntry, parts: RequestParts): RequestParts;
  /** Whether it changes the credentials (the parameter operators then leave the credentials alone). */
  credentials?: boolean;
  /** It addresses data that is not the partner's: only safe methods, unless the run may write. */
  guardsOthersData?: boolean;
}

const NONE: Asked = { id: 'none', ask: (_run, _entry, parts) => parts };
const secretParameters = (entry: ModelEntry) => entry.parameters.filter((p) => p.credential && CREDENTIALS[p.credential].secret);

const NO_CREDENTIAL: Asked = {
  id: 'no-credential',
  credentials: true,
  ask: (_run, entry, parts) => entry.credentials.reduce((next, id) => without(next, CREDENTIALS[id]), parts),
};

const WRONG_CREDENTIAL: Asked = {
  id: 'wrong-credential',
  credentials: true,
  // Every secret credential one character off: the near miss a prefix or case-folding comparison lets through.
  ask: (run, entry, parts) =>
    secretParameters(entry).reduce((next, parameter) => {
      const value = valueIn(parts, parameter);
      const wrong = value === undefined ? undefined : wrongValues(value, run.redactor).at(-1);
      return wrong === undefined ? next : holding(next, CREDENTIALS[parameter.credential!], wrong);
    }, parts),
};

/** The questions that apply to the entry, and can be asked in the run. */
function questionsOf(run: Run, entry: ModelEntry): Asked[] {
  const asked: Asked[] = [NONE];
  if (secretParameters(entry).length) asked.push(NO_CREDENTIAL, WRONG_CREDENTIAL);
  for (const question of QUESTIONS)
    if (question.applies(entry) && !question.reasonIfCannot(run))
      asked.push({ id: question.id, ask: question.ask, ...(question.guardsOthersData ? { guardsOthersData: true } : {}) });
  return asked;
}

type Chosen = { application: Application; variant: Variant };

/** The variants of a class that the question may send, one operator and parameter after another (round robin), so
 * that successive rows that take the class's next variant go through all its operators and parameters. */
function classVariants(
  run: Run,
  entry: ModelEntry,
  parts: RequestParts,
  values: Record<string, string>,
  c: OperatorClass,
  asked: Asked,
): Chosen[] {
  const operators = OPERATORS.filter((operator) => c.operators.includes(operator.id));
  const applications = applicationsOf(entry, { parts, values, protect: entry.table.protect }, operators).filter(
    (a) => !isInapplicable(a.made) && !(asked.credentials && a.parameter?.credential),
  );
  // Another lessee's object is never sent a method that could change it unless the run may write.
  const sendable = (variant: Variant) => !asked.guardsOthersData || run.target.writesAllowed || isSafe(variant.method);
  const lists = applications.map((a) => (a.made as Variant[]).filter(sendable).map((variant) => ({ application: a, variant })));
  const longest = Math.max(0, ...lists.map((list) => list.length));
  return Array.from({ length: longest }, (_, index) => lists.flatMap((list) => (list[index] ? [list[index]] : []))).flat();
}

/** A row's request: the question asked, then one variant of each class (the `use`th of its class for that question). */
interface Row {
  asked: Asked;
  parameterClass: OperatorClass;
  operationClass: OperatorClass;
}

/** The rows of the entry: the covering array of its questions and the classes with a variant for it. */
function rowsOf(questions: Asked[], applies: (c: OperatorClass) => boolean): Row[] {
  const parameterClasses = PARAMETER_CLASSES.filter(applies);
  const operationClasses = OPERATION_CLASSES.filter(applies);
  if (!parameterClasses.length || !operationClasses.length) return [];
  return coveringArray<Asked | OperatorClass>([questions, parameterClasses, operationClasses]).map(([asked, p, o]) => ({
    asked: asked as Asked,
    parameterClass: p as OperatorClass,
    operationClass: o as OperatorClass,
  }));
}

/** One test per operation of the API: its covering array's rows, sent side by side through the run. */
export function crossingChecks(run: Run, api: ApiName): void {
  const entries = specModel().filter((entry) => entry.operation.api === api);
  if (!entries.length) return;
  describe(`pairwise crossings of the security questions and the operator classes, on the ${api} operations`, () => {
    it.for(entries.map((entry) => [entryLabel(entry), entry] as const))('%s', ([, entry], ctx) => crossingCheck(run, entry, ctx));
  });
}

const NO_HANDLING =
  "the Prism mock answers from the spec's examples: it keeps no lessee apart and checks no value (the sandbox and a live target do)";

async function crossingCheck(run: Run, entry: ModelEntry, ctx: TestContext): Promise<void> {
  await skipUnjudgedSweep(run, ctx, entry, NO_HANDLING);
  skipIf(
    run,
    ctx,
    [entry.operationId],
    entry.table.needsCode
      ? 'each row would spend an authorization code; the same client password is crossed on the client credentials grant'
      : undefined,
  );
  const base = await withCredentials(run, entry);
  const questions = questionsOf(run, entry);
  const prepared = new Map<string, { parts: RequestParts; byClass: Map<string, Chosen[]> }>();
  for (const asked of questions) {
    const parts = asked.ask(run, entry, base);
    const values = await valuesOf(run, entry, parts);
    const byClass = new Map(
      [...PARAMETER_CLASSES, ...OPERATION_CLASSES].map((c) => [c.id, classVariants(run, entry, parts, values, c, asked)]),
    );
    prepared.set(asked.id, { parts, byClass });
  }
  const applies = (c: OperatorClass) => [...prepared.values()].some(({ byClass }) => (byClass.get(c.id)?.length ?? 0) > 0);
  const rows = rowsOf(questions, applies);
  const uses = new Map<string, number>();
  const requests = rows.flatMap((row) => {
    const { parts, byClass } = prepared.get(row.asked.id)!;
    /** The class's next variant for this question. */
    const take = (c: OperatorClass): Chosen | undefined => {
      const variants = byClass.get(c.id) ?? [];
      if (!variants.length) return undefined;
      const key = `${row.asked.id} ${c.id}`;
      const use = uses.get(key) ?? 0;
      uses.set(key, use + 1);
      return variants[use % variants.length];
    };
    const p = take(row.parameterClass);
    const o = take(row.operationClass);
    return p && o ? [{ row, parts, p, o }] : [];
  });
  skipIf(run, ctx, [entry.operationId], requests.length ? undefined : 'no row of the covering array has a variant of both classes for it');
  const sent = await mapConcurrently(requests, ({ row, parts, p, o }) => {
    redactNearCopies(run.redactor, p.application.operator.id, p.application.parameter, p.variant, valueIn(parts, p.application.parameter!));
    redactNearCopies(run.redactor, o.application.operator.id, undefined, o.variant);
    const method = o.variant.method ?? p.variant.method;
    return send(run, entry, o.variant.change(p.variant.change(parts)), {
      ...(method ? { method } : {}),
      dimension: 'operators',
      operator: { id: crossingName([row.asked.id, row.parameterClass.id, row.operationClass.id]) },
    });
  });
  ctx.expect(sent.length, 'rows sent').toBe(requests.length);
}
