// Builds the partner docs into dist/docs/: a landing page (docs/index.html) and one Redoc page per API,
// fully offline (--inlineBundle). Each page is built from a copy of the bundle enriched with auth, quirk and assumption notes.
// `npm run docs` (scripts/docs.ts) runs buildDocs(); the tests call the parts directly.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { API_NAMES, repoRoot, type ApiName } from '../spec-core/apis.ts';
import { collectAssumptions, uniqueAssumptions } from '../spec-core/assumptions.ts';
import { loadBundles } from '../spec-core/bundles.ts';
import { operationsOf, type PathOperation } from '../spec-core/operations.ts';
import { resolveRef } from '../spec-core/pointer.ts';
import { REDOCLY_CLI, redoclyEnv } from '../spec-core/redocly.ts';

export { operationsOf };
export type Operation = PathOperation;

type Json = Record<string, any>;

export const docsDir = `${repoRoot}/dist/docs`;

/** Follows local `$ref`s (the bundles have no others) so that schemas can be inspected; undefined for a non-object. */
const deref = (doc: Json, node: unknown): Json | undefined => {
  const target = resolveRef<unknown>(doc, node);
  return target !== null && typeof target === 'object' ? (target as Json) : undefined;
};

/** Property names of a schema, including those of its oneOf/anyOf/allOf branches. */
function propertyNames(doc: Json, schemaNode: unknown, depth = 0): Set<string> {
  const schema = deref(doc, schemaNode);
  const names = new Set<string>(Object.keys(schema?.properties ?? {}));
  if (!schema || depth > 10) return names;
  for (const branch of [...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])]) {
    for (const n of propertyNames(doc, branch, depth + 1)) names.add(n);
  }
  return names;
}

const bodySchemas = (doc: Json, holder: unknown): unknown[] =>
  Object.values<Json>(deref(doc, holder)?.content ?? {}).map((media) => media.schema);

/** One line a reader can act on: which header carries which credential, for one scheme. */
function describeScheme(doc: Json, name: string): string {
  const scheme = deref(doc, doc.components?.securitySchemes?.[name]);
  if (!scheme) throw new Error(`security requirement names an unknown scheme "${name}"`);
  if (scheme.type === 'apiKey') return `\`${scheme.in === 'header' ? `${scheme.name}: <key>` : scheme.name}\` (${name})`;
  if (scheme.type === 'oauth2' || (scheme.type === 'http' && scheme.scheme === 'bearer')) {
    return `\`Authorization: Bearer <ACCESS_TOKEN>\` (${name})`;
  }
  return `${name} (${scheme.type})`;
}

/** Plain-text (markdown) statement of how an operation is authenticated, from its security requirements. */
export function authenticationOf(doc: Json, { op }: Operation): string {
  const requirements: Json[] = op.security ?? doc.security ?? [];
  if (requirements.length === 0 || requirements.every((r) => Object.keys(r).length === 0)) {
    const sendsSecret = (op.requestBody ? bodySchemas(doc, op.requestBody) : []).some((s) => propertyNames(doc, s).has('client_secret'));
    return sendsSecret
      ? 'no credential header: the client authenticates with `client_id` and `client_secret` in the form body'
      : 'none: this is not an API call with credentials (it is opened in the user\u2019s browser)';
  }
  const alternatives = requirements.map((r) => Object.keys(r).map((name) => describeScheme(doc, name)).join(' **and** '));
  return alternatives.length === 1 ? alternatives[0]! : `either ${alternatives.join('; or ')}`;
}

const usesOAuth2 = (doc: Json, { op }: Operation) =>
  ((op.security ?? doc.security ?? []) as Json[]).some((r) =>
    Object.keys(r).some((name) => deref(doc, doc.components?.securitySchemes?.[name])?.type === 'oauth2'),
  );

const returnsExpiredIn = (doc: Json, { op }: Operation) =>
  Object.values<Json>(op.responses ?? {}).some((r) => bodySchemas(doc, r).some((s) => propertyNames(doc, s).has('expired_in')));

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ').trim();
const cell = (text: string) => oneLine(text).replace(/\|/g, '\\|');

const EXPIRED_IN_NOTE =
  '> **Watch out: `expired_in`.** The service token endpoint (`POST {base_url}/token`) returns the lifetime as ' +
  '`expired_in`, not the usual `expires_in`; the identity provider uses `expires_in`. Tokens are valid for 1 hour.';

/**
 * A copy of one bundle with what Redoc does not show by itself: the authentication of every operation stated in
 * words, the `expired_in` quirk where a token is involved, and the x-assumption entries marked as assumptions,
 * per operation and in a table of their own, apart from the confirmed description.
 */
export function enrichForDocs(api: ApiName, bundle: Json): Json {
  const doc: Json = structuredClone(bundle);
  const assumptions = collectAssumptions(api, bundle);
  for (const operation of operationsOf(doc)) {
    const { op, pointer } = operation;
    const notes = [`**Authentication:** ${authenticationOf(doc, operation)}.`];
    if (usesOAuth2(doc, operation) || returnsExpiredIn(doc, operation)) notes.push(EXPIRED_IN_NOTE);
    const own = assumptions.filter((a) => a.pointer === pointer || a.pointer.startsWith(`${pointer}/`));
    for (const a of own) notes.push(`> **Assumption, not confirmed** (published docs §${a.seed} leave this open): ${oneLine(a.what)}`);
    op.description = `${notes.join('\n\n')}\n\n${op.description ?? ''}`.trimEnd();
  }
  const links = API_NAMES.map((other) => (other === api ? `**${other}**` : `[${other}](${other}.html)`)).join(' · ');
  const authRows = operationsOf(doc).map((o) => `| \`${o.method.toUpperCase()} ${o.path}\` | ${cell(o.op.summary ?? '')} | ${cell(authenticationOf(doc, o))} |`);
  const assumptionRows = assumptions.map((a) => `| ${a.seed} | \`${cell(a.pointer || '/')}\` | ${cell(a.what)} | ${cell(a.why)} |`);
  doc.info.description = [
    `[← All Logistics Partner APIs](index.html) · ${links}`,
    '',
    doc.info.description ?? '',
    '## Authentication per operation',
    '',
    '| Operation | Summary | Authentication |',
    '|---|---|---|',
    ...authRows,
    '',
    '## Assumptions (not confirmed)',
    '',
    assumptionRows.length === 0
      ? 'This API makes no assumptions: everything on this page is stated by the published documentation.'
      : 'Everything above is stated by the published API documentation, except these decisions, taken where it says "not shown". ' +
        'They are also marked next to the operations they concern.',
    '',
    ...(assumptionRows.length === 0 ? [] : ['| Seed § | Where | What is assumed | Why |', '|---|---|---|---|', ...assumptionRows]),
    '',
  ].join('\n');
  return doc;
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** The assumption texts use only `code` and **bold** of markdown. */
const inlineMarkdown = (text: string) =>
  escapeHtml(oneLine(text))
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');

export function landingPage(bundles: Record<ApiName, Json>, builtFrom: string): string {
  const template = readFileSync(`${repoRoot}/docs/index.html`, 'utf8');
  const style = readFileSync(`${repoRoot}/docs/style.css`, 'utf8');
  const cards = API_NAMES.map((api) => {
    const { info } = bundles[api];
    const count = operationsOf(bundles[api]).length;
    return `      <li><h3><a href="${api}.html">${escapeHtml(info.title)}</a></h3><p>${inlineMarkdown(info.summary ?? '')}</p><p>${count} operation${count === 1 ? '' : 's'} · version ${escapeHtml(info.version)}</p></li>`;
  });
  const authRows = API_NAMES.flatMap((api) =>
    operationsOf(bundles[api]).map(
      (o) =>
        `        <tr><td><a href="${api}.html">${api}</a></td><td><code>${o.method.toUpperCase()} ${escapeHtml(o.path)}</code><br>${escapeHtml(o.op.summary ?? '')}</td><td>${inlineMarkdown(authenticationOf(bundles[api], o))}</td></tr>`,
    ),
  );
  const assumptions = uniqueAssumptions(API_NAMES.flatMap((api) => collectAssumptions(api, bundles[api])));
  const assumptionRows = assumptions.map(
    ({ apis, a }) =>
      `        <tr><td>${apis.map((api) => `<a href="${api}.html">${api}</a>`).join(', ')}</td><td>${escapeHtml(a.seed)}</td><td>${inlineMarkdown(a.what)}</td><td>${inlineMarkdown(a.why)}</td></tr>`,
  );
  const slots: Record<string, string> = {
    style,
    apiCards: cards.join('\n'),
    authRows: authRows.join('\n'),
    assumptionCount: String(assumptions.length),
    assumptionRows: assumptionRows.join('\n'),
    builtFrom: escapeHtml(builtFrom),
  };
  return template.replace(/\{\{(\w+)\}\}/g, (slot, name: string) => {
    if (!(name in slots)) throw new Error(`docs/index.html has an unknown slot ${slot}`);
    return slots[name]!;
  });
}

const run = promisify(execFile);

async function buildReferencePage(api: ApiName, enriched: Json, workDir: string): Promise<void> {
  const source = `${workDir}/${api}.json`;
  writeFileSync(source, JSON.stringify(enriched, null, 2));
  const args = [
    REDOCLY_CLI,
    'build-docs',
    source,
    '--inlineBundle', // Redoc's scripts are embedded instead of loaded from Redocly's CDN
    '--output',
    `${docsDir}/${api}.html`,
    '--title',
    String(enriched.info.title),
    '--config',
    `${repoRoot}/docs/redocly.yaml`,
  ];
  try {
    await run(process.execPath, args, {
      cwd: workDir,
      env: redoclyEnv(),
      maxBuffer: 16 * 1024 * 1024,
      timeout: 120_000,
    });
    const page = `${docsDir}/${api}.html`;
    writeFileSync(page, inlineCdnAssets(readFileSync(page, 'utf8')));
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`redocly build-docs failed for ${api}:\n${stderr || stdout || String(error)}`);
  }
}

// Redoc's attribution badge loads Redocly's logo from their CDN at run time, even with --inlineBundle.
// The same badge is kept, with the logo inlined as a data: URL, so the page fetches nothing from another host.
const redoclyLogo = (width: number) =>
  `data:image/svg+xml,${encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="16" viewBox="0 0 ${width} 16"><text x="0" y="12" font-family="sans-serif" font-size="12" font-weight="600" fill="#a0a7b0">Redocly</text></svg>`,
  )}`;
const CDN_ASSETS: Record<string, string> = {
  'https://cdn.redoc.ly/redoc/logo-mini-full.svg': redoclyLogo(48),
  'https://cdn.redoc.ly/redoc/logo-mini.svg': redoclyLogo(48),
};

export function inlineCdnAssets(html: string): string {
  return Object.entries(CDN_ASSETS).reduce((page, [url, dataUrl]) => page.split(url).join(dataUrl), html);
}

/**
 * Redoc 3 pages send usage telemetry from the reader's browser to Redocly unless built with REDOCLY_TELEMETRY=off
 * (the CLI then writes `disableTelemetry: true` into the page's options; a config file cannot override it).
 */
export const redocTelemetryDisabled = (html: string) => /const __redoc_options = \{[^\n]*"disableTelemetry":true/.test(html);

/**
 * Asset URLs that a page would fetch as soon as it renders (Redoc's logo, web fonts). Redoc's bundle also names an
 * icon CDN (cdn.redocly.com/icons) for components these pages do not use; the browser test watches for it at run time.
 */
const ASSET_HOSTS = /(?:https?:)?\/\/(?:cdn\.redoc\.ly|fonts\.googleapis\.com|fonts\.gstatic\.com)[^"'`\s)]*/gi;

/** Redoc must not pull anything from another host; a page that names one in src/href, or an asset host anywhere, fails the build. */
export function externalReferences(html: string): string[] {
  const found = html.match(/<(?:script|link|img|iframe|source)\b[^>]*\b(?:src|href)\s*=\s*["']?(?:https?:)?\/\/[^"'\s>]+/gi) ?? [];
  const cssImports = html.match(/@import\s+(?:url\()?["']?(?:https?:)?\/\/[^"')\s]+/gi) ?? [];
  return [...found, ...cssImports, ...(html.match(ASSET_HOSTS) ?? [])];
}

export async function buildDocs(): Promise<string[]> {
  const bundles = loadBundles();
  rmSync(docsDir, { recursive: true, force: true });
  const workDir = `${docsDir}/.source`;
  mkdirSync(workDir, { recursive: true });
  await Promise.all(API_NAMES.map((api) => buildReferencePage(api, enrichForDocs(api, bundles[api]), workDir)));
  rmSync(workDir, { recursive: true, force: true });
  const builtFrom = `from ${API_NAMES.map((api) => `${api} ${bundles[api].info.version}`).join(', ')} by npm run docs`;
  writeFileSync(`${docsDir}/index.html`, landingPage(bundles, builtFrom));

  const pages = ['index', ...API_NAMES].map((name) => `${docsDir}/${name}.html`);
  for (const page of pages) {
    const html = readFileSync(page, 'utf8');
    const external = externalReferences(html);
    if (external.length > 0) throw new Error(`${page} loads from another host: ${external.slice(0, 3).join(', ')}`);
    if (page !== pages[0] && !redocTelemetryDisabled(html)) {
      throw new Error(`${page} would send Redoc's browser telemetry to Redocly: build it with REDOCLY_TELEMETRY=off`);
    }
  }
  return pages;
}
