// The operators of the negative space, in one list, and their application to an operation of the registry: every
// parameter operator to every documented parameter and credential (with the value it holds in a valid request, or the
// table's sample when a valid request leaves it out), every operation operator to the request as a whole.
// self/operators.test.ts fails when an operator the suite owes is missing, or when a parameter meets an operator that
// neither applies to it nor says why not.
import type { DocumentedParameter, RegistryEntry } from '../model/operations.ts';
import type { RequestParts } from '../send/parts.ts';
import type { Made, Operator } from './operator.ts';
import { OPERATION_OPERATORS } from './operation-operators.ts';
import { PARAMETER_OPERATORS } from './parameter-operators.ts';

export const OPERATORS: readonly Operator[] = [...PARAMETER_OPERATORS, ...OPERATION_OPERATORS];

/** The operators the suite owes every parameter and operation (each its own id; a self-test holds the list). */
export const REQUIRED_OPERATORS = [
  'omit',
  'empty',
  'repeat',
  'pad',
  'case',
  'percent-once',
  'percent-twice',
  'near-miss',
  'injection',
  'unicode',
  'format-boundary',
  'over-limit',
  'undocumented-query',
  'credential-channels',
  'methods',
  'grant-types',
  'media-types',
  'body-shapes',
  'basic-credentials',
] as const;

/** Operators that may change a protected parameter: they never put a plausible value of it in place (no record has an
 * empty or a whitespace-only id). */
const STRUCTURAL = new Set(['omit', 'empty', 'json-types']);

export interface Application {
  operator: Operator;
  entry: RegistryEntry;
  /** The parameter changed (an operation operator changes none). */
  parameter?: DocumentedParameter;
  made: Made;
}

export interface ApplicationInputs {
  /** A valid request of the entry, credentials in place. */
  parts: RequestParts;
  /** The value each parameter holds in a valid request, or the sample the operators give it, by name. */
  values: Record<string, string>;
  /** Parameters only structural operators may change, with why (the table's `protect`). */
  protect?: Record<string, string>;
}

/** Every operator applied to the entry: each parameter operator to each parameter, each operation operator once. */
export function applicationsOf(entry: RegistryEntry, inputs: ApplicationInputs, operators: readonly Operator[] = OPERATORS): Application[] {
  const applications: Application[] = [];
  for (const operator of operators) {
    if (operator.scope === 'operation') {
      applications.push({ operator, entry, made: operator.variants(entry, inputs.parts, inputs.values) });
      continue;
    }
    for (const parameter of entry.parameters) {
      const value = inputs.values[parameter.name];
      const protectedWhy = inputs.protect?.[parameter.name];
      const made: Made =
        protectedWhy && !STRUCTURAL.has(operator.id)
          ? { inapplicable: protectedWhy }
          : value === undefined
            ? { inapplicable: 'neither a valid request nor the table of samples gives it a value' }
            : operator.variants({ entry, parameter, value });
      applications.push({ operator, entry, parameter, made });
    }
  }
  return applications;
}

/**
 * What the operators lack against the registry: an operator the suite owes that is missing, or a parameter (or an
 * operation) that an operator neither applies to nor says why not. `inputsOf` gives each entry's request and values
 * (the self-test uses stand-ins: the shape of the variants does not depend on the values).
 */
export function operatorProblems(
  registry: readonly RegistryEntry[],
  inputsOf: (entry: RegistryEntry) => ApplicationInputs,
  operators: readonly Operator[] = OPERATORS,
): string[] {
  const problems = REQUIRED_OPERATORS.filter((id) => !operators.some((o) => o.id === id)).map((id) => `the operator "${id}" is missing`);
  for (const entry of registry)
    for (const application of applicationsOf(entry, inputsOf(entry), operators)) {
      const where = `${entry.operationId}${entry.variant === 'default' ? '' : ` (${entry.variant})`}${application.parameter ? ` ${application.parameter.in} ${application.parameter.name}` : ''}`;
      const { made } = application;
      if (Array.isArray(made) ? made.length === 0 : !made.inapplicable.trim())
        problems.push(`${where}: the operator "${application.operator.id}" neither applies nor says why not`);
    }
  return problems;
}
