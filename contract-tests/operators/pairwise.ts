// Pairwise covering arrays: rows that try every pair of values of any two dimensions at least once, in far fewer rows
// than the full product (IPOG: Lei et al., "IPOG: A General Strategy for T-Way Software Testing", 2007, for t = 2).
// Written here rather than taken from npm: the packages that do it are unmaintained or wrap a native binary, and the
// strategy fits a screen. Deterministic: the same dimensions give the same rows, so a run's requests are repeatable.

/** An entry not yet decided: any value of its dimension covers no pair that still needs it. */
const ANY = -1;

/** The uncovered pairs between dimension `k` and each earlier dimension, as "i:vi:vk" keys. */
function pairsWith(sizes: readonly number[], k: number): Set<string> {
  const pairs = new Set<string>();
  for (let i = 0; i < k; i += 1) {
    for (let vi = 0; vi < sizes[i]!; vi += 1) for (let vk = 0; vk < sizes[k]!; vk += 1) pairs.add(`${i}:${vi}:${vk}`);
  }
  return pairs;
}

/** The pairs a row would cover with value `vk` in dimension `k`. */
function coveredBy(row: readonly number[], k: number, vk: number): string[] {
  const keys: string[] = [];
  for (let i = 0; i < k; i += 1) if (row[i] !== ANY) keys.push(`${i}:${row[i]}:${vk}`);
  return keys;
}

/** Horizontal growth: each row takes the value of dimension `k` that covers the most uncovered pairs. */
function extendRows(rows: number[][], k: number, size: number, uncovered: Set<string>): void {
  for (const row of rows) {
    let best = 0;
    let bestCount = -1;
    for (let vk = 0; vk < size; vk += 1) {
      const count = coveredBy(row, k, vk).filter((key) => uncovered.has(key)).length;
      if (count > bestCount) [best, bestCount] = [vk, count];
    }
    row[k] = best;
    for (const key of coveredBy(row, k, best)) uncovered.delete(key);
  }
}

/** Vertical growth: every pair still uncovered goes into a row that can take it, or into a new row. */
function addRows(rows: number[][], k: number, dimensions: number, uncovered: Set<string>): void {
  for (const key of [...uncovered]) {
    const [i, vi, vk] = key.split(':').map(Number) as [number, number, number];
    let row = rows.find((candidate) => candidate[k] === vk && candidate[i] === ANY);
    if (!row) {
      row = Array.from({ length: dimensions }, () => ANY);
      row[k] = vk;
      rows.push(row);
    }
    row[i] = vi;
  }
  uncovered.clear();
}

/**
 * Rows of value indexes, one per dimension, such that every pair of values of two dimensions is in some row. A
 * dimension with no value is left out of the crossing (its entries are undefined).
 */
export function coveringIndexes(sizes: readonly number[]): number[][] {
  const used = sizes.map((size, index) => [size, index] as const).filter(([size]) => size > 0);
  if (!used.length) return [];
  const first = used[0]![0];
  const second = used[1]?.[0] ?? 1;
  const rows: number[][] = [];
  for (let a = 0; a < first; a += 1) for (let b = 0; b < second; b += 1) rows.push([a, used.length > 1 ? b : ANY]);
  for (let k = 2; k < used.length; k += 1) {
    for (const row of rows) row.push(ANY);
    const uncovered = pairsWith(
      used.map(([size]) => size),
      k,
    );
    extendRows(rows, k, used[k]![0], uncovered);
    addRows(rows, k, k + 1, uncovered);
  }
  return rows.map((row) => {
    const full: number[] = Array.from({ length: sizes.length }, () => Number.NaN);
    used.forEach(([, index], position) => {
      full[index] = Math.max(0, row[position] ?? 0);
    });
    return full;
  });
}

/** The covering array of the dimensions' values: every pair of values of two dimensions appears in some row. */
export function coveringArray<T>(dimensions: readonly (readonly T[])[]): T[][] {
  return coveringIndexes(dimensions.map((values) => values.length)).map((row) =>
    row.map((index, dimension) => dimensions[dimension]![index]!),
  );
}
