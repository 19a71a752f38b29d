// Collects every x-assumption from the bundles into one table: what the specs decided where the seed says "not shown".
// The contract suite reads the same entries to tell a contradicted assumption from a contract violation.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { keptAsJson, parseYaml } from './yaml.ts';
import { API_NAMES, repoRoot, type ApiName } from './apis.ts';
import { loadBundle, sourcesDigest, specSourceFiles } from './bundles.ts';
import { escapePointer } from './pointer.ts';

export interface Assumption {
  api: ApiName;
  /** JSON pointer of the node that carries the assumption, inside the bundle. */
  pointer: string;
  what: string;
  why: string;
  seed: string;
  /**
   * Places of the spec this decision is responsible for: JSON pointers relative to the node that carries it, or to
   * the document root when they start with `#`; `*` stands for any characters within one segment, and a pattern
   * covers everything below the place it names. A response that breaks the spec at a covered place contradicts
   * this assumption; at any other place it violates the contract.
   */
  covers: string[];
  /** Why no client request can confirm or contradict it; absent when a contract run can. */
  untestable?: string;
}

function* walk(node: unknown, pointer: string): Generator<[string, unknown]> {
  if (node === null || typeof node !== 'object') return;
  if (!Array.isArray(node) && 'x-assumption' in node) yield [pointer, (node as Record<string, unknown>)['x-assumption']];
  for (const [key, child] of Object.entries(node)) {
    if (key !== 'x-assumption') yield* walk(child, `${pointer}/${escapePointer(key)}`);
  }
}

/** Every x-assumption of one bundled document; throws on one that lacks what, why or seed. */
export function collectAssumptions(api: ApiName, doc: unknown): Assumption[] {
  const found: Assumption[] = [];
  for (const [pointer, value] of walk(doc, '')) {
    for (const entry of Array.isArray(value) ? value : [value]) {
      const { what, why, seed, covers = [], untestable } = (entry ?? {}) as Record<string, unknown>;
      for (const [field, v] of Object.entries({ what, why, seed })) {
        if (typeof v !== 'string' || v.trim() === '') {
          throw new Error(`x-assumption at ${api}#${pointer} has no "${field}" text; each needs what, why and seed.`);
        }
      }
      if (!Array.isArray(covers) || covers.some((c) => typeof c !== 'string' || !/^(#?\/|$)/.test(c))) {
        throw new Error(
          `x-assumption at ${api}#${pointer}: "covers" must be a list of JSON pointers ("/..." relative to the node, "#/..." from the root, "" for the whole node).`,
        );
      }
      if (untestable !== undefined && (typeof untestable !== 'string' || untestable.trim() === '')) {
        throw new Error(`x-assumption at ${api}#${pointer}: "untestable" must say why no request can test it.`);
      }
      found.push({
        api,
        pointer,
        what: String(what).trim(),
        why: String(why).trim(),
        seed: String(seed),
        covers: covers as string[],
        ...(untestable ? { untestable: String(untestable).trim() } : {}),
      });
    }
  }
  return found;
}

export function allAssumptions(): Assumption[] {
  return API_NAMES.flatMap((api) => collectAssumptions(api, loadBundle(api)));
}

export interface AssumptionSource {
  /** The spec file to edit, relative to the repository. */
  file: string;
  /** JSON pointer of the x-assumption entry inside that file. */
  pointer: string;
}

let sources: Map<string, AssumptionSource> | undefined;

/** Where the table of sources is kept between runs: one file per digest of openapi/ (and of the yaml that parsed it). */
export const SOURCES_DIR = join(repoRoot, 'dist/.assumption-sources');

/** Every decision's source, read from the YAML files under `dir`: parsing them took a run's reports a third of a CPU-second. */
export function readAssumptionSources(dir = join(repoRoot, 'openapi')): Map<string, AssumptionSource> {
  const found = new Map<string, AssumptionSource>();
  for (const file of specSourceFiles(dir).filter((path) => path.endsWith('.yaml'))) {
    for (const [pointer, value] of walk(parseYaml(readFileSync(file, 'utf8')), '')) {
      const entries = Array.isArray(value) ? value : [value];
      entries.forEach((entry, index) => {
        const what = String((entry as { what?: unknown } | null)?.what ?? '').trim();
        const at = `${pointer}/x-assumption${Array.isArray(value) ? `/${index}` : ''}`;
        if (what && !found.has(what)) found.set(what, { file: relative(repoRoot, file), pointer: at });
      });
    }
  }
  return found;
}

/** The table of sources of openapi/ as it is now, kept under dist/ per digest of the sources (spec-core/yaml.ts). */
const cachedAssumptionSources = (): Map<string, AssumptionSource> =>
  new Map(keptAsJson(SOURCES_DIR, `sources-1\0${sourcesDigest()}`, () => [...readAssumptionSources()]));

/** Where a decision is written in the sources under openapi/ (the bundles inline the files, so the text identifies it). */
export function sourceOf(assumption: Pick<Assumption, 'what'>): AssumptionSource | undefined {
  sources ??= cachedAssumptionSources();
  return sources.get(assumption.what);
}

const cell = (text: string) => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');

/** Each decision once, with every API it applies to: shared components appear in several bundles. */
export function uniqueAssumptions(list: Assumption[]): Array<{ apis: ApiName[]; a: Assumption }> {
  const unique = new Map<string, { apis: ApiName[]; a: Assumption }>();
  for (const a of list) {
    const key = `${a.seed}\n${a.what}`;
    const seen = unique.get(key);
    if (seen) seen.apis.push(a.api);
    else unique.set(key, { apis: [a.api], a });
  }
  return [...unique.values()];
}

/** The table of generated/assumptions.md: each decision once, with every API it applies to. */
export function assumptionsMarkdown(list: Assumption[] = allAssumptions()): string {
  const unique = uniqueAssumptions(list);
  const rows = unique.map(
    ({ apis, a }) =>
      `| ${apis.join(', ')} | \`${cell(a.pointer || '/')}\` | ${a.seed} | ${cell(a.what)} | ${cell(a.why)} | ${a.untestable ? `not testable: ${cell(a.untestable)}` : 'yes'} |`,
  );
  return [
    '<!-- Generated from the x-assumption entries of the specs by `npm run generate`. Do not edit by hand. -->',
    '# Assumptions',
    '',
    'Where the seed document says "not shown", the specs still had to decide something. Each decision is',
    'listed here with its reason and seed section; everything else in the specs is stated by the seed.',
    'A contract run against a real environment confirms or contradicts each testable one; a server that differs',
    'from one is reported as a contradicted assumption, not as a contract violation.',
    '',
    `${unique.length} assumptions.`,
    '',
    `${unique.filter((u) => u.a.untestable).length} of them cannot be tested by a client request (the last column says why).`,
    '',
    '| API | Where (in the bundle) | Seed § | What is assumed | Why | Tested by a contract run |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
