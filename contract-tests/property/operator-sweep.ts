// The operators of the negative space (operators/) sent to every operation of one API: each parameter operator to
// each documented parameter and credential, each operation operator to the request as a whole. A test per operation and
// operator; its requests go out together (the transport bounds what is in flight). No check here asserts an outcome
// of its own: every answer is judged by the exchange checks (judge/exchange-checks.ts), so a server that breaks any
// promise on any variant fails the test, naming the promise.
import { describe, it, type TestContext } from 'vitest';
import type { ApiName } from '../../spec-core/apis.ts';
import { type Application, applicationsOf, OPERATORS } from '../operators/operators.ts';
import { isInapplicable, type Variant } from '../operators/operator.ts';
import { reasonIfCannot } from '../send/capabilities.ts';
import { CREDENTIALS } from '../model/credentials.ts';
import { entryLabel, place, reasonIfCannotSend, send, sampleValue, withCredentials } from '../send/model.ts';
import { specModel, type ModelEntry } from '../model/model-entries.ts';
import type { DocumentedParameter } from '../model/operations.ts';
import type { RequestParts } from '../send/parts.ts';
import { mapConcurrently } from '../send/transport.ts';
import type { Redactor } from '../send/redact.ts';
import type { Run } from '../send/run.ts';
import { skipIf } from '../support/skips.ts';

/** The value a parameter holds in the parts (a credential without its header prefix), if any. */
export function valueIn(parts: RequestParts, parameter: DocumentedParameter): string | undefined {
  const { name } = parameter;
  switch (parameter.in) {
    case 'path':
      return parts.path[name];
    case 'query':
      return parts.query.find(([n]) => n === name)?.[1];
    case 'form':
      return parts.form?.find(([n]) => n === name)?.[1];
    case 'json': {
      const value = (parts.json as Record<string, unknown> | undefined)?.[name];
      return typeof value === 'string' ? value : undefined;
    }
    case 'header': {
      const value = Object.entries(parts.headers).find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
      const prefix = parameter.credential ? CREDENTIALS[parameter.credential].where : undefined;
      return prefix?.in === 'header' && prefix.prefix && value?.startsWith(prefix.prefix) ? value.slice(prefix.prefix.length) : value;
    }
  }
}

/** A valid request (`given`, else a new one) with the parameter holding a value: its own, or the table's sample put in
 * place. */
type Base = { parts: RequestParts; value?: string };
async function baseFor(run: Run, entry: ModelEntry, parameter: DocumentedParameter | undefined, given?: RequestParts): Promise<Base> {
  let parts = given ?? (await withCredentials(run, entry));
  if (!parameter) return { parts };
  let value = valueIn(parts, parameter);
  if (value === undefined) {
    value = await sampleValue(run, entry, parameter);
    if (value !== undefined) parts = place(parts, parameter, value);
  }
  return { parts, ...(value === undefined ? {} : { value }) };
}

/** Every parameter's value in one valid request (or a sample): one request's worth, so one fresh code at most. */
export async function valuesOf(run: Run, entry: ModelEntry, parts: RequestParts): Promise<Record<string, string>> {
  const values: Record<string, string> = {};
  for (const parameter of entry.parameters) {
    const value = valueIn(parts, parameter) ?? (await sampleValue(run, entry, parameter));
    if (value !== undefined) values[parameter.name] = value;
  }
  return values;
}

/** The operation operators that move or change a credential as a whole. */
const CREDENTIAL_OPERATORS = new Set(['credential-channels', 'basic-credentials']);

/** Near copies of a secret are as sensitive as the secret, and a credential moved to another channel is the credential:
 * each is registered with the run's redactor before it is sent, wherever a server might echo it. (A value made from the
 * secret is about its size, `value` the one it was made from; the Unicode values are not made from it.) */
export function redactNearCopies(
  redactor: Redactor,
  operatorId: string,
  parameter: DocumentedParameter | undefined,
  variant: Variant,
  value?: string,
): void {
  const secret = parameter?.credential && CREDENTIALS[parameter.credential].secret;
  if (!secret && !CREDENTIAL_OPERATORS.has(operatorId)) return;
  for (const v of variant.values) if (v.length <= 2 * (value?.length ?? 64) + 16) redactor.add(v);
}

/** Sends one variant. An entry whose valid request uses something up (a code) gets a fresh request per variant (or the
 * one given, whose code nothing spent yet), and the variant made again from its value. */
async function sendVariant(run: Run, entry: ModelEntry, application: Application, index: number, cached: Base | undefined) {
  const fresh: Base = cached ?? (await baseFor(run, entry, application.parameter));
  let variant = (application.made as Variant[])[index]!;
  if (entry.table.needsCode && application.parameter && application.operator.scope === 'parameter' && fresh.value !== undefined) {
    const again = application.operator.variants({ entry, parameter: application.parameter, value: fresh.value });
    if (Array.isArray(again) && again[index]) variant = again[index]!;
  }
  redactNearCopies(run.redactor, application.operator.id, application.parameter, variant, fresh.value);
  return send(run, entry, variant.change(fresh.parts), {
    ...(variant.method ? { method: variant.method } : {}),
    dimension: 'operators',
    operator: { id: application.operator.id, ...(application.parameter ? { parameter: application.parameter.name } : {}) },
  });
}

const NO_HANDLING =
  "the Prism mock answers from the spec's examples: it has no handling of a parameter's values for the operators to judge (the sandbox and a live target get them all)";

/** Registers one test per operation of the API and operator, sending through the run. */
export function operatorChecks(run: Run, api: ApiName): void {
  const entries = specModel().filter((entry) => entry.operation.api === api);
  // Against a live target its checks run side by side, as every file's do (contract-tests/vitest.config.ts).
  describe(`the operators of the negative space, on every ${api} operation`, () => {
    const all = entries.flatMap((entry) =>
      OPERATORS.map((operator) => [`${entryLabel(entry)}: ${operator.title}`, entry, operator] as const),
    );
    it.for(all)('%s', ([, entry, operator], ctx) => operatorCheck(run, entry, operator, ctx));
  });
}

/**
 * Skips a sweep's check of `entry` where its answers could not be judged: on a target without data semantics (the
 * mock: `mockWhy`, in the sweep's own words), for the first of `more` reasons given, or where the operation's request
 * cannot be sent. The operator sweep, the security questions and their pairwise crossings all open so.
 */
export async function skipUnjudgedSweep(
  run: Run,
  ctx: TestContext,
  entry: ModelEntry,
  mockWhy: string,
  ...more: Array<string | undefined>
): Promise<void> {
  const mock = reasonIfCannot(run.target.name, 'hasDataSemantics') ? mockWhy : undefined;
  skipIf(run, ctx, [entry.operationId], mock, ...more, await reasonIfCannotSend(run, entry));
}

/** One operator on one operation: every variant of every parameter it applies to, sent side by side. */
async function operatorCheck(run: Run, entry: ModelEntry, operator: (typeof OPERATORS)[number], ctx: TestContext): Promise<void> {
  await skipUnjudgedSweep(run, ctx, entry, NO_HANDLING);
  const parts = await withCredentials(run, entry);
  const values = await valuesOf(run, entry, parts);
  const applications = applicationsOf(entry, { parts, values, protect: entry.table.protect }, [operator]);
  const sendable = applications.filter((a) => !isInapplicable(a.made));
  skipIf(
    run,
    ctx,
    [entry.operationId],
    sendable.length
      ? undefined
      : `not applicable: ${[...new Set(applications.map((a) => (isInapplicable(a.made) ? a.made.inapplicable : '')))].join('; ')}`,
  );
  // The valid requests the variants change, made side by side (none kept where each variant needs a fresh code).
  const cache = new Map<string, Base>();
  if (!entry.table.needsCode)
    await mapConcurrently(sendable, async (a) => cache.set(a.parameter?.name ?? '', await baseFor(run, entry, a.parameter)));
  const jobs = sendable.flatMap((a) => (a.made as Variant[]).map((_, index) => [a, index] as const));
  // Where each variant needs a fresh code, the code of the request the variants were made from is spent by the first.
  let unspent = entry.table.needsCode ? parts : undefined;
  const sent = await mapConcurrently(jobs, async ([a, index]) => {
    const given = unspent;
    unspent = undefined;
    const base = given
      ? await baseFor(run, entry, a.parameter, given)
      : entry.table.needsCode
        ? undefined
        : cache.get(a.parameter?.name ?? '');
    return sendVariant(run, entry, a, index, base);
  });
  ctx.expect(sent.length, 'variants sent').toBe(jobs.length);
}
