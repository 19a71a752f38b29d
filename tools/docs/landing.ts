// The landing page (dist/docs/index.html, from the docs/index.html template) and the 404 page: a quick start that runs
// as shown against `npm run sandbox`, the APIs with their spec downloads, onboarding, the credential each operation
// takes, a summary of what the published documentation does not confirm, and the support contact.
import { readFileSync } from 'node:fs';
import { API_NAMES, repoRoot, type ApiName } from '../../spec-core/apis.ts';
import { collectAssumptions, uniqueAssumptions } from '../../spec-core/assumptions.ts';
import { operationsOf } from '../../spec-core/operations.ts';
import { SANDBOX_DEFAULTS } from '../../sandbox/config.ts';
import {
  authenticationOf,
  breakablePath,
  NOT_CONFIRMED_AFTER_COUNT,
  oneLine,
  operationAnchor,
  SANDBOX_ORIGIN,
  specDownloads,
} from './enrich.ts';
import { NOT_CONFIRMED, partnerWording } from './partner-language.ts';
import type { SupportContact } from './support.ts';
import { POSTMAN_DOWNLOADS } from '../postman/build-collection.ts';

type Json = Record<string, any>;

export { SANDBOX_ORIGIN };
/** A vehicle of the sandbox's default fleet that the default fleet key may read (sandbox/fleet-fixtures.ts). */
export const QUICK_START_VEHICLE = 'V-000006';

/** The quick start's first calls, exactly as the page shows them (the browser test runs them against a sandbox). */
export const QUICK_START = {
  curl: `curl -sS "${SANDBOX_ORIGIN}/fleet/vehicles/${QUICK_START_VEHICLE}" \\\n  -H "API-Key: ${SANDBOX_DEFAULTS.LP_FLEET_API_KEY}"`,
  typescript: [
    "import { createFleetClient } from '@logistics-partner/api';",
    '',
    'const fleet = createFleetClient({',
    `  baseUrl: '${SANDBOX_ORIGIN}/fleet',`,
    `  fleetApiKey: '${SANDBOX_DEFAULTS.LP_FLEET_API_KEY}', // the sandbox's public test key`,
    '});',
    "const { data } = await fleet.GET('/vehicles/{vehicleNumber}', {",
    `  params: { path: { vehicleNumber: '${QUICK_START_VEHICLE}' } },`,
    '});',
    'console.log(data?.vehicleNumber, data?.licensePlate, data?.vehicleType);',
  ].join('\n'),
};

export const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** The texts shown here use only `code` and **bold** of markdown. */
export const inlineMarkdown = (text: string) =>
  escapeHtml(oneLine(text))
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');

/** The support block in HTML: name, every way to reach it, and what to include. */
export function supportHtml(support: SupportContact): string {
  const ways = [
    support.email ? `<a href="mailto:${escapeHtml(support.email)}">${escapeHtml(support.email)}</a>` : '',
    support.url ? `<a href="${escapeHtml(support.url)}">${escapeHtml(support.url)}</a>` : '',
  ].filter(Boolean);
  return `<p><strong>${escapeHtml(support.name)}</strong>: ${ways.join(' or ')}.</p>${support.note ? `\n    <p>${escapeHtml(support.note)}</p>` : ''}`;
}

/** The docs' own pages' style (docs/style.css), inlined into each of them. */
export const style = () => readFileSync(`${repoRoot}/docs/style.css`, 'utf8');

/**
 * The docs' icon (docs/favicon.svg) as a data: URL, linked from every page: the browser fetches nothing for it (so no
 * 404 for /favicon.ico, and it works offline and under any base path).
 */
export const faviconHref = () => `data:image/svg+xml,${encodeURIComponent(readFileSync(`${repoRoot}/docs/favicon.svg`, 'utf8').trim())}`;

/** Fills the {{slots}} of a template; a slot without a value is an error, so the template and the code stay in step. */
export function fill(template: string, file: string, slots: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (slot, name: string) => {
    if (!(name in slots)) throw new Error(`${file} has an unknown slot ${slot}`);
    return slots[name]!;
  });
}

export interface LandingOptions {
  builtFrom: string;
  support: SupportContact;
}

export function landingPage(bundles: Record<ApiName, Json>, { builtFrom, support }: LandingOptions): string {
  const cards = API_NAMES.map((api) => {
    const { info } = bundles[api];
    const count = operationsOf(bundles[api]).length;
    const downloads = specDownloads(api);
    return [
      `      <li><h3><a href="${api}.html">${escapeHtml(info.title)}</a></h3><p>${inlineMarkdown(info.summary ?? '')}</p>`,
      `<p>${count} operation${count === 1 ? '' : 's'} · version ${escapeHtml(info.version)} · spec <a href="${downloads.yaml}" download>YAML</a> <a href="${downloads.json}" download>JSON</a></p></li>`,
    ].join('');
  });
  const authRows = API_NAMES.flatMap((api) =>
    operationsOf(bundles[api]).map(
      (o) =>
        `        <tr><td><a href="${api}.html">${api}</a></td><td><a href="${api}.html${operationAnchor(o.op)}"><code class="lp-path">${o.method.toUpperCase()} ${breakablePath(o.path)}</code></a><br>${escapeHtml(o.op.summary ?? '')}</td><td>${inlineMarkdown(authenticationOf(bundles[api], o))}</td></tr>`,
    ),
  );
  const assumptions = uniqueAssumptions(API_NAMES.flatMap((api) => collectAssumptions(api, bundles[api])));
  const perApi = API_NAMES.map((api) => {
    const n = assumptions.filter(({ apis }) => apis.includes(api)).length;
    return `<a href="${api}.html">${api}</a>: ${n}`;
  });
  const assumptionItems = assumptions.map(
    ({ apis, a }) =>
      `        <li>${inlineMarkdown(partnerWording(a.what))} <span class="apis">(${apis.map((api) => `<a href="${api}.html">${api}</a>`).join(', ')})</span></li>`,
  );
  const [collection, ...environments] = POSTMAN_DOWNLOADS;
  const postmanLink =
    `<p>Prefer Postman? Import the <a href="${collection.href}" download>${collection.label}</a> and an environment: ` +
    `${environments.map(({ href, label }) => `<a href="${href}" download>${escapeHtml(label)}</a>`).join(', ')}. ` +
    'The sandbox environment works against <code>npm run sandbox</code> as is.</p>';
  return fill(readFileSync(`${repoRoot}/docs/index.html`, 'utf8'), 'docs/index.html', {
    style: style(),
    favicon: faviconHref(),
    sandboxOrigin: escapeHtml(SANDBOX_ORIGIN),
    quickStartCurl: escapeHtml(QUICK_START.curl),
    quickStartTypeScript: escapeHtml(QUICK_START.typescript),
    postmanLink,
    apiCards: cards.join('\n'),
    authRows: authRows.join('\n'),
    notConfirmed: NOT_CONFIRMED,
    notConfirmedAfterCount: NOT_CONFIRMED_AFTER_COUNT,
    assumptionCount: String(assumptions.length),
    assumptionsPerApi: perApi.join(' · '),
    assumptionItems: assumptionItems.join('\n'),
    support: supportHtml(support),
    builtFrom: escapeHtml(builtFrom),
  });
}

/** The page a static host (GitHub Pages) answers for a missing path. */
export function notFoundPage(support: SupportContact): string {
  return fill(readFileSync(`${repoRoot}/docs/404.html`, 'utf8'), 'docs/404.html', {
    style: style(),
    favicon: faviconHref(),
    support: supportHtml(support),
  });
}
