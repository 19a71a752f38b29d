// What a failed check means. A check fails for one of two reasons that must never be mixed up: the target broke a
// promise (an assertion of the suite, or a response the checker found breaking the contract: a violation), or the
// suite could not judge (the target unreachable, a request timed out or throttled past the tries, a write whose
// outcome is unknown, or the suite's own error: a TypeError, a parse error of its own making). The second is never a
// violation and never a pass. Read from vitest's serialized errors, so it works in a reporter and in a session alike.
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';

export type FailureOutcome = 'violation' | 'unjudged';

interface ErrorLike {
  name?: string;
  message?: string;
  cause?: ErrorLike;
}

/** Errors that state what the target did: vitest's assertions and a positive call the target refused. */
const JUDGED = new Set(['AssertionError', 'CheckFailure']);
const UNJUDGED = new Set(['CouldNotJudge']);

/** One error: its own name, the causes it wraps (fast-check wraps a failing property's error) and the name in its text. */
export function outcomeOfError(error: ErrorLike): FailureOutcome {
  for (let e: ErrorLike | undefined = error, depth = 0; e && depth < 5; e = e.cause, depth++) {
    if (e.name && UNJUDGED.has(e.name)) return 'unjudged';
    if (e.name && JUDGED.has(e.name)) return 'violation';
    // A property that failed: fast-check's message quotes the error of the failing run ("Got error: AssertionError: ...").
    const quoted = /\b(AssertionError|CheckFailure|CouldNotJudge)\b/.exec(e.message ?? '')?.[1];
    if (quoted) return UNJUDGED.has(quoted) ? 'unjudged' : 'violation';
  }
  return 'unjudged';
}

/** A failed check is a violation when any of its errors is one: a broken promise outweighs a request that got no answer. */
export function outcomeOfErrors(errors: readonly ErrorLike[]): FailureOutcome {
  return errors.some((e) => outcomeOfError(e) === 'violation') ? 'violation' : 'unjudged';
}

/** Why a check could not be judged, in one line: the CouldNotJudge message, or the suite's own error named as such. */
export function unjudgedReason(errors: readonly ErrorLike[]): string {
  for (const error of errors) {
    for (let e: ErrorLike | undefined = error, depth = 0; e && depth < 5; e = e.cause, depth++) {
      if (e.name === 'CouldNotJudge') return firstLine(e.message);
      const quoted = /CouldNotJudge: ([^\n]*)/.exec(e.message ?? '')?.[1];
      if (quoted) return quoted;
    }
  }
  const first = errors[0];
  return `the suite's own error (${first?.name ?? 'Error'}: ${firstLine(first?.message)}): a bug of the suite, not a verdict on the target`;
}

const firstLine = (text: string | undefined) => (text ?? '').split('\n')[0] ?? '';

export interface FailedCheck {
  /** The check's full name, or the file's for a failure outside its checks. */
  name: string;
  file: string;
  outcome: FailureOutcome;
  /** For an unjudged check: why. */
  reason?: string;
  /** For a violation: the first line of its first error that states one (the check's own words, never a value). */
  message?: string;
}

/** The file the reporter writes, one JSON line per failed check, below LP_CONTRACT_OUT. */
export const outcomesFile = (outputDir: string) => join(outputDir, 'failed-checks.jsonl');

export function readFailedChecks(outputDir: string): FailedCheck[] {
  try {
    return readFileSync(outcomesFile(outputDir), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as FailedCheck);
  } catch {
    return [];
  }
}

export function failedCheckOf(name: string, file: string, errors: readonly ErrorLike[]): FailedCheck {
  const outcome = outcomeOfErrors(errors);
  if (outcome === 'unjudged') return { name, file, outcome, reason: unjudgedReason(errors) };
  const stated = errors.find((e) => outcomeOfError(e) === 'violation');
  return { name, file, outcome, ...(stated?.message ? { message: firstLine(stated.message) } : {}) };
}

/** The vitest reporter `runSuite` adds: each failed check's outcome into `failed-checks.jsonl` (the verdict reads it). */
export default class OutcomeReporter implements Reporter {
  private file = '';

  onInit(vitest: Vitest): void {
    // Below the run's output directory, as the runner provided it (send/run-settings.ts).
    this.file = outcomesFile(vitest.getProvidedContext().run.outputDir);
    mkdirSync(join(this.file, '..'), { recursive: true });
    writeFileSync(this.file, '');
  }

  onTestCaseResult(test: TestCase): void {
    const result = test.result();
    if (result.state !== 'failed') return;
    this.write(failedCheckOf(test.fullName, test.module.relativeModuleId, result.errors ?? []));
  }

  onTestModuleEnd(module: TestModule): void {
    const own = module.errors();
    if (own.length) this.write(failedCheckOf(module.relativeModuleId, module.relativeModuleId, own));
  }

  private write(check: FailedCheck): void {
    appendFileSync(this.file, `${JSON.stringify(check)}\n`);
  }
}
