// Collects every x-assumption from the bundles into one table: what the specs decided where the seed says "not shown".
import { readFileSync } from 'node:fs';
import { API_NAMES, bundlePath, type ApiName } from './apis.ts';

export interface Assumption {
  api: ApiName;
  /** JSON pointer of the node that carries the assumption, inside the bundle. */
  pointer: string;
  what: string;
  why: string;
  seed: string;
}

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

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
      const { what, why, seed } = (entry ?? {}) as Record<string, unknown>;
      for (const [field, v] of Object.entries({ what, why, seed })) {
        if (typeof v !== 'string' || v.trim() === '') {
          throw new Error(`x-assumption at ${api}#${pointer} has no "${field}" text; each needs what, why and seed.`);
        }
      }
      found.push({ api, pointer, what: String(what).trim(), why: String(why).trim(), seed: String(seed) });
    }
  }
  return found;
}

export function allAssumptions(): Assumption[] {
  return API_NAMES.flatMap((api) => collectAssumptions(api, JSON.parse(readFileSync(bundlePath(api, 'json'), 'utf8'))));
}

const cell = (text: string) => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');

/** Shared components appear in several bundles; the table lists each decision once, with every API it applies to. */
export function assumptionsMarkdown(list: Assumption[] = allAssumptions()): string {
  const unique = new Map<string, { apis: string[]; first: Assumption }>();
  for (const a of list) {
    const key = `${a.seed}\n${a.what}`;
    const seen = unique.get(key);
    if (seen) seen.apis.push(a.api);
    else unique.set(key, { apis: [a.api], first: a });
  }
  const rows = [...unique.values()].map(
    ({ apis, first: a }) => `| ${apis.join(', ')} | \`${cell(a.pointer || '/')}\` | ${a.seed} | ${cell(a.what)} | ${cell(a.why)} |`,
  );
  return [
    '<!-- Generated from the x-assumption entries of the specs by `npm run generate`. Do not edit by hand. -->',
    '# Assumptions',
    '',
    'Where the seed document says "not shown", the specs still had to decide something. Each decision is',
    'listed here with its reason and seed section; everything else in the specs is stated by the seed.',
    'A contract run against a real environment confirms or contradicts them.',
    '',
    `${unique.size} assumptions.`,
    '',
    '| API | Where (in the bundle) | Seed § | What is assumed | Why |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  process.stdout.write(assumptionsMarkdown());
}
