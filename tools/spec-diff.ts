// The breaking-change check behind `npm run spec:diff` (scripts/spec-diff.ts): bundles the specs at a git ref and in a
// work tree and lists what changed for each API. The diff itself is api-smart-diff's; the rules below only tighten its
// classification where this kit is stricter.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename } from 'node:path';
import { apiDiff, type Diff } from 'api-smart-diff';
import { isHttpMethod } from '../spec-core/http-methods.ts';
import { runRedocly } from '../spec-core/redocly.ts';

type Json = Record<string, any>;
/** The three classes the README defines for `spec:diff`; every change gets one of them. */
export type Severity = 'breaking' | 'non-breaking' | 'annotation';

export interface Change {
  severity: Severity;
  /** Where in the API, e.g. `GET /vehicles` or `security scheme FleetApiKey`. */
  where: string;
  /** What changed, in words. */
  what: string;
  /** JSON path of the change inside the bundle. */
  path: string;
  /** The kit's rule that classified this change, when one applied (otherwise api-smart-diff's classification stands). */
  rule?: string;
}

/** A rule looks at one diff and either leaves its classification alone (undefined) or overrides it. */
type Rule = (diff: Diff, path: string[]) => { severity: Severity; rule: string } | undefined;

const RULES: Rule[] = [
  // The published token response names its lifetime `expired_in`; partners read that exact key.
  (diff, path) => {
    const touches = path.includes('expired_in') || diff.before === 'expired_in';
    return touches && diff.action !== 'add' && diff.type !== 'annotation'
      ? { severity: 'breaking', rule: 'the `expired_in` field is renamed or removed' }
      : undefined;
  },
  // Auth: adding a whole alternative requirement is harmless; anything else about who may call is breaking.
  (diff, path) => {
    const at = path.lastIndexOf('security');
    if (at === -1 || diff.type === 'annotation') return undefined;
    const depth = path.length - at - 1; // 1: a requirement; 2: a scheme inside a requirement
    if (diff.action === 'add' && depth === 1) return undefined;
    return { severity: 'breaking', rule: 'the authentication of an operation changed' };
  },
  (diff, path) =>
    path[0] === 'components' && path[1] === 'securitySchemes' && diff.type !== 'annotation'
      ? { severity: 'breaking', rule: 'a security scheme changed (header, type or flow)' }
      : undefined,
  // A client parses responses: a different type there is breaking whichever way it goes.
  (diff, path) =>
    path.includes('responses') && path.at(-1) === 'type' && diff.type !== 'annotation'
      ? { severity: 'breaking', rule: 'the type of a response value changed' }
      : undefined,
  // A Location that was documented as an absolute URI may be any URI-reference: HTTP always allowed that (RFC 9110
  // 10.2.2), and the user agent resolves a relative one against the request, so no client that follows it breaks.
  (diff, path) =>
    path.at(-1) === 'format' &&
    path.at(-2) === 'schema' &&
    path.at(-3)?.toLowerCase() === 'location' &&
    path.at(-4) === 'headers' &&
    diff.before === 'uri' &&
    diff.after === 'uri-reference'
      ? { severity: 'non-breaking', rule: 'a Location header may be relative, as HTTP always allowed (RFC 9110 10.2.2)' }
      : undefined,
  // A removed field breaks a partner either way: one still sending it may be rejected (request schemas are
  // closed), and a client reading it, even an optional one, loses the value.
  (diff, path) => {
    if (path.at(-2) !== 'properties' || diff.action !== 'remove') return undefined;
    if (path.includes('requestBody')) return { severity: 'breaking', rule: 'a request field was removed' };
    if (path.includes('responses')) return { severity: 'breaking', rule: 'a response field was removed' };
    return undefined;
  },
];

/**
 * api-smart-diff leaves some changes "unclassified" (vendor extensions such as x-codeSamples, keywords it has no rule
 * for) and marks others "deprecated"; the README defines only three classes, so those are settled here. An `x-`
 * extension and an example are documentation (a patch, as the README's versioning says); anything else no rule can judge fails
 * closed as breaking, for a person to review; a deprecation breaks no one yet.
 */
function settleUnclassified(type: string, path: string[]): { severity: Severity; rule: string } | undefined {
  if (type === 'deprecated') return { severity: 'non-breaking', rule: 'a deprecation breaks no client yet' };
  if (type !== 'unclassified') return undefined;
  if (path.some((key) => key.startsWith('x-'))) return { severity: 'annotation', rule: 'a vendor extension (x-) is documentation' };
  if (path.at(-1) === 'example' || path.at(-2) === 'examples')
    return { severity: 'annotation', rule: 'an example is documentation (OpenAPI 3.1: it does not validate)' };
  return { severity: 'breaking', rule: 'no rule classifies this change: review it; treated as breaking until then' };
}

function whereOf(path: string[]): string {
  if (path[0] === 'paths' && path.length >= 3 && isHttpMethod(String(path[2]))) return `${String(path[2]).toUpperCase()} ${path[1]}`;
  if (path[0] === 'paths') return `path ${path[1]}`;
  if (path[0] === 'components' && path[1] === 'securitySchemes') return `security scheme ${path[2]}`;
  if (path[0] === 'security') return 'default security';
  return path.slice(0, 2).join('.') || '(document)';
}

const jsonPath = (path: Array<string | number>) =>
  path.map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? key : `.${key}`)).join('');

/**
 * Compares two bundled OpenAPI documents. Shared components are compared where they are used (api-smart-diff
 * dereferences), so changes under `components/` are reported once per operation; only security schemes are
 * compared as components, because requirements name them without a `$ref`.
 */
export function compareSpecs(before: Json, after: Json): Change[] {
  return apiDiff(before, after)
    .filter((diff) => diff.path[0] !== 'components' || diff.path[1] === 'securitySchemes')
    .map((diff) => {
      const path = diff.path.map(String);
      const override = RULES.map((rule) => rule(diff, path)).find((result) => result !== undefined);
      const settled = override ?? settleUnclassified(diff.type, path);
      const change: Change = {
        severity: settled?.severity ?? (diff.type as Severity),
        where: whereOf(path),
        what: diff.description ?? `${diff.action} ${path.at(-1)}`,
        path: jsonPath(diff.path as Array<string | number>),
      };
      if (settled) change.rule = settled.rule;
      return change;
    });
}

const ORDER: Severity[] = ['breaking', 'non-breaking', 'annotation'];

export function formatChanges(api: string, changes: Change[]): string {
  if (changes.length === 0) return `${api}: no changes`;
  const lines = [`${api}: ${changes.length} change${changes.length === 1 ? '' : 's'}`];
  for (const severity of ORDER) {
    for (const c of changes.filter((change) => change.severity === severity)) {
      lines.push(`  ${severity.toUpperCase().padEnd(12)} ${c.where}: ${c.what}${c.rule ? ` (${c.rule})` : ''}`);
      lines.push(`  ${''.padEnd(12)} at ${c.path}`);
    }
  }
  return lines.join('\n');
}

// ---- bundling a tree of specs -------------------------------------------------------------------------------

/** API folders of an openapi/ tree: each one with an openapi.yaml (openapi/shared has none). */
function apiFolders(openapiDir: string): string[] {
  if (!existsSync(openapiDir)) return [];
  return readdirSync(openapiDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(`${openapiDir}/${entry.name}/openapi.yaml`))
    .map((entry) => entry.name)
    .sort();
}

/**
 * Bundles every API of each `<dir>/openapi` tree (the ref's, `base`, and the work tree's, `head`) in ONE run of the kit's
 * Redocly CLI: a throwaway config names each tree's APIs (`base-fleet`, `head-fleet`...) and their outputs, so the CLI
 * starts once (about 0.35 CPU-s) instead of once per API and tree. Only `apis` is configured: bundling needs no lint
 * rules, and Redocly's defaults apply as before.
 */
async function bundleTrees(work: string, dirs: string[]): Promise<Array<Map<string, Json>>> {
  const entries = dirs.flatMap((dir, tree) =>
    apiFolders(`${dir}/openapi`).map((api) => ({
      tree,
      api,
      alias: `${basename(dir)}-${api}`,
      output: `${work}/bundles/${tree}/${api}.json`,
    })),
  );
  const bundles = dirs.map(() => new Map<string, Json>());
  if (entries.length === 0) return bundles;
  const config = `${work}/redocly.yaml`;
  writeFileSync(
    config,
    `apis:\n${entries.map((e) => `  ${e.alias}:\n    root: ${JSON.stringify(`${dirs[e.tree]}/openapi/${e.api}/openapi.yaml`)}\n    output: ${JSON.stringify(e.output)}\n`).join('')}`,
  );
  try {
    await runRedocly(['bundle', '--config', config], work);
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new Error(`redocly bundle failed for the specs in ${dirs.join(' and ')}:\n${stderr ?? String(error)}`);
  }
  for (const e of entries) bundles[e.tree]!.set(e.api, JSON.parse(readFileSync(e.output, 'utf8')) as Json);
  return bundles;
}

function git(repo: string, args: string[], input?: Buffer): Buffer {
  return execFileSync('git', args, { cwd: repo, input, stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
}

/** The top directory of the git work tree that holds `dir`. */
export const gitTopLevel = (dir: string): string => git(dir, ['rev-parse', '--show-toplevel']).toString().trim();

/** Writes the openapi/ tree of `ref` into `dir` without touching the work tree, the index or HEAD. */
function extractTreeAtRef(repo: string, ref: string, dir: string): void {
  try {
    git(repo, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  } catch {
    throw new Error(`"${ref}" is not a commit in ${repo}: pass a branch, tag or commit, e.g. \`npm run spec:diff -- main\`.`);
  }
  const listed = git(repo, ['ls-tree', '-r', '--name-only', ref, '--', 'openapi']).toString().trim();
  if (listed === '') return; // no specs at that ref: every API counts as added
  execFileSync('tar', ['-x', '-C', dir], { input: git(repo, ['archive', '--format=tar', ref, '--', 'openapi']) });
}

export interface ApiComparison {
  api: string;
  changes: Change[];
}

/** Compares the specs at `ref` with the work tree of the git repository at `repo`. */
export async function compareWithRef(repo: string, ref: string): Promise<ApiComparison[]> {
  const work = mkdtempSync(`${tmpdir()}/spec-diff-`);
  try {
    const [baseDir, headDir] = [`${work}/base`, `${work}/head`];
    cpSync(`${repo}/openapi`, `${headDir}/openapi`, { recursive: true });
    mkdirSync(baseDir, { recursive: true });
    extractTreeAtRef(repo, ref, baseDir);
    const [before, after] = (await bundleTrees(work, [baseDir, headDir])) as [Map<string, Json>, Map<string, Json>];
    const apis = [...new Set([...before.keys(), ...after.keys()])].sort();
    return apis.map((api) => {
      const [b, a] = [before.get(api), after.get(api)];
      if (!a) return { api, changes: [{ severity: 'breaking', where: api, what: `the ${api} API was removed`, path: '' }] };
      if (!b) return { api, changes: [{ severity: 'non-breaking', where: api, what: `the ${api} API was added`, path: '' }] };
      return { api, changes: compareSpecs(b, a) };
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export interface SpecDiffReport {
  /** The per-API listings and the summary line, for stdout. */
  output: string[];
  /** What to do about breaking changes, for stderr (empty when there are none or they are accepted). */
  errors: string[];
  exitCode: 0 | 1;
}

/** The verdict of `spec:diff`: breaking changes fail (exit 1) unless `allowBreaking` says they are intended. */
export function specDiffReport(ref: string, results: ApiComparison[], allowBreaking: boolean): SpecDiffReport {
  const output = results.map(({ api, changes }) => formatChanges(api, changes));
  const breaking = results.flatMap((r) => r.changes).filter((c) => c.severity === 'breaking').length;
  const total = results.reduce((n, r) => n + r.changes.length, 0);
  output.push(`\nspec:diff ${ref}..work tree: ${total} change(s), ${breaking} breaking.`);
  if (breaking === 0) return { output, errors: [], exitCode: 0 };
  if (allowBreaking) {
    output.push('Breaking changes accepted (--allow-breaking): release them as a new major version of the specs and the client.');
    return { output, errors: [], exitCode: 0 };
  }
  return {
    output,
    errors: ['Breaking changes found. If they are intended, rerun with --allow-breaking and plan a major release.'],
    exitCode: 1,
  };
}
