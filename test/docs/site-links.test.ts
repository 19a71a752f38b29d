// Every internal link of dist/docs/ resolves when the site is served under a base path, as GitHub Pages serves it
// (/<repo>/): linkinator crawls it on a loopback server. Links to other hosts are skipped, never fetched (the test
// names how many); #fragments are not checked, because Redoc renders its anchors in the browser (docs-pages.test.ts
// opens each operation from its link instead).
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { check, LinkState } from 'linkinator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_NAMES, repoRoot } from '../../spec-core/apis.ts';
import { startDocsServer } from '../../tools/docs/serve.ts';
import { isLocalUrl } from './guarded-page.ts';
import { testWaitMs } from '../../config/test-waits.ts';

const docsDir = `${repoRoot}/dist/docs`;
let server: Server;
let base: string;

beforeAll(async () => {
  if (!existsSync(`${docsDir}/index.html`))
    throw new Error('dist/docs/index.html is missing: run `npm run docs` first (npm run test:docs does).');
  ({ server, url: base } = await startDocsServer(docsDir, { basePath: '/logistics-partner-api/' }));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/**
 * Crawls from `start` within the site; returns the broken links, the internal ones that resolved and the external
 * ones it skipped. linkinator recurses only below the start URL's folder, so a crawl of the site starts at the folder.
 */
async function crawl(start: string, recurse = true) {
  const { links } = await check({
    path: start,
    recurse,
    timeout: testWaitMs(10_000),
    concurrency: 4,
    retry: false,
    // mailto: and other hosts are left alone: nothing leaves the machine.
    linksToSkip: async (link) => !(/^https?:/.test(link) && isLocalUrl(link)),
  });
  const broken = links.filter((l) => l.state === LinkState.BROKEN).map((l) => `${l.url} (${l.status}) from ${l.parent}`);
  const checked = links.filter((l) => l.state === LinkState.OK).map((l) => l.url);
  const skipped = [...new Set(links.filter((l) => l.state === LinkState.SKIPPED).map((l) => l.url))];
  return { broken, checked: [...new Set(checked)], skipped };
}

describe('links of the built docs', () => {
  it('every internal link resolves under a base path; external links are skipped, not fetched', async () => {
    const { broken, checked, skipped } = await crawl(base);
    expect(broken).toEqual([]);
    for (const api of API_NAMES) {
      for (const target of ['index.html', `${api}.html`, `specs/${api}.yaml`, `specs/${api}.json`])
        expect(checked).toContain(`${base}${target}`);
    }
    expect(
      checked.every((url) => url.startsWith(base)),
      'no link left the base path',
    ).toBe(true);
    expect(skipped, 'the Redoc pages were crawled too (their attribution link is external)').toContain('https://redocly.com/redoc/');
    console.info(
      `[docs] linkinator: ${checked.length} internal links resolve; ${skipped.length} external links skipped (not fetched): ${skipped.join(', ')}`,
    );
  });

  it("the 404 page's links resolve too, and the crawl reports a broken link when there is one", async () => {
    // Its own links only: the site behind them was crawled above.
    expect((await crawl(`${base}404.html`, false)).broken).toEqual([]);
    // A page that does not exist is broken: the check is able to fail.
    const { broken } = await crawl(`${base}no-such-page.html`, false);
    expect(broken.length).toBeGreaterThan(0);
  });
});
