// The guard that keeps the docs offline and base-path independent, on made-up pages and on the built ones.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_NAMES, repoRoot } from '../../spec-core/apis.ts';
import { finishRedocPage, hashRootLinks } from '../../tools/docs/build.ts';
import { externalReferences, inlineCdnAssets, redocTelemetryDisabled, rootAbsoluteLinks } from '../../tools/docs/offline-check.ts';

const builtPage = (name: string) => {
  const page = `${repoRoot}/dist/docs/${name}`;
  if (!existsSync(page)) throw new Error(`${page} is missing: run \`npm run docs\` first (npm run test:docs does).`);
  return readFileSync(page, 'utf8');
};

describe('offline guard', () => {
  it('flags scripts, styles and fonts from another host, and not loopback or inline ones', () => {
    const page = [
      '<script src="https://cdn.redoc.ly/redoc/latest/bundles/redoc.standalone.js"></script>',
      '<link href="https://fonts.googleapis.com/css?family=Roboto" rel="stylesheet">',
      '<img src="//example.com/x.png">',
      '<script src="index.js"></script><img src="data:image/png;base64,AAAA">',
    ].join('\n');
    const found = externalReferences(page);
    expect(found.filter((f) => f.startsWith('<'))).toHaveLength(3); // the three tags from another host
    expect(found.filter((f) => !f.startsWith('<'))).toEqual([
      // and the asset hosts, wherever they are named
      'https://cdn.redoc.ly/redoc/latest/bundles/redoc.standalone.js',
      'https://fonts.googleapis.com/css?family=Roboto',
    ]);
    expect(externalReferences('<script>const a = 1;</script><a href="https://redocly.com/redoc/">Redocly</a>')).toEqual([]);
  });

  it('replaces the Redocly logo URLs with inline images', () => {
    const html = inlineCdnAssets('src:e?`https://cdn.redoc.ly/redoc/logo-mini-full.svg`:`https://cdn.redoc.ly/redoc/logo-mini.svg`');
    expect(html).not.toContain('cdn.redoc.ly');
    expect(html.match(/data:image\/svg\+xml,/g)).toHaveLength(2);
  });

  it("finds links from the site root, and turns Redoc's menu links into its anchors", () => {
    const html =
      '<a href="/">x</a><a href="/vehicles">y</a><a href="fleet.html">z</a><img src="//cdn.test/a.png"><script>a.href = "/" + b</script>';
    expect(rootAbsoluteLinks(html)).toEqual(['/', '/vehicles']);
    expect(rootAbsoluteLinks(hashRootLinks(html))).toEqual([]);
    expect(hashRootLinks(html)).toContain('<a href="#/vehicles">');
  });

  it.each(API_NAMES)('the built %s page names no asset host, links nothing from the root and has telemetry off', (api) => {
    const html = builtPage(`${api}.html`);
    expect(externalReferences(html)).toEqual([]);
    expect(rootAbsoluteLinks(html)).toEqual([]);
    expect(redocTelemetryDisabled(html)).toBe(true);
    expect(redocTelemetryDisabled(html.replace('"disableTelemetry":true', '"disableTelemetry":false'))).toBe(false);
    expect(html).toContain('id="lp-sample-wrap"');
  });

  it('the finishing step is what the built pages got', () => {
    const finished = finishRedocPage('<html><head></head><body><a href="/x">x</a></body></html>');
    expect(finished).toContain('<a href="#/x">');
    expect(finished.indexOf('<style id="lp-sample-wrap">')).toBeGreaterThan(-1);
    expect(finished.indexOf('<style id="lp-sample-wrap">')).toBeLessThan(finished.indexOf('</head>'));
  });

  it.each(['index.html', '404.html'])('the built %s loads nothing from another host and links nothing from the root', (name) => {
    const html = builtPage(name);
    expect(externalReferences(html)).toEqual([]);
    expect(rootAbsoluteLinks(html)).toEqual([]);
  });
});
