// Builds the partner docs into dist/docs/: the landing page, one Redoc page per API (fully offline, --inlineBundle),
// the flows page (the Arazzo workflows as numbered steps), the specs and workflows to download, the Postman
// collection, and a 404 page. `npm run docs` (scripts/docs.ts) calls buildDocs(); the tests call the parts.
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import { API_NAMES, bundlePath, repoRoot, type ApiName } from '../../spec-core/apis.ts';
import { loadBundles } from '../../spec-core/bundles.ts';
import { runRedocly } from '../../spec-core/redocly.ts';
import { enrichForDocs, specDownloads } from './enrich.ts';
import { writePostmanCollection } from '../postman/build-collection.ts';
import { faviconHref, landingPage, notFoundPage } from './landing.ts';
import { checkOffline, inlineCdnAssets } from './offline-check.ts';
import { DEFAULT_DOCS_CONFIG, readSupportContact } from './support.ts';
import { workflowsPage } from './workflows-page.ts';
import { publishedWorkflowPath, WORKFLOW_FILES } from '../../spec-core/workflows.ts';

type Json = Record<string, any>;

export const docsDir = `${repoRoot}/dist/docs`;

/**
 * Redoc's code panels keep long lines on one line and cut them at the panel's edge; partners copy commands from
 * there. Long lines wrap instead (a word that cannot wrap scrolls), so no sample is clipped.
 */
const SAMPLE_WRAP_STYLE = `<style id="lp-sample-wrap">
pre, pre code { white-space: pre-wrap !important; overflow-wrap: anywhere; overflow-x: auto !important; }
</style>`;

/** Redoc's prerendered menu links start at the site root (`/vehicles`); without the router its anchors are `#/vehicles`. */
export const hashRootLinks = (html: string) => html.replace(/\bhref="\/(?!\/)/g, 'href="#/');

/** The docs' additions to Redoc's style for a laptop's screen (docs/redoc.css). */
const laptopStyle = () => `<style id="lp-laptop">\n${readFileSync(`${repoRoot}/docs/redoc.css`, 'utf8')}</style>`;

/** What buildReferencePage does to the HTML Redoc writes: offline assets, relative links, the docs' style and icon. */
export const finishRedocPage = (html: string) =>
  hashRootLinks(inlineCdnAssets(html)).replace(
    '</head>',
    `<link rel="icon" type="image/svg+xml" href="${faviconHref()}">${SAMPLE_WRAP_STYLE}${laptopStyle()}</head>`,
  );

async function buildReferencePage(api: ApiName, enriched: Json, outDir: string, workDir: string): Promise<string> {
  const source = `${workDir}/${api}.json`;
  writeFileSync(source, JSON.stringify(enriched, null, 2));
  // docs/redocly.yaml plus this API's downloads; Redoc shows them in a "Download OpenAPI description" box.
  const config = parse(readFileSync(`${repoRoot}/docs/redocly.yaml`, 'utf8')) as Json;
  const downloads = specDownloads(api);
  config.openapi = {
    ...config.openapi,
    downloadUrls: [
      { title: 'YAML', url: downloads.yaml },
      { title: 'JSON', url: downloads.json },
    ],
  };
  writeFileSync(`${workDir}/${api}.redocly.yaml`, stringify(config));
  const page = `${outDir}/${api}.html`;
  const args = [
    'build-docs',
    source,
    '--inlineBundle',
    '--output',
    page,
    '--title',
    String(enriched.info.title),
    '--config',
    `${workDir}/${api}.redocly.yaml`,
  ];
  try {
    // --inlineBundle: Redoc's scripts are embedded instead of loaded from Redocly's CDN.
    await runRedocly(args, workDir);
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`redocly build-docs failed for ${api}:\n${stderr || stdout || String(error)}`);
  }
  writeFileSync(page, finishRedocPage(readFileSync(page, 'utf8')));
  return page;
}

export interface BuildOptions {
  /** Where the site goes (default dist/docs). */
  outDir?: string;
  /** The docs config file with the support contact (default docs/docs.config.json). */
  configFile?: string;
}

/** Builds the whole site and returns the pages it wrote; every page passes the offline check. */
export async function buildDocs({ outDir = docsDir, configFile = DEFAULT_DOCS_CONFIG }: BuildOptions = {}): Promise<string[]> {
  const support = readSupportContact(configFile);
  const bundles = loadBundles();
  rmSync(outDir, { recursive: true, force: true });
  const workDir = `${outDir}/.source`;
  mkdirSync(workDir, { recursive: true });
  mkdirSync(`${outDir}/specs`, { recursive: true });
  for (const api of API_NAMES)
    for (const ext of ['yaml', 'json'] as const) copyFileSync(bundlePath(api, ext), `${outDir}/specs/${api}.${ext}`);
  // The Arazzo workflows as published beside the bundles: they name the specs beside them (`url: token.yaml`).
  for (const name of WORKFLOW_FILES) copyFileSync(publishedWorkflowPath(name), `${outDir}/specs/${name}`);
  const [reference] = await Promise.all([
    Promise.all(API_NAMES.map((api) => buildReferencePage(api, enrichForDocs(api, bundles[api], { support }), outDir, workDir))),
    // The Postman collection and its environments, generated from the same bundles and linked from the landing page.
    writePostmanCollection(`${outDir}/postman`, bundles),
  ]);
  rmSync(workDir, { recursive: true, force: true });

  const builtFrom = `from ${API_NAMES.map((api) => `${api} ${bundles[api].info.version}`).join(', ')} by npm run docs`;
  writeFileSync(`${outDir}/index.html`, landingPage(bundles, { builtFrom, support }));
  writeFileSync(`${outDir}/404.html`, notFoundPage(support));
  writeFileSync(`${outDir}/workflows.html`, workflowsPage(bundles, { builtFrom, support }));

  const own = [`${outDir}/index.html`, `${outDir}/workflows.html`, `${outDir}/404.html`];
  for (const page of own) checkOffline(page, { redoc: false });
  for (const page of reference) checkOffline(page, { redoc: true });
  return [...own, ...reference];
}
