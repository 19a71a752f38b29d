// The security questions crossed with the operation operators: two things off at once. A request that asks one (another
// lessee's vehicle, an unregistered redirect URI) must still be refused, or kept apart, whatever else is off in it: an
// undocumented query parameter, another method, a credential in another channel, an unsupported response type. Each
// alone is handled right by a server that still fails the two together. The questions are derived from the registry's
// roles, so a new operation of the same kind is asked them too; every answer is judged by every exchange check, and the
// coverage counts the requests of each crossing as "<question> × <operator>".
import { describe, it, type TestContext } from 'vitest';
import type { ApiName } from '../../spec-core/apis.ts';
import { isSafeMethod } from '../../spec-core/http-methods.ts';
import { applicationsOf } from '../operators/operators.ts';
import { OPERATION_OPERATORS } from '../operators/operation-operators.ts';
import { isInapplicable, type Variant } from '../operators/operator.ts';
import { entryLabel, place, send, withCredentials } from '../send/model.ts';
import { specModel, type ModelEntry } from '../model/model-entries.ts';
import { specRoles } from '../model/operations.ts';
import type { RequestParts } from '../send/parts.ts';
import { reasonIfUnset } from '../send/target.ts';
import { mapConcurrently } from '../send/transport.ts';
import type { Run } from '../send/run.ts';
import { redactNearCopies, skipUnjudgedSweep, valuesOf } from './operator-sweep.ts';

/** A redirect URI no client registered: the .invalid top-level domain never resolves (RFC 6761 6.4). */
const UNREGISTERED_REDIRECT_URI = 'https://contract-unregistered.invalid/callback';

interface Question {
  id: string;
  title: string;
  applies(entry: ModelEntry): boolean;
  /** Why the run cannot ask it (a variable unset), if so. */
  reasonIfCannot(run: Run): string | undefined;
  /** The valid request turned into the question, for the run's target. */
  ask(run: Run, entry: ModelEntry, parts: RequestParts): RequestParts;
  /** It addresses data that is not the partner's: only safe methods, unless the run may write. */
  guardsOthersData?: boolean;
}

/** A variant's method asks for nothing to change (a variant without a method keeps its operation's, which a question
 * that guards others' data only asks of a reading operation). */
export const isSafe = (method: string | undefined) => method === undefined || isSafeMethod(method);

const parameterNamed = (entry: ModelEntry, name: string) => entry.parameters.find((parameter) => parameter.name === name);

export const QUESTIONS: readonly Question[] = [
  {
    id: 'foreign-object',
    title: "another lessee's vehicle",
    applies: (entry) => specRoles().getsOneVehicle.includes(entry.operationId),
    reasonIfCannot: (run) => reasonIfUnset(run.target, 'LP_FLEET_FOREIGN_VEHICLE_NUMBER'),
    guardsOthersData: true,
    ask: (run, entry, parts) => place(parts, parameterNamed(entry, 'vehicleNumber')!, run.target.env.LP_FLEET_FOREIGN_VEHICLE_NUMBER!),
  },
  {
    id: 'unregistered-redirect',
    title: 'an unregistered redirect URI',
    // Where asking needs no code: a code exchange spends one per request (its own checks send those).
    applies: (entry) => specRoles().authorization.includes(entry.operationId) && parameterNamed(entry, 'redirect_uri') !== undefined,
    reasonIfCannot: (run) => reasonIfUnset(run.target, 'LP_REDIRECT_URI'),
    ask: (_run, entry, parts) => place(parts, parameterNamed(entry, 'redirect_uri')!, UNREGISTERED_REDIRECT_URI),
  },
];

const NO_HANDLING =
  "the Prism mock answers from the spec's examples: it keeps no lessee apart and registers no redirect URI (the sandbox and a live target do)";

/** One test per operation of the API and question that applies to it, sending through the run. */
export function questionChecks(run: Run, api: ApiName): void {
  const pairs = specModel()
    .filter((entry) => entry.operation.api === api)
    .flatMap((entry) =>
      QUESTIONS.filter((question) => question.applies(entry)).map(
        (question) => [`${entryLabel(entry)}: ${question.title}, crossed with every operation operator`, entry, question] as const,
      ),
    );
  if (!pairs.length) return;
  describe(`the security questions crossed with the operators, on the ${api} operations`, () => {
    it.for(pairs)('%s', ([, entry, question], ctx) => questionCheck(run, entry, question, ctx));
  });
}

async function questionCheck(run: Run, entry: ModelEntry, question: Question, ctx: TestContext): Promise<void> {
  await skipUnjudgedSweep(run, ctx, entry, NO_HANDLING, question.reasonIfCannot(run));
  const parts = question.ask(run, entry, await withCredentials(run, entry));
  const values = await valuesOf(run, entry, parts);
  const applications = applicationsOf(entry, { parts, values }, OPERATION_OPERATORS).filter((a) => !isInapplicable(a.made));
  const all = applications.flatMap((a) => (a.made as Variant[]).map((variant) => [a.operator.id, variant] as const));
  // Another lessee's object is never sent a method that could change it unless the run may write: a server that
  // obeyed would change data that is not the partner's to change.
  const jobs = all.filter(([, variant]) => run.target.writesAllowed || !question.guardsOthersData || isSafe(variant.method));
  if (jobs.length < all.length)
    console.log(
      `${entryLabel(entry)}, ${question.title}: ${all.length - jobs.length} variants with a method that could change it not sent (writes are not allowed: LP_ALLOW_WRITES=1 and LP_TEST_LOAD_ID)`,
    );
  for (const [operator, variant] of jobs) redactNearCopies(run.redactor, operator, undefined, variant);
  const sent = await mapConcurrently(jobs, ([operator, variant]) =>
    send(run, entry, variant.change(parts), {
      ...(variant.method ? { method: variant.method } : {}),
      dimension: 'operators',
      operator: { id: `${question.id} × ${operator}` },
    }),
  );
  ctx.expect(sent.length, 'variants sent').toBe(jobs.length);
}
