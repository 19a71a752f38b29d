// The docs must render without reaching another host: Redoc's CDN logo is inlined, asset hosts and external
// scripts/styles/images are refused, and Redoc's browser telemetry must be off. buildDocs() runs checkOffline()
// on every page it writes.
import { readFileSync } from 'node:fs';

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

/**
 * Links and sources that start at the site root (`/x`): they leave the docs when the site is served under a base path
 * (GitHub Pages serves it under /<repo>/). Protocol-relative `//host` is caught by externalReferences.
 */
export function rootAbsoluteLinks(html: string): string[] {
  return [...html.matchAll(/(?<![.\w])(?:href|src)\s*=\s*["'](\/(?!\/)[^"']*)["']/gi)].map((m) => m[1]!);
}

/** Throws, naming the page, when a built page would load from another host, send telemetry or link from the site root. */
export function checkOffline(page: string, { redoc }: { redoc: boolean }): void {
  const html = readFileSync(page, 'utf8');
  const external = externalReferences(html);
  if (external.length > 0) throw new Error(`${page} loads from another host: ${external.slice(0, 3).join(', ')}`);
  if (redoc && !redocTelemetryDisabled(html)) {
    throw new Error(`${page} would send Redoc's browser telemetry to Redocly: build it with REDOCLY_TELEMETRY=off`);
  }
  const rooted = rootAbsoluteLinks(html);
  if (rooted.length > 0)
    throw new Error(`${page} links from the site root, which breaks under a base path: ${rooted.slice(0, 3).join(', ')}`);
}
