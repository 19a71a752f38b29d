// The violations of a run, from its ledger: grouped by the promise they break (one group per cause, up to three
// examples, the plainest first), and by the check that saw them (for its JUnit failure).
import type { Evidence } from '../send/evidence.ts';
import type { LedgerEntry } from '../send/ledger.ts';
import type { CheckViolations, ViolationGroup } from './report-model.ts';

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

/**
 * The parts of a promise or message that vary from one exchange to the next of the same cause, set aside: quoted
 * values, the query of a URL, ids and tokens (runs of 12 or more letters, digits, "-" and "_" with a digit among them),
 * and counts (a number that is not a section, an RFC or a status). Forty relative Locations that differ only in an
 * interaction id read alike; "section 4.2" and "section 4.3" do not.
 */
export function setAside(text: string): string {
  return text
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/\?[^\s"')]*/g, '?…')
    .replace(/(?=[A-Za-z_-]*\d)[A-Za-z0-9_-]{12,}/g, '…')
    .replace(/(RFC ?|section |§|answered |\d\.)?\b\d+\b(?!\.\d)/g, (all, kept: string | undefined) => (kept ? all : 'N'));
}

/** The key a violation groups by: the exchange check that found it (an answer's) and its promise, varying parts aside. */
const groupKey = (entry: Extract<LedgerEntry, { kind: 'violation' }>) =>
  `${entry.from === 'answer' ? (entry.check ?? '') : 'check'}\n${setAside(entry.promise)}`;

/** The most exchanges of one group violations.json keeps (each with its message and evidence); the count goes on. */
export const MAX_OCCURRENCES = 1000;

/** The run's violations grouped by the promise they break, the parts that vary set aside (twenty failing requests of
 * one cause are one group); violations.json keeps every exchange of each (up to MAX_OCCURRENCES). */
export function violationGroups(entries: LedgerEntry[], { occurrences = false } = {}): ViolationGroup[] {
  const groups = new Map<string, ViolationGroup>();
  for (const entry of entries) {
    if (entry.kind !== 'violation') continue;
    const key = groupKey(entry);
    const group = groups.get(key) ?? {
      promise: entry.promise,
      checks: [],
      count: 0,
      messages: [],
      sentence: sentenceOf(entry),
      examples: [],
      ...(occurrences ? { occurrences: [] } : {}),
    };
    group.count++;
    if (!group.checks.includes(entry.test)) group.checks.push(entry.test);
    if (group.messages.length < 3 && !group.messages.some((m) => setAside(m) === setAside(entry.message)))
      group.messages.push(entry.message);
    if (group.occurrences && group.occurrences.length < MAX_OCCURRENCES)
      group.occurrences.push({ test: entry.test, message: entry.message, ...(entry.evidence ? { evidence: entry.evidence } : {}) });
    if (entry.evidence) {
      // The plainest request first (the shortest URL and body): the one a partner reproduces first.
      const first = group.examples[0];
      if (!first || weight(entry.evidence) < weight(first)) {
        group.examples.unshift(entry.evidence);
        group.sentence = sentenceOf(entry);
        group.promise = entry.promise;
      } else group.examples.push(entry.evidence);
      group.examples.splice(2);
    }
    groups.set(key, group);
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
