// The seed document's sections as the project records them, openapi/seed-gaps.yaml: each section's number, title in
// the project's words, the endpoint it describes, the points it leaves open ("not shown") and the flows it describes
// (the Arazzo workflows' self-test checks each one has its workflow). The specs cite these numbers in x-assumption.seed;
// the contract suite names a violated section by its title (contract-tests/judge/promises.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { keptAsJson, parseYaml } from './yaml.ts';
import { repoRoot } from './apis.ts';

export const SEED_GAPS = 'openapi/seed-gaps.yaml';

/** A flow a section describes: a sequence of calls, in the project's words, with the operations it calls in order. */
export interface SeedFlow {
  what: string;
  operations: string[];
}

export interface SeedSection {
  title: string;
  /** The endpoint the section describes, as the seed writes it ("POST {base_url}/token"). */
  endpoint?: string;
  /** What the section says is "not shown"; absent when it leaves nothing open. */
  open?: string[];
  /** The flows it describes; absent when it describes single calls only. */
  flows?: SeedFlow[];
}

const isText = (value: unknown) => typeof value === 'string' && value.trim() !== '';

/** Whether `flows` is a non-empty list of `{ what, operations }` with at least two operations each. */
const isFlowList = (flows: unknown) =>
  Array.isArray(flows) &&
  flows.length > 0 &&
  flows.every(
    (flow) => isText(flow?.what) && Array.isArray(flow?.operations) && flow.operations.length > 1 && flow.operations.every(isText),
  );

/** The record's sections by number ("4.5"); throws naming the entry that is malformed. */
export function readSeedGaps(text: string): Record<string, SeedSection> {
  const sections = (parseYaml(text) as { sections?: unknown } | null)?.sections;
  if (!sections || typeof sections !== 'object') throw new Error(`${SEED_GAPS}: no "sections" map`);
  for (const [number, section] of Object.entries(sections as Record<string, unknown>)) {
    const { title, open, endpoint, flows } = (section ?? {}) as Record<string, unknown>;
    if (endpoint !== undefined && (typeof endpoint !== 'string' || !/^[A-Z]+ \{\w+\}\/\S*$/.test(endpoint)))
      throw new Error(`${SEED_GAPS}: section ${number}: "endpoint" must read like "POST {base_url}/token"`);
    if (!/^\d+(\.\d+)?$/.test(number)) throw new Error(`${SEED_GAPS}: section "${number}" is not a section number like 4.5`);
    if (typeof title !== 'string' || !title.trim()) throw new Error(`${SEED_GAPS}: section ${number} has no title`);
    if (
      open !== undefined &&
      !(Array.isArray(open) && open.length > 0 && open.every((point) => typeof point === 'string' && point.trim()))
    ) {
      throw new Error(`${SEED_GAPS}: section ${number}: "open" must be a non-empty list of texts`);
    }
    if (flows !== undefined && !isFlowList(flows))
      throw new Error(
        `${SEED_GAPS}: section ${number}: "flows" must be a non-empty list of { what, operations } with two operations or more`,
      );
  }
  return sections as Record<string, SeedSection>;
}

let cached: Record<string, SeedSection> | undefined;

/** Where the sections are kept as JSON between processes, per text of the record (spec-core/yaml.ts). */
export const SEED_SECTIONS_DIR = join(repoRoot, 'dist/.seed-sections');

/** The sections of openapi/seed-gaps.yaml, read once. */
export function seedSections(): Record<string, SeedSection> {
  if (!cached) {
    const text = readFileSync(join(repoRoot, SEED_GAPS), 'utf8');
    cached = keptAsJson(SEED_SECTIONS_DIR, text, () => readSeedGaps(text));
  }
  return cached;
}
