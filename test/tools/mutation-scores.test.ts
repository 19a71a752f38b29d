// The per-file floor of `npm run test:mutation`: each file's score as Stryker computes it, and the script that fails
// naming every file under the floor (run as a process, as the npm script runs it).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../spec-core/apis.ts';
import { runScript } from '../../tools/processes.ts';
import { fileScores, filesBelow, totalScore, type MutantStatus, type MutationReport } from '../../tools/mutation-scores.ts';

/** A report whose files hold mutants of the given statuses. */
function report(files: Record<string, MutantStatus[]>): MutationReport {
  return {
    files: Object.fromEntries(Object.entries(files).map(([file, statuses]) => [file, { mutants: statuses.map((status) => ({ status })) }])),
  };
}

const repeat = (status: MutantStatus, times: number): MutantStatus[] => Array.from({ length: times }, () => status);

describe('fileScores', () => {
  it('counts killed and timed-out mutants as detected, survived and uncovered ones against, and leaves the rest out', () => {
    const [score] = fileScores(
      report({ 'src/a.ts': ['Killed', 'Killed', 'Timeout', 'Survived', 'NoCoverage', 'Ignored', 'CompileError', 'RuntimeError'] }),
    );
    expect(score).toEqual({ file: 'src/a.ts', detected: 3, undetected: 2, ignored: 1, score: 60 });
  });

  it('gives a file without a mutant that counts no score, and the total weighs every mutant alike', () => {
    const scores = fileScores(report({ 'src/types.ts': ['Ignored'], 'src/b.ts': repeat('Killed', 9), 'src/c.ts': ['Survived'] }));
    expect(scores.map((file) => [file.file, file.score])).toEqual([
      ['src/b.ts', 100],
      ['src/c.ts', 0],
      ['src/types.ts', undefined],
    ]);
    expect(totalScore(scores)).toBe(90);
  });
});

describe('filesBelow', () => {
  it('names the files under the floor; a file exactly at it passes', () => {
    const scores = fileScores(
      report({
        'src/at-floor.ts': [...repeat('Killed', 4), 'Survived'],
        'src/under.ts': [...repeat('Killed', 79), ...repeat('Survived', 21)],
        'src/none.ts': [],
      }),
    );
    expect(filesBelow(scores, 80).map((file) => file.file)).toEqual(['src/under.ts']);
  });
});

describe('scripts/mutation-file-scores.ts', () => {
  const script = join(repoRoot, 'scripts/mutation-file-scores.ts');

  it('exits 1 naming each file under the floor with its score, and 0 when none is', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lp-mutation-'));
    try {
      const file = join(dir, 'mutation.json');
      writeFileSync(
        file,
        JSON.stringify(
          report({
            'src/good.ts': repeat('Killed', 9).concat('Survived'),
            'src/weak.ts': ['Killed', 'Killed', 'Survived'],
            'src/weaker.ts': ['Killed', 'NoCoverage', 'Survived'],
          }),
        ),
      );
      const failing = runScript(script, ['--report', file], repoRoot);
      expect(failing.out).toContain('mutation: src/weak.ts: 66.67% is under 80%');
      expect(failing.out).toContain('mutation: src/weaker.ts: 33.33% is under 80%');
      expect(failing.out).not.toContain('src/good.ts: 90.00% is under');
      expect(failing.code).toBe(1);
      const passing = runScript(script, ['--report', file, '--floor', '30'], repoRoot);
      expect(passing.out).toContain('every file at 30% or above (lowest: src/weaker.ts 33.33%)');
      expect(passing.code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a report it cannot read in one line, with exit 2', () => {
    const { code, out } = runScript(script, ['--report', join(tmpdir(), 'no-such-mutation-report.json')], repoRoot);
    expect(out).toMatch(/cannot read the report .*no-such-mutation-report\.json/);
    expect(code).toBe(2);
  });
});
