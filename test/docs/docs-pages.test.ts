// Opens every page of dist/docs/ in headless Chromium over loopback, as a partner would: the first screen of each
// API page lists its operations, every operation opens from that list with its authentication, samples and
// assumptions, no sample is clipped, no internal word shows, the quick start runs as written against a sandbox,
// and the site works under a base path. Every page logs no console error and fetches nothing from another host.
// On a laptop (1440 x 900 and 1280 x 900): an API's title takes one or two lines, paths break only after a `/`, each
// operation's parameters are on its first screen, no control covers a sample, the servers panel names the partner's
// base URL first, and every page has an icon. The flows page shows each workflow as numbered steps, each linked to its
// operation with a curl that runs as written against a sandbox. Screenshots go to dist/docs-screenshots/ (each API page's
// first screen as <api>-<width>x<height>.png, the flows page's as workflows-1280x900.png), outside the published site.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../tools/targets.ts';
import { buildLessees, buildVehicles, DEFAULT_VEHICLE_COUNT } from '../../sandbox/fleet-fixtures.ts';
import { API_NAMES, repoRoot } from '../../spec-core/apis.ts';
import { collectAssumptions } from '../../spec-core/assumptions.ts';
import { loadBundle, loadBundles } from '../../spec-core/bundles.ts';
import { operationsOf } from '../../spec-core/operations.ts';
import { operationAnchor } from '../../tools/docs/enrich.ts';
import { NOT_CONFIRMED, placeAssumptions } from '../../tools/docs/partner-language.ts';
import { SANDBOX_ORIGIN } from '../../tools/docs/landing.ts';
import { startDocsServer } from '../../tools/docs/serve.ts';
import { startDocsServerProcess, type DocsServerProcess } from './docs-server-process.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH, chromiumMissingReason, openGuardedPage, type GuardedPage } from './guarded-page.ts';
import { controlsOnCode, firstParameterBox, LAPTOP_SIZES, lineCount, pathBreaksInsideWords, sizeName } from './laptop.ts';
import { nodeAt } from '../../spec-core/pointer.ts';
import { findOperation, loadWorkflows, type Workflow } from '../../spec-core/workflows.ts';
import { stepAnchor, workflowDownload } from '../../tools/docs/workflows-page.ts';
import { curlOf } from '../../tools/workflows/curl.ts';
import { stepRequests } from '../../tools/workflows/step-request.ts';
import { runShellSample, runTypeScriptSample } from './run-sample.ts';
import { testWaitMs } from '../../config/test-waits.ts';

const docsDir = `${repoRoot}/dist/docs`;
// Outside dist/docs/, so that the published site does not carry them.
const screenshotsDir = `${repoRoot}/dist/docs-screenshots`;
const RENDER_TIMEOUT_MS = testWaitMs(20_000);
const VIEWPORT_HEIGHT = 900; // guarded-page.ts opens 1440 x 900, the last of LAPTOP_SIZES

if (chromiumMissingReason) console.warn(`[docs] browser checks skipped: ${chromiumMissingReason}`);

/** The number the generator printed in generated/assumptions.md: an independent count of the decisions. */
function generatedAssumptionCount(): number {
  const match = /^(\d+) assumptions\.$/m.exec(readFileSync(`${repoRoot}/generated/assumptions.md`, 'utf8'));
  if (!match) throw new Error('generated/assumptions.md has no "N assumptions." line');
  return Number(match[1]);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Words of the kit's own vocabulary that must not reach partners. */
const INTERNAL = /\bseed\b|Seed §|UNLICENSED|\/components\/schemas\/|~1/i;

let server: DocsServerProcess | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  if (chromiumMissingReason) return;
  if (!existsSync(`${docsDir}/index.html`))
    throw new Error('dist/docs/index.html is missing: run `npm run docs` first (npm run test:docs does).');
  mkdirSync(screenshotsDir, { recursive: true });
  server = await startDocsServerProcess();
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Opens one docs page, lets the test look at it, then checks what every page must satisfy. */
async function visit(url: string, check: (guarded: GuardedPage) => Promise<void>): Promise<void> {
  const guarded = await openGuardedPage(browser!);
  try {
    const response = await guarded.page.goto(url, { waitUntil: 'load', timeout: RENDER_TIMEOUT_MS });
    expect(response?.status(), `${url} status`).toBe(200);
    await check(guarded);
    await guarded.page.waitForLoadState('networkidle', { timeout: RENDER_TIMEOUT_MS });
    expect(guarded.blocked, `${url} requested another host`).toEqual([]);
    expect(guarded.consoleErrors, `${url} logged console errors`).toEqual([]);
    expect(guarded.requests.length, 'the page itself was requested and recorded').toBeGreaterThan(0);
  } finally {
    await guarded.close();
  }
}

/**
 * Code blocks whose text runs past their box (scrollWidth above clientWidth). Under overflow hidden that text is cut
 * off; under Redoc's overflow auto it is too, in effect: the panel's scrollbar is hidden and the copy button sits on
 * the last characters. So every sample must fit its box: long lines wrap.
 */
function clippedSamples(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('pre, pre code, code')]
      .filter((element) => (element as HTMLElement).offsetParent !== null)
      .filter((element) => element.scrollWidth > element.clientWidth + 1)
      .map(
        (element) =>
          `${element.tagName.toLowerCase()} (overflow ${getComputedStyle(element).overflowX}): ${(element.textContent ?? '').slice(0, 60)}`,
      ),
  );
}

/** Every path of every API: the code that shows one may break only after a `/`. */
const ALL_PATHS = API_NAMES.flatMap((api) => operationsOf(loadBundle(api)).map(({ path }) => path));

/** The page has an icon that needs no request (a data: URL) or one the site serves; no 404 for /favicon.ico. */
async function expectIcon(page: Page): Promise<void> {
  const href = await page
    .locator('link[rel~="icon"]')
    .first()
    .getAttribute('href', { timeout: testWaitMs(1_000) });
  expect(href, 'the page links an icon').toBeTruthy();
  if (!href!.startsWith('data:')) expect((await page.request.get(new URL(href!, page.url()).href)).status(), href!).toBe(200);
}

/** The servers panel names the partner's own base URL first, and the local mock and sandbox as local options. */
async function expectServersPartnerFirst(page: Page): Promise<void> {
  const panel = page
    .locator('[data-component-name="Panel/Panel"]')
    .filter({ hasText: /^\s*Servers/ })
    .first();
  const text = await panel.innerText({ timeout: RENDER_TIMEOUT_MS });
  expect(text).not.toMatch(/default is the local mock/i);
  const own = text.search(/your base URL: the one you were given at onboarding/);
  expect(own, `the partner's base URL is described: ${text}`).toBeGreaterThanOrEqual(0);
  expect(text.indexOf('Local option: the mock'), "the mock is a local option, after the partner's URL").toBeGreaterThan(own);
}

/**
 * An operation's first screen on a laptop: its first parameter is on it, its assumptions take one closed line, and no
 * control covers the text of a sample.
 */
async function expectLaptopScreen(page: Page, label: string, sectionId: string, assumptions: number): Promise<void> {
  const parameter = await firstParameterBox(page, sectionId);
  const height = page.viewportSize()!.height;
  expect(parameter, `${label}: a request parameter`).not.toBeNull();
  expect(parameter!.bottom, `${label}: ${parameter!.id} on the first screen (${height} px)`).toBeLessThanOrEqual(height);
  if (assumptions > 0) {
    const summary = `[id="${sectionId}"] details.lp-not-confirmed > summary`;
    await expect(page.locator(summary).innerText(), label).resolves.toBe(
      `${assumptions} ${assumptions === 1 ? 'point' : 'points'} ${NOT_CONFIRMED.replace(/^Not/, 'not')}`,
    );
    expect(await lineCount(page, summary), `${label}: the assumptions' line`).toBe(1);
  }
  expect(await controlsOnCode(page), `${label}: controls on a sample`).toEqual([]);
}

/** The first screen holds `locator`'s element entirely. */
async function onFirstScreen(page: Page, text: string): Promise<boolean> {
  const box = await page.locator('a', { hasText: text }).first().boundingBox();
  return box !== null && box.y >= 0 && box.y + box.height <= VIEWPORT_HEIGHT;
}

/** A workflow's section of the flows page: its title, one numbered item per step, each linked to its operation with its curl, and its file. */
async function expectWorkflowSection(page: Page, workflow: Workflow, bundles: ReturnType<typeof loadBundles>): Promise<void> {
  const section = page.locator(`section[id="${workflow.workflowId}"]`);
  await expect(section.locator('h2').innerText()).resolves.toBe(workflow.title);
  const items = section.locator('ol.steps > li');
  await expect(items.count()).resolves.toBe(workflow.steps.length);
  const requests = stepRequests(workflow, bundles);
  for (const [index, step] of workflow.steps.entries()) {
    const item = items.nth(index);
    const { op } = findOperation(bundles, step.operation)!;
    await expect(item.getAttribute('id')).resolves.toBe(stepAnchor(workflow, step.stepId));
    await expect(item.locator('h3 a').getAttribute('href')).resolves.toBe(`${step.operation.api}.html${operationAnchor(op)}`);
    await expect(item.locator('pre code').innerText()).resolves.toBe(curlOf(requests[index]!));
  }
  await section.scrollIntoViewIfNeeded();
  expect(await controlsOnCode(page), `${workflow.workflowId}: controls on a sample`).toEqual([]);
  // The workflow file downloads beside the specs it names.
  await expect(section.locator(`a[href="${workflowDownload(workflow)}"]`).isVisible()).resolves.toBe(true);
  const file = await page.request.get(new URL(workflowDownload(workflow), page.url()).href);
  expect(file.status(), workflowDownload(workflow)).toBe(200);
  const text = await file.text();
  expect(text).toContain(`workflowId: ${workflow.workflowId}`);
  for (const api of API_NAMES) {
    expect(text).toContain(`url: ${api}.yaml`);
    expect((await page.request.get(new URL(`specs/${api}.yaml`, page.url()).href)).status()).toBe(200);
  }
}

/**
 * Runs the curls of one workflow from the flows page in a shell, in order, each with the settings and what the steps
 * before it kept (a redirect's code from the address curl prints, a field from a JSON answer). Returns the answers.
 */
function runWorkflowCurls(workflow: Workflow, samples: Map<string, string>, settings: Record<string, string>): any[] {
  const kept: Record<string, string> = { EVENT_TIME: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), STATE: `state-${Date.now()}` };
  const requests = stepRequests(workflow);
  return workflow.steps.map((step, index) => {
    const sample = samples.get(stepAnchor(workflow, step.stepId));
    expect(sample, `${workflow.workflowId} ${step.stepId} on the page`).toBeDefined();
    const run = runShellSample(sample!, { ...settings, ...kept });
    expect(run.stderr, `${workflow.workflowId} ${step.stepId}`).toBe('');
    const request = requests[index]!;
    if (request.redirects) {
      const [status, location] = run.stdout.trim().split(' ');
      expect(status, `${step.stepId}: ${run.stdout}`).toMatch(/^3\d\d$/);
      expect(new URL(location!).searchParams.get('state')).toBe(kept.STATE);
      for (const keep of request.keeps) kept[keep.variable] = new URL(location!).searchParams.get('code')!;
      return location;
    }
    const answer = JSON.parse(run.stdout);
    expect(answer, `${workflow.workflowId} ${step.stepId}`).not.toHaveProperty('error');
    for (const keep of request.keeps) kept[keep.variable] = String(nodeAt(answer, keep.pointer));
    return answer;
  });
}

describe('partner docs in headless Chromium', () => {
  it('the landing page starts with a quick start, links every API and summarises what is not confirmed', async (ctx) => {
    if (chromiumMissingReason) ctx.skip(chromiumMissingReason);
    await visit(`${server!.url}index.html`, async ({ page }) => {
      const quickStart = page.getByRole('heading', { name: 'Quick start' });
      const box = await quickStart.boundingBox();
      expect(box && box.y + box.height <= VIEWPORT_HEIGHT, 'the quick start heading is on the first screen').toBe(true);
      for (const api of API_NAMES) {
        const title = loadBundle(api).info.title as string;
        await expect(page.getByRole('link', { name: title }).getAttribute('href')).resolves.toBe(`${api}.html`);
      }
      for (const step of ['application name', 'redirect URI', 'terms of service', 'Profile', 'approved']) {
        await expect(page.locator('#onboarding').innerText()).resolves.toContain(step);
      }
      await expect(page.locator('#expired-in').innerText()).resolves.toMatch(/expired_in[\s\S]*not[\s\S]*expires_in/);
      await expect(page.locator('#assumptions h2').innerText()).resolves.toBe(NOT_CONFIRMED);
      await expect(page.locator('ul.assumptions > li').count()).resolves.toBe(generatedAssumptionCount());
      await expect(page.locator('#support a[href^="mailto:"], #support a[href^="http"]').count()).resolves.toBeGreaterThan(0);
      expect(await page.locator('body').innerText()).not.toMatch(INTERNAL);
      expect(await clippedSamples(page)).toEqual([]);
      await expectIcon(page);
      await page.screenshot({ path: `${screenshotsDir}/index.png` });
      await page.screenshot({ path: `${screenshotsDir}/index-full.png`, fullPage: true });
      for (const size of LAPTOP_SIZES) {
        await page.setViewportSize(size);
        expect(await pathBreaksInsideWords(page, ALL_PATHS), `${sizeName(size)}: paths break only after a /`).toEqual([]);
      }
    });
  });

  it("the landing page's quick start runs as written against a sandbox (port substituted)", async (ctx) => {
    if (chromiumMissingReason) ctx.skip(chromiumMissingReason);
    let curl = '';
    let typescript = '';
    await visit(`${server!.url}index.html`, async ({ page }) => {
      curl = await page.locator('code[data-sample="curl"]').innerText();
      typescript = await page.locator('code[data-sample="typescript"]').innerText();
      await expect(page.locator('#quick-start').innerText()).resolves.toContain('npx tsx first-call.mts');
    });
    expect(curl).toContain(SANDBOX_ORIGIN);
    expect(typescript).toContain(SANDBOX_ORIGIN);
    const sandbox = await startSandbox();
    try {
      const origin = new URL(sandbox.env.LP_FLEET_BASE_URL!).origin;
      const fleet = buildVehicles(DEFAULT_VEHICLE_COUNT, buildLessees('a', 'b')).filter((v) =>
        ['C-100234', 'C-100235', 'C-100236'].includes(v.customerNumber),
      );
      const fromCurl = runShellSample(curl.replaceAll(SANDBOX_ORIGIN, origin));
      expect(fromCurl.stderr).toBe('');
      const vehicle = JSON.parse(fromCurl.stdout);
      expect(fleet).toContainEqual(vehicle);
      // Saved as the page says, first-call.mts, in a project as `npm init` makes it (CommonJS).
      const fromTypeScript = runTypeScriptSample(
        typescript.replaceAll(SANDBOX_ORIGIN, origin),
        {},
        { packageType: 'commonjs', extension: 'mts' },
      );
      expect(fromTypeScript.stderr).toBe('');
      expect(fromTypeScript.stdout.trim()).toBe(`${vehicle.vehicleNumber} ${vehicle.licensePlate} ${vehicle.vehicleType}`);
    } finally {
      await sandbox.stop();
    }
  });

  for (const api of API_NAMES) {
    it(`the ${api} page lists its operations on the first screen, and each opens from there`, async (ctx) => {
      if (chromiumMissingReason) ctx.skip(chromiumMissingReason);
      const doc = loadBundle(api);
      const { byOperation } = placeAssumptions(doc, collectAssumptions(api, doc));
      await visit(`${server!.url}${api}.html`, async ({ page }) => {
        await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: RENDER_TIMEOUT_MS });
        for (const { method, path } of operationsOf(doc)) {
          expect(await onFirstScreen(page, `${method.toUpperCase()} ${path}`), `${method} ${path} on the first screen`).toBe(true);
        }
        await expectIcon(page);
        await expectServersPartnerFirst(page);
        for (const ext of ['yaml', 'json']) {
          const download = page.locator(`a[href="specs/${api}.${ext}"]`).first();
          await expect(download.isVisible()).resolves.toBe(true);
          const response = await page.request.get(new URL(`specs/${api}.${ext}`, page.url()).href);
          expect(response.status(), `specs/${api}.${ext}`).toBe(200);
          expect(await response.text()).toContain(String(doc.info.title));
        }
        // At each laptop size, on the same page, what depends on the width; at the last one (1440, as the page opened),
        // the whole reading. The narrower size goes first, while the samples still show curl.
        for (const [index, size] of LAPTOP_SIZES.entries()) {
          const at = sizeName(size);
          await page.setViewportSize(size);
          await page.evaluate(() => window.scrollTo(0, 0));
          expect(await lineCount(page, 'h1'), `${at}: the API's title takes one or two lines`).toBeLessThanOrEqual(2);
          expect(await pathBreaksInsideWords(page, ALL_PATHS), `${at}: paths break only after a /`).toEqual([]);
          await page.screenshot({ path: `${screenshotsDir}/${api}-${at}.png` });
          let clientSamplesChosen = false;
          for (const { op, method, path } of operationsOf(doc)) {
            // From the operation list at the top, as a reader would: Redoc scrolls to the operation.
            await page
              .locator('a', { hasText: `${method.toUpperCase()} ${path}` })
              .first()
              .click({ timeout: RENDER_TIMEOUT_MS });
            // Matched on the visible text: the heading's accessible name also carries its anchor link's label.
            const heading = page.locator('h1, h2').filter({ hasText: new RegExp(`^${escapeRegExp(op.summary)}$`) });
            await heading.first().waitFor({ state: 'visible', timeout: RENDER_TIMEOUT_MS });
            const own = byOperation.get(op.operationId) ?? [];
            await expectLaptopScreen(page, `${at} ${op.operationId}`, operationAnchor(op).slice(2), own.length);
            if (index < LAPTOP_SIZES.length - 1) {
              await page.locator('a', { hasText: '← All Logistics Partner APIs' }).first().scrollIntoViewIfNeeded();
              continue;
            }
            // The notes open from their one line, and then every one is on the page with its marker.
            if (own.length > 0) await page.locator(`[id="${operationAnchor(op).slice(2)}"] details.lp-not-confirmed > summary`).click();
            const text = await page.locator('body').innerText();
            expect(text, `${op.operationId} states its authentication`).toContain('Authentication:');
            expect(text.split(`${NOT_CONFIRMED}:`).length - 1, `${op.operationId} marks its assumptions`).toBeGreaterThanOrEqual(
              own.length,
            );
            if (op.operationId !== 'requestAuthorization' && api !== 'fleet') {
              expect(text, `${op.operationId} shows the expired_in quirk`).toContain('expired_in');
            }
            expect(text).not.toMatch(INTERNAL);
            expect(await clippedSamples(page), `${op.operationId}: clipped samples (curl)`).toEqual([]);
            // The samples panel opens on curl; the published client is the other language, a page-wide choice made once.
            if (!clientSamplesChosen) {
              const panelHeader = page
                .locator('.panel-request-samples [data-component-name="Panel/PanelHeader"]')
                .filter({ visible: true })
                .first();
              await panelHeader.getByText('curl', { exact: true }).click({ timeout: RENDER_TIMEOUT_MS });
              await page.getByRole('menuitem', { name: '@logistics-partner/api' }).first().click({ timeout: RENDER_TIMEOUT_MS });
              clientSamplesChosen = true;
            }
            await page
              .getByText(/from '@logistics-partner\/api'/)
              .filter({ visible: true })
              .first()
              .waitFor({ state: 'visible', timeout: RENDER_TIMEOUT_MS });
            expect(await clippedSamples(page), `${op.operationId}: clipped samples (TypeScript)`).toEqual([]);
            expect(await controlsOnCode(page), `${op.operationId}: controls on the TypeScript sample`).toEqual([]);
            await page.screenshot({ path: `${screenshotsDir}/${api}-${op.operationId}.png` });
            await page.locator('a', { hasText: '← All Logistics Partner APIs' }).first().scrollIntoViewIfNeeded();
          }
        }
      });
    });
  }

  it('the flows page shows each workflow as numbered steps linked to their operations, each with its curl, on a laptop (1280 x 900)', async (ctx) => {
    if (chromiumMissingReason) ctx.skip(chromiumMissingReason);
    const bundles = loadBundles();
    await visit(`${server!.url}workflows.html`, async ({ page }) => {
      const [laptop] = LAPTOP_SIZES;
      await page.setViewportSize(laptop);
      for (const workflow of loadWorkflows()) await expectWorkflowSection(page, workflow, bundles);
      expect(await clippedSamples(page), 'clipped samples').toEqual([]);
      expect(await pathBreaksInsideWords(page, ALL_PATHS), 'paths break only after a /').toEqual([]);
      expect(await page.locator('body').innerText()).not.toMatch(INTERNAL);
      await expectIcon(page);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: `${screenshotsDir}/workflows-${sizeName(laptop)}.png` });
      await page.screenshot({ path: `${screenshotsDir}/workflows-full.png`, fullPage: true });
      // A step's link opens its operation on its API's page.
      const [workflow] = loadWorkflows();
      const step = workflow!.steps[0]!;
      const { op } = findOperation(bundles, step.operation)!;
      await page.locator(`[id="${stepAnchor(workflow!, step.stepId)}"] h3 a`).click();
      await page.waitForURL(`${server!.url}${step.operation.api}.html${operationAnchor(op)}`);
      const heading = page.locator('h1, h2').filter({ hasText: new RegExp(`^${escapeRegExp(op.summary)}$`) });
      await heading.first().waitFor({ state: 'visible', timeout: RENDER_TIMEOUT_MS });
    });
  });

  it("the flows page's curls run as written, step after step, against a sandbox (ports substituted by its settings)", async (ctx) => {
    if (chromiumMissingReason) ctx.skip(chromiumMissingReason);
    const samples = new Map<string, string>();
    await visit(`${server!.url}workflows.html`, async ({ page }) => {
      for (const code of await page.locator('section.workflow pre code[data-sample]').all())
        samples.set((await code.getAttribute('data-sample'))!, await code.innerText());
    });
    const sandbox = await startSandbox();
    try {
      for (const workflow of loadWorkflows()) {
        const answers = runWorkflowCurls(workflow, samples, { ...sandbox.env } as Record<string, string>);
        expect(answers.length, workflow.workflowId).toBe(workflow.steps.length);
        const last = answers.at(-1)!;
        if (workflow.steps.at(-1)!.operation.operationId === 'getVehicle') expect(last.vehicleNumber).toBe(answers[0]![0].vehicleNumber);
        else expect(last).toEqual({ message: expect.any(String) });
      }
    } finally {
      await sandbox.stop();
    }
  });

  it('the site works under a base path, as GitHub Pages serves it, and answers a missing page with 404.html', async (ctx) => {
    if (chromiumMissingReason) ctx.skip(chromiumMissingReason);
    const { server: prefixed, url } = await startDocsServer(docsDir, { basePath: '/logistics-partner-api/' });
    try {
      await visit(`${url}index.html`, async ({ page }) => {
        await page.getByRole('link', { name: String(loadBundle('fleet').info.title) }).click();
        await page.waitForURL(`${url}fleet.html`);
        const [first] = operationsOf(loadBundle('fleet'));
        await page
          .locator('a', { hasText: `${first!.method.toUpperCase()} ${first!.path}` })
          .first()
          .click();
        expect(page.url().startsWith(`${url}fleet.html#`), page.url()).toBe(true);
        await page.locator('a', { hasText: '← All Logistics Partner APIs' }).first().click();
        await page.waitForURL(`${url}index.html`);
      });
      const guarded = await openGuardedPage(browser!);
      try {
        const response = await guarded.page.goto(`${url}no-such-page.html`);
        expect(response?.status()).toBe(404);
        await expect(guarded.page.getByRole('heading', { name: 'Page not found' }).isVisible()).resolves.toBe(true);
        await expectIcon(guarded.page);
        await guarded.page.getByRole('link', { name: /start page/ }).click();
        await guarded.page.waitForURL(`${url}index.html`);
      } finally {
        await guarded.close();
      }
    } finally {
      await new Promise<void>((resolve) => (prefixed as Server).close(() => resolve()));
    }
  });

  it("the checks themselves catch a clipped sample (Redoc's panel without the wrapping style), a request to another host and a console error", async (ctx) => {
    if (chromiumMissingReason) ctx.skip(chromiumMissingReason);
    // Proves the checks above can fail: a sample forced to one line in a hidden-overflow box, an image from
    // another host and a logged error.
    const guarded = await openGuardedPage(browser!);
    try {
      await guarded.page.goto(`${server!.url}index.html`);
      await guarded.page.addStyleTag({ content: 'pre.sample { white-space: pre !important; overflow: hidden !important; width: 12rem; }' });
      const clipped = await clippedSamples(guarded.page);
      expect(clipped.length).toBeGreaterThan(0);
      expect(clipped[0]).toContain('overflow hidden');
      await guarded.page.evaluate(async () => {
        console.error('deliberate error');
        const img = document.createElement('img');
        img.src = 'https://example.com/tracker.png';
        document.body.append(img);
        await new Promise((resolve) => img.addEventListener('error', resolve, { once: true }));
      });
      expect(guarded.blocked).toEqual(['https://example.com/tracker.png']);
      expect(guarded.consoleErrors).toContain('deliberate error');
      // Redoc's own panel, without the docs' wrapping style: its long curl line runs past the box.
      const [milestone] = operationsOf(loadBundle('carriers'));
      await guarded.page.goto(`${server!.url}carriers.html`);
      await guarded.page
        .locator('a', { hasText: `${milestone!.method.toUpperCase()} ${milestone!.path}` })
        .first()
        .click();
      await guarded.page
        .getByText(/curl -sS -X POST/)
        .first()
        .waitFor({ state: 'visible', timeout: RENDER_TIMEOUT_MS });
      expect(await clippedSamples(guarded.page)).toEqual([]);
      await guarded.page.evaluate(() => document.getElementById('lp-sample-wrap')?.remove());
      expect((await clippedSamples(guarded.page)).join('\n')).toContain('ACCESS_TOKEN');
    } finally {
      await guarded.close();
    }
  });
});
