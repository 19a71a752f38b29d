// Opens every page of dist/docs/ in headless Chromium over loopback: it renders its API's operations,
// logs no console error and fetches nothing from another host. Screenshots go to dist/docs/screenshots/.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_NAMES, repoRoot } from '../../spec-core/apis.ts';
import { collectAssumptions } from '../../spec-core/assumptions.ts';
import { loadBundle } from '../../spec-core/bundles.ts';
import { operationsOf } from '../../tools/docs.ts';
import { startDocsServerProcess, type DocsServerProcess } from './docs-server-process.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH, chromiumMissingReason, openGuardedPage, type GuardedPage } from './guarded-page.ts';

const docsDir = `${repoRoot}/dist/docs`;
const screenshotsDir = `${docsDir}/screenshots`;
const RENDER_TIMEOUT_MS = 20_000;

if (chromiumMissingReason) console.warn(`[docs] browser checks skipped: ${chromiumMissingReason}`);

/** The number the generator printed in generated/assumptions.md: an independent count of the decisions. */
function generatedAssumptionCount(): number {
  const match = /^(\d+) assumptions\.$/m.exec(readFileSync(`${repoRoot}/generated/assumptions.md`, 'utf8'));
  if (!match) throw new Error('generated/assumptions.md has no "N assumptions." line');
  return Number(match[1]);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let server: DocsServerProcess | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  if (chromiumMissingReason) return;
  if (!existsSync(`${docsDir}/index.html`)) throw new Error('dist/docs/index.html is missing: run `npm run docs` first (npm run test:docs does).');
  mkdirSync(screenshotsDir, { recursive: true });
  server = await startDocsServerProcess();
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Opens one docs page, lets the test look at it, then checks what every page must satisfy. */
async function visit(name: string, check: (guarded: GuardedPage) => Promise<void>): Promise<GuardedPage> {
  const guarded = await openGuardedPage(browser!);
  try {
    const response = await guarded.page.goto(`${server!.url}${name}.html`, { waitUntil: 'load', timeout: RENDER_TIMEOUT_MS });
    expect(response?.status(), `${name}.html status`).toBe(200);
    await check(guarded);
    if (name === 'index') await guarded.page.screenshot({ path: `${screenshotsDir}/${name}.png`, fullPage: true });
    await guarded.page.waitForLoadState('networkidle', { timeout: RENDER_TIMEOUT_MS });
    expect(guarded.blocked, `${name}.html requested another host`).toEqual([]);
    expect(guarded.consoleErrors, `${name}.html logged console errors`).toEqual([]);
    expect(guarded.requests.length, 'the page itself was requested and recorded').toBeGreaterThan(0);
    return guarded;
  } finally {
    await guarded.close();
  }
}

describe('partner docs in headless Chromium', () => {
  it('the landing page links every API, states the expired_in quirk and lists every assumption', async (ctx) => {
    if (chromiumMissingReason) ctx.skip(chromiumMissingReason);
    await visit('index', async ({ page }) => {
      await expect(page.getByRole('heading', { name: 'Onboarding' }).isVisible()).resolves.toBe(true);
      for (const api of API_NAMES) {
        const title = loadBundle(api).info.title as string;
        await expect(page.getByRole('link', { name: title }).getAttribute('href')).resolves.toBe(`${api}.html`);
      }
      for (const step of ['application name', 'redirect URI', 'terms of service', 'Profile', 'approved']) {
        await expect(page.locator('#onboarding').innerText()).resolves.toContain(step);
      }
      await expect(page.locator('#expired-in').innerText()).resolves.toMatch(/expired_in[\s\S]*not[\s\S]*expires_in/);
      await expect(page.locator('table.assumptions tbody tr').count()).resolves.toBe(generatedAssumptionCount());
    });
  });

  for (const api of API_NAMES) {
    it(`the ${api} page renders each operation with its authentication, code samples and assumptions`, async (ctx) => {
      if (chromiumMissingReason) ctx.skip(chromiumMissingReason);
      const doc = loadBundle(api);
      await visit(api, async ({ page }) => {
        const overview = await page.locator('main, body').first().innerText();
        expect(overview).toContain('Authentication per operation');
        expect(overview).toContain('Assumptions (not confirmed)');
        await page.screenshot({ path: `${screenshotsDir}/${api}.png` });
        let clientSamplesChosen = false;
        for (const { op, pointer } of operationsOf(doc)) {
          // Redoc 3 renders an operation when a reader opens it from the menu: open its tag, then the operation.
          const tag = page.locator('[data-component-name="Menu/MenuItem"].menu-item-type-group', { hasText: op.tags[0] });
          const item = page.locator('[data-component-name="Menu/MenuItem"].menu-item-type-operation', { hasText: op.summary });
          if (!(await item.isVisible())) await tag.getByTestId('menu-item-label').first().click({ timeout: RENDER_TIMEOUT_MS });
          await item.click({ timeout: RENDER_TIMEOUT_MS });
          // Matched on the visible text: the heading's accessible name also carries its anchor link's label.
          const heading = page.locator('h1, h2').filter({ hasText: new RegExp(`^${escapeRegExp(op.summary)}$`) });
          await heading.first().waitFor({ state: 'visible', timeout: RENDER_TIMEOUT_MS });
          const text = await page.locator('body').innerText();
          expect(text, `${op.operationId} states its authentication`).toContain('Authentication:');
          const ownAssumptions = collectAssumptions(api, doc).filter((a) => a.pointer.startsWith(`${pointer}/`) || a.pointer === pointer);
          if (ownAssumptions.length > 0) {
            expect(text.match(/Assumption, not confirmed/g)?.length ?? 0, `${op.operationId} marks its assumptions`).toBeGreaterThanOrEqual(ownAssumptions.length);
          }
          if (op.operationId !== 'requestAuthorization' && api !== 'fleet') {
            expect(text, `${op.operationId} shows the expired_in quirk`).toContain('expired_in');
          }
          // The samples panel opens on curl; the published client is the other language, a page-wide choice made once.
          if (!clientSamplesChosen) {
            const panelHeader = page.locator('.panel-request-samples [data-component-name="Panel/PanelHeader"]').filter({ visible: true }).first();
            await panelHeader.getByText('curl', { exact: true }).click({ timeout: RENDER_TIMEOUT_MS });
            await page.getByRole('menuitem', { name: '@logistics-partner/api' }).first().click({ timeout: RENDER_TIMEOUT_MS });
            clientSamplesChosen = true;
          }
          await page.getByText(/from '@logistics-partner\/api'/).filter({ visible: true }).first().waitFor({ state: 'visible', timeout: RENDER_TIMEOUT_MS });
          await page.screenshot({ path: `${screenshotsDir}/${api}-${op.operationId}.png` });
        }
      });
    });
  }

  it('the guard itself catches a request to another host and a console error', async (ctx) => {
    if (chromiumMissingReason) ctx.skip(chromiumMissingReason);
    // Proves the checks above can fail: this page asks for an image on another host and logs an error.
    const guarded = await openGuardedPage(browser!);
    try {
      await guarded.page.goto(`${server!.url}index.html`);
      await guarded.page.evaluate(async () => {
        console.error('deliberate error');
        const img = document.createElement('img');
        img.src = 'https://example.com/tracker.png';
        document.body.append(img);
        await new Promise((resolve) => img.addEventListener('error', resolve, { once: true }));
      });
      expect(guarded.blocked).toEqual(['https://example.com/tracker.png']);
      expect(guarded.consoleErrors).toContain('deliberate error');
    } finally {
      await guarded.close();
    }
  });
});
