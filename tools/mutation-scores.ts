// The mutation score of each file of a StrykerJS JSON report (mutation-testing-report-schema), and the files under a
// floor. Stryker's own `thresholds.break` judges the whole run only; `npm run test:mutation` holds every file of src/ to
// a floor too (scripts/mutation-file-scores.ts).

/** A mutant's status in the report. */
export type MutantStatus = 'Killed' | 'Survived' | 'NoCoverage' | 'Timeout' | 'CompileError' | 'RuntimeError' | 'Ignored' | 'Pending';

/** The part of Stryker's JSON report (`jsonReporter`) read here. */
export interface MutationReport {
  files: Record<string, { mutants: ReadonlyArray<{ status: MutantStatus }> }>;
}

export interface FileScore {
  file: string;
  /** Killed and timed out: a test failed or hung while the mutant was active. */
  detected: number;
  /** Survived and not covered by any test. */
  undetected: number;
  /** Disabled in the source (`// Stryker disable`): not counted. */
  ignored: number;
  /** detected / (detected + undetected) in percent; undefined for a file without a mutant that counts. */
  score: number | undefined;
}

/** As Stryker scores (mutation-testing-metrics' mutationScore): compile and runtime errors and ignored mutants do not count. */
export function fileScores(report: MutationReport): FileScore[] {
  return Object.entries(report.files)
    .map(([file, { mutants }]) => {
      const count = (...statuses: MutantStatus[]) => mutants.filter((mutant) => statuses.includes(mutant.status)).length;
      const detected = count('Killed', 'Timeout');
      const undetected = count('Survived', 'NoCoverage');
      const valid = detected + undetected;
      return { file, detected, undetected, ignored: count('Ignored'), score: valid === 0 ? undefined : (100 * detected) / valid };
    })
    .sort((a, b) => a.file.localeCompare(b.file));
}

/** The whole run's score over every file, as Stryker's `break` threshold reads it. */
export function totalScore(scores: readonly FileScore[]): number | undefined {
  const detected = scores.reduce((sum, file) => sum + file.detected, 0);
  const valid = scores.reduce((sum, file) => sum + file.detected + file.undetected, 0);
  return valid === 0 ? undefined : (100 * detected) / valid;
}

/** The files whose score is under `floor` (percent). */
export function filesBelow(scores: readonly FileScore[], floor: number): FileScore[] {
  return scores.filter((file) => file.score !== undefined && file.score < floor);
}

/** A score as Stryker's clear-text table prints it: two decimals. */
export function formatScore(score: number | undefined): string {
  return score === undefined ? 'n/a' : `${score.toFixed(2)}%`;
}
