// The run's record, one JSON line per fact: each exchange (operation, status, scheme, problems), each skipped check
// and each assumption outcome. Workers append to their own file; the global teardown turns them into the reports.
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../scripts/apis.ts';

export const outputDir = process.env.LP_CONTRACT_OUT ?? join(repoRoot, 'dist/contract');
export const ledgerDir = join(outputDir, '.ledger');

export type AssumptionOutcome = 'confirmed' | 'contradicted';

export type LedgerEntry =
  | { kind: 'exchange'; operationId: string; status: number; scheme: string; problems: string[]; test: string }
  | { kind: 'skip'; test: string; reason: string; operationIds: string[] }
  | { kind: 'assumption'; api: string; pointer: string; match: string; outcome: AssumptionOutcome; evidence: string; test: string };

const ledgerFile = join(ledgerDir, `${process.pid}-${Math.random().toString(36).slice(2, 8)}.jsonl`);
let prepared = false;

export function record(entry: LedgerEntry): void {
  if (!prepared) {
    mkdirSync(ledgerDir, { recursive: true });
    prepared = true;
  }
  appendFileSync(ledgerFile, `${JSON.stringify(entry)}\n`);
}

/** Problems found in responses during the current test; the setup file fails the test when any remain. */
const pending: string[] = [];

export function reportProblems(problems: string[]): void {
  pending.push(...problems);
}

export function takeProblems(): string[] {
  return pending.splice(0, pending.length);
}
