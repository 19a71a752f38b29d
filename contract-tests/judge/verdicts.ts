// The two verdicts, decided from the specs alone. A response that breaks the spec at a place an x-assumption `covers`
// contradicts that assumption (the spec guessed there, where the seed says "not shown"); a response that breaks it
// anywhere else, any 5xx, and any address the spec does not have violate the contract. The same patterns tell which
// assumptions a response that kept the spec confirms.
import type { Assumption } from '../../spec-core/assumptions.ts';
import type { ApiName } from '../../spec-core/apis.ts';
import type { Finding, Inspection } from './conformance.ts';
import { specAssumptions } from '../model/spec.ts';

interface CoverPattern {
  assumption: Assumption;
  segments: RegExp[];
  /** Segments without a wildcard: the more, the more specific the pattern. */
  literal: number;
}

const segmentsOf = (pointer: string) => (pointer === '' ? [] : pointer.replace(/^\//, '').split('/'));
/** A text as a regular expression that matches it literally. */
export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let patterns: Map<ApiName, CoverPattern[]> | undefined;

function patternsOf(api: ApiName): CoverPattern[] {
  if (!patterns) {
    patterns = new Map();
    for (const assumption of specAssumptions()) {
      for (const cover of assumption.covers) {
        const absolute = cover.startsWith('#') ? cover.slice(1) : `${assumption.pointer}${cover}`;
        const parts = segmentsOf(absolute);
        const list = patterns.get(assumption.api) ?? [];
        list.push({
          assumption,
          segments: parts.map((part) => new RegExp(`^${part.split('*').map(escapeRegExp).join('[^/]*')}$`)),
          literal: parts.filter((part) => !part.includes('*')).length,
        });
        patterns.set(assumption.api, list);
      }
    }
  }
  return patterns.get(api) ?? [];
}

/** The assumption of each place asked about (once per place: every answer names the same places again). */
const covering = new Map<string, Assumption | null>();

/** The assumption responsible for a place of the spec, the most specific when several cover it; none for a seed fact. */
function coveringAssumption(api: ApiName, location: string): Assumption | undefined {
  const key = `${api}#${location}`;
  let found = covering.get(key);
  if (found === undefined) {
    found = findCoveringAssumption(api, location) ?? null;
    covering.set(key, found);
  }
  return found ?? undefined;
}

function findCoveringAssumption(api: ApiName, location: string): Assumption | undefined {
  const at = segmentsOf(location);
  let best: CoverPattern | undefined;
  for (const pattern of patternsOf(api)) {
    if (pattern.segments.length > at.length || !pattern.segments.every((re, i) => re.test(at[i]!))) continue;
    if (!best || pattern.literal > best.literal || (pattern.literal === best.literal && pattern.segments.length > best.segments.length))
      best = pattern;
  }
  return best?.assumption;
}

export interface Contradiction {
  assumption: Assumption;
  /** What broke, as the checker words it. */
  problems: string[];
}

export interface Verdict {
  violations: string[];
  contradictions: Contradiction[];
  confirmed: Assumption[];
}

const keyOf = (a: Assumption) => `${a.api}\n${a.pointer}\n${a.what}`;

/** Of the branches a body fits none of, the one it misses least: the fewest findings no x-assumption covers (a body
 * that misses a branch only where the spec guessed contradicts that guess; otherwise it breaks the contract there). */
function closestBranch(api: ApiName, finding: Finding): Finding[] {
  const uncovered = (branch: Finding[]) => branch.filter((f) => f.location === undefined || !coveringAssumption(api, f.location)).length;
  const ranked = [...(finding.alternatives ?? [])].filter((b) => b.length).sort((a, b) => uncovered(a) - uncovered(b));
  return ranked[0] ?? [{ message: finding.message }];
}

/** Sorts the findings of one response into violations and contradicted assumptions, and lists what it confirmed. */
export function verdictOf(api: ApiName, inspection: Inspection): Verdict {
  const violations: string[] = [];
  const contradicted = new Map<string, Contradiction>();
  const findings: Finding[] = inspection.problems.flatMap((finding) => (finding.alternatives ? closestBranch(api, finding) : [finding]));
  for (const finding of findings) {
    const assumption = finding.location === undefined ? undefined : coveringAssumption(api, finding.location);
    if (!assumption) {
      if (!violations.includes(finding.message)) violations.push(finding.message);
      continue;
    }
    const entry = contradicted.get(keyOf(assumption)) ?? { assumption, problems: [] };
    if (!entry.problems.includes(finding.message)) entry.problems.push(finding.message);
    contradicted.set(keyOf(assumption), entry);
  }
  const confirmed = new Map<string, Assumption>();
  for (const location of inspection.held) {
    const assumption = coveringAssumption(api, location);
    if (assumption && !contradicted.has(keyOf(assumption))) confirmed.set(keyOf(assumption), assumption);
  }
  return { violations, contradictions: [...contradicted.values()], confirmed: [...confirmed.values()] };
}
