// The checks a run skipped, grouped by their reason (the reason names the LP_* setting or the capability they need),
// and the run's notes, each once: what the console, report.json and coverage.json show of them.
import type { LedgerEntry } from '../send/ledger.ts';
import type { SkipGroup } from './report-model.ts';

/** The skipped checks by reason, the most frequent first, each with up to three of its checks. */
export function skipGroups(entries: LedgerEntry[]): SkipGroup[] {
  const groups = new Map<string, SkipGroup>();
  for (const entry of entries) {
    if (entry.kind !== 'skip') continue;
    const group = groups.get(entry.reason) ?? { reason: entry.reason, count: 0, checks: [] };
    group.count++;
    if (group.checks.length < 3 && !group.checks.includes(entry.test)) group.checks.push(entry.test);
    groups.set(entry.reason, group);
  }
  return [...groups.values()].sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
}

/** The run's notes (neither a violation nor an assumption's outcome), each once, in order. */
export const notesOf = (entries: LedgerEntry[]): string[] =>
  [...new Set(entries.flatMap((e) => (e.kind === 'note' ? [e.text] : [])))].sort();
