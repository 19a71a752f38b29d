// Reading what a run wrote: its report files, and the ledger its workers appended to, one JSON line per fact.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LedgerEntry } from '../send/ledger.ts';

/** A report file as data, or undefined when it is missing or not JSON (a run that did not get that far). */
export function readJsonFile<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

export function readLedger(dir: string): LedgerEntry[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  } catch {
    return [];
  }
  return files.flatMap((f) =>
    readFileSync(join(dir, f), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as LedgerEntry),
  );
}
