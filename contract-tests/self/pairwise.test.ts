// The covering arrays that bound the crossings of the negative space: every pair of values of any two dimensions is in
// some row, with far fewer rows than the full product. Pure: plain data, no request.
import { describe, expect, it } from 'vitest';
import { classProblems } from '../operators/crossing-classes.ts';
import { coveringArray, coveringIndexes } from '../operators/pairwise.ts';

/** The pairs (dimension, value, dimension, value) no row holds. */
function missingPairs(sizes: readonly number[], rows: readonly (readonly number[])[]): string[] {
  const missing: string[] = [];
  for (let i = 0; i < sizes.length; i += 1)
    for (let j = i + 1; j < sizes.length; j += 1)
      for (let vi = 0; vi < sizes[i]!; vi += 1)
        for (let vj = 0; vj < sizes[j]!; vj += 1)
          if (!rows.some((row) => row[i] === vi && row[j] === vj)) missing.push(`${i}=${vi} × ${j}=${vj}`);
  return missing;
}

const product = (sizes: readonly number[]) => sizes.reduce((total, size) => total * size, 1);

describe('pairwise covering arrays', () => {
  const cases = [
    [3, 3],
    [2, 2, 2],
    [5, 5, 5, 5],
    [7, 2, 4, 3, 6],
    [10, 9, 8, 2, 2, 2, 3],
    [1, 6, 1, 4],
  ].map((sizes) => ({
    sizes,
    shown: sizes.join(' × '),
  }));
  it.for(cases)('covers every pair of $shown, in rows within range of the two largest dimensions', ({ sizes }) => {
    const rows = coveringIndexes(sizes);
    expect(missingPairs(sizes, rows)).toEqual([]);
    expect(rows.every((row) => row.every((value, dimension) => value >= 0 && value < sizes[dimension]!))).toBe(true);
    const [largest, next] = [...sizes].sort((a, b) => b - a);
    expect(rows.length).toBeGreaterThanOrEqual(largest! * (next ?? 1));
    // IPOG's greedy rows stay near the lower bound: within 1.6 of it here, against a product up to 17,280 rows.
    expect(rows.length).toBeLessThanOrEqual(Math.ceil(largest! * (next ?? 1) * 1.6));
    if (product(sizes) > largest! * (next ?? 1)) expect(rows.length).toBeLessThan(product(sizes));
  });

  it('is the full product for two dimensions, and the values themselves for one', () => {
    expect(
      coveringArray<string | number>([
        ['a', 'b'],
        [1, 2, 3],
      ]),
    ).toHaveLength(6);
    expect(coveringArray([['a', 'b', 'c']])).toEqual([['a'], ['b'], ['c']]);
    expect(coveringArray([])).toEqual([]);
  });

  it('leaves a dimension with no value out of the crossing, and gives the same rows every time', () => {
    const dimensions: (string | boolean)[][] = [['x', 'y'], [], ['p', 'q', 'r'], [true, false]];
    const rows = coveringArray(dimensions);
    expect(rows.every((row) => row[1] === undefined)).toBe(true);
    expect(coveringArray(dimensions)).toEqual(rows);
  });

  it('the check can fail: a row taken away leaves a pair uncovered', () => {
    const sizes = [4, 3, 3, 2];
    const rows = coveringIndexes(sizes);
    expect(missingPairs(sizes, rows.slice(1)).length).toBeGreaterThan(0);
  });
});

describe('the operator classes of the crossings', () => {
  it('hold every operator of the suite exactly once', () => {
    expect(classProblems()).toEqual([]);
  });

  it('fail on an operator in no class, and on a class naming an operator that does not exist', () => {
    expect(classProblems(['omit', 'a-new-operator'])).toContain('the operator "a-new-operator" is in no class');
    expect(classProblems(['omit'])).toContain('the class "absent" names "empty", no operator');
  });
});
