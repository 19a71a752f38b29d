// The violations of a run, from its ledger: grouped by the promise they break (one group per cause, up to three
// examples, the plainest first), and by the check that saw them (for its JUnit failure).
import type { Evidence } from '../send/evidence.ts';
import type { LedgerEntry } from '../send/ledger.ts';
import type { CheckViolations, ViolationGroup } from './model.ts';

/** An assertion's first line without vitest's jargon ("// Object.is equality"). */
const plainMessage = (message: string) => message.replace(/\s*\/\/ Object\.is equality$/, '').trim();

/** Expected against got, in one sentence: the check's own name is what it expects; the answer is what it got. */
export function sentenceOf(entry: {
  test: string;
  from?: 'check' | 'answer';
  check?: string;
  message: string;
  evidence?: Evidence;
}): string {
  const answer = entry.evidence?.answer;
  const got = answer ? `${answer.status} ${answer.contentType}` : 'no answer recorded';
  const expected =
    entry.from === 'answer'
      ? `every answer keeps this promise${entry.check ? ` (exchange check ${entry.check})` : ''}`
      : (entry.test.split(' > ').at(-1) ?? entry.test);
  return `Expected: ${expected}. Got: ${got} (${plainMessage(entry.message)}).`;
}

/** The run's violations grouped by the promise they break (twenty failing requests of one cause are one group). */
export function violationGroups(entries: LedgerEntry[]): ViolationGroup[] {
  const groups = new Map<string, ViolationGroup>();
  for (const entry of entries) {
    if (entry.kind !== 'violation') continue;
    const group = groups.get(entry.promise) ?? {
      promise: entry.promise,
      checks: [],
      count: 0,
      messages: [],
      sentence: sentenceOf(entry),
      examples: [],
    };
    group.count++;
    if (!group.checks.includes(entry.test)) group.checks.push(entry.test);
    if (group.messages.length < 3 && !group.messages.includes(entry.message)) group.messages.push(entry.message);
    if (entry.evidence) {
      // The plainest request first (the shortest URL and body): the one a partner reproduces first.
      const first = group.examples[0];
      if (!first || weight(entry.evidence) < weight(first)) {
        group.examples.unshift(entry.evidence);
        group.sentence = sentenceOf(entry);
      } else group.examples.push(entry.evidence);
      group.examples.splice(3);
    }
    groups.set(entry.promise, group);
  }
  return [...groups.values()];
}

const weight = (evidence: Evidence) => evidence.request.url.length + (evidence.request.body?.length ?? 0);

/** Each check's violations (up to three), for its JUnit failure. */
export function violationsByCheck(entries: LedgerEntry[]): CheckViolations[] {
  const byCheck = new Map<string, CheckViolations>();
  for (const entry of entries) {
    if (entry.kind !== 'violation') continue;
    const check = byCheck.get(entry.test) ?? { check: entry.test, violations: [] };
    if (check.violations.length < 3 && !check.violations.some((v) => v.promise === entry.promise))
      check.violations.push({
        promise: entry.promise,
        sentence: sentenceOf(entry),
        ...(entry.evidence ? { evidence: entry.evidence } : {}),
      });
    byCheck.set(entry.test, check);
  }
  return [...byCheck.values()];
}
