// The console of a contract run: vitest's default reporter, except its end. Without --verbose (LP_CONTRACT_VERBOSE=1)
// the failed checks are listed one line each with their outcome (a violation and what it states, or could not judge and
// why), and the Violations section the run prints after them gives each broken promise with its request, answer and
// curl; vitest's assertion diffs and code frames, which say nothing to a partner, are printed only with --verbose.
import { DefaultReporter, type Vitest } from 'vitest/node';
import { outcomeOfErrors, unjudgedReason } from '../judge/outcomes.ts';

interface TaskLike {
  type: string;
  name: string;
  tasks?: TaskLike[];
  suite?: TaskLike;
  file?: TaskLike;
  result?: { state?: string; errors?: Array<{ name?: string; message?: string }> };
}

const firstLine = (text: string | undefined) => (text ?? '').split('\n')[0] ?? '';

function failedTasks(tasks: readonly TaskLike[], into: TaskLike[] = []): TaskLike[] {
  for (const task of tasks) {
    if (task.result?.state === 'fail' && (task.type === 'test' || task.result.errors?.length)) into.push(task);
    if (task.tasks) failedTasks(task.tasks, into);
  }
  return into;
}

function fullName(task: TaskLike): string {
  const names: string[] = [];
  for (let t: TaskLike | undefined = task; t && t.type !== 'file' && t !== t.file; t = t.suite) names.unshift(t.name);
  return names.join(' > ') || task.name;
}

type PrintErrorsSummary = (files: unknown, errors: readonly unknown[]) => void;

export default class ContractConsoleReporter extends DefaultReporter {
  override onInit(vitest: Vitest): void {
    super.onInit(vitest);
    // --verbose, as the run's settings say (send/run-settings.ts).
    if (vitest.getProvidedContext().run.verbose) return;
    // Vitest declares printErrorsSummary as a field, so it is replaced on the instance rather than overridden.
    (this as unknown as { printErrorsSummary: PrintErrorsSummary }).printErrorsSummary = (files, errors) =>
      this.printCompact(files, errors);
  }

  private printCompact(files: unknown, errors: readonly unknown[]): void {
    const failed = failedTasks(files as TaskLike[]);
    if (failed.length) {
      this.error(
        `\nFailed checks (${failed.length}): the sections below give each broken promise with its request, answer and a curl; --verbose (LP_CONTRACT_VERBOSE=1) adds vitest's diffs and code frames\n`,
      );
      for (const task of failed) {
        const errs = task.result?.errors ?? [];
        const file = task.file?.name ?? '';
        const what =
          outcomeOfErrors(errs) === 'violation'
            ? `violation: ${firstLine(errs.find((e) => outcomeOfErrors([e]) === 'violation')?.message).replace(/\s*\/\/ Object\.is equality$/, '')}`
            : `could not judge: ${unjudgedReason(errs)}`;
        this.error(` FAIL ${file && file !== task.name ? `${file} > ` : ''}${fullName(task)}\n      ${what}`);
      }
    }
    if (errors.length) {
      this.ctx.logger.printUnhandledErrors(errors);
      this.error();
    }
  }
}
