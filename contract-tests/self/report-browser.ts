// report.html as a partner sees it, in Debian's Chromium (playwright-core, as the docs' browser test): the verdict is
// the first thing on the first screen, each violation comes with its curl, the coverage is a grid with one row per
// operation, nothing leaves the page (only file: and data: are let through), nothing logs an error, and it reads
// without JavaScript too. The first screen is saved beside the report (report-first-screen.png) for a person to look at.
// Also the check that no configured credential is in the file, in any common spelling.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { testWaitMs } from '../../config/test-waits.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH, chromiumMissingReason } from '../../tools/chromium.ts';
import { escapeHtml } from '../report/views/html.ts';

/** Why the browser check cannot run here (no Chromium), or undefined: give it to skipIf. */
export const browserMissingReason = chromiumMissingReason;

/** The first screen the report is judged on (and the screenshot's size). */
export const FIRST_SCREEN = { width: 1280, height: 900 } as const;

/** The spellings a credential could take in a page: as is, URL-encoded, base64 (standard and URL-safe), HTML-escaped. */
export function spellingsOf(secret: string): string[] {
  const base64 = Buffer.from(secret).toString('base64');
  return [
    ...new Set([
      secret,
      encodeURIComponent(secret),
      new URLSearchParams({ s: secret }).toString().slice(2),
      base64,
      base64.replace(/=+$/, ''),
      Buffer.from(secret).toString('base64url'),
      escapeHtml(secret),
    ]),
  ];
}

/** Fails when any of the secrets (values under 4 characters are ignored, as the redactor does) is in the text. */
export function expectNoSecrets(text: string, secrets: Iterable<string | undefined>): void {
  for (const secret of secrets) {
    if (!secret || secret.length < 4) continue;
    // The message says which spelling, never the value.
    for (const spelling of spellingsOf(secret))
      expect(text.includes(spelling), `a configured secret (${spelling === secret ? 'as is' : 'encoded'}) is in report.html`).toBe(false);
  }
}

interface Opened {
  page: Page;
  /** Requests other than file: and data:, aborted. */
  blocked: string[];
  consoleErrors: string[];
  close(): Promise<void>;
}

async function open(browser: Browser, file: string, javaScriptEnabled: boolean): Promise<Opened> {
  const context = await browser.newContext({ viewport: FIRST_SCREEN, javaScriptEnabled });
  // Every wait of the page (goto, a locator): Playwright's 30 s, times the slowdown.
  context.setDefaultTimeout(testWaitMs(30_000));
  const page = await context.newPage();
  const blocked: string[] = [];
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
  await page.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith('file:') || url.startsWith('data:')) return route.continue();
    blocked.push(url);
    return route.abort('blockedbyclient');
  });
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  return { page, blocked, consoleErrors, close: () => context.close() };
}

/** What the page shows where it matters, read in the page. */
interface Layout {
  verdict: { top: number; bottom: number; text: string; wordSize: number } | undefined;
  /** Visible elements outside the verdict that start above it. */
  above: string[];
  violations: number;
  curls: string[];
  gridRows: string[];
  gridKind: string | undefined;
  /** Document order of the sections. */
  sections: string[];
}

const readLayout = (page: Page): Promise<Layout> =>
  page.evaluate(() => {
    const verdict = document.querySelector('#verdict');
    const box = verdict?.getBoundingClientRect();
    const above: string[] = [];
    if (verdict && box)
      for (const element of document.body.querySelectorAll('*')) {
        if (element.contains(verdict) || verdict.contains(element)) continue;
        const rect = element.getBoundingClientRect();
        if (rect.width > 0 && rect.height > 0 && rect.top < box.top - 0.5) above.push(element.outerHTML.slice(0, 120));
      }
    const word = verdict?.querySelector('.word');
    const grid = document.querySelector('#coverage-grid');
    return {
      verdict:
        verdict && box
          ? {
              top: box.top,
              bottom: box.bottom,
              text: (verdict as HTMLElement).innerText,
              wordSize: word ? Number.parseFloat(getComputedStyle(word).fontSize) : 0,
            }
          : undefined,
      above,
      violations: document.querySelectorAll('#violations article.violation').length,
      curls: [...document.querySelectorAll('#violations article.violation pre.curl')]
        .filter((pre) => (pre as HTMLElement).offsetHeight > 0)
        .map((pre) => pre.textContent ?? ''),
      gridRows: [...(grid?.querySelectorAll('tbody tr[data-operation]') ?? [])].map((row) => row.getAttribute('data-operation') ?? ''),
      gridKind: grid?.tagName.toLowerCase(),
      sections: [...document.querySelectorAll('main > section[id], main > header[id]')].map((s) => s.id),
    };
  });

export interface BrowserCheckOptions {
  /** Configured secret values that must not be in the file in any spelling (the run's SECRET_VARIABLES values). */
  secrets?: Iterable<string | undefined>;
  /** The run's operations, when known (report.json's coverage rows): the grid must have exactly one row for each. */
  operationIds?: string[];
  /** At least this many violations must be shown, each with its curl (default 1: the leak run's report). */
  minViolations?: number;
}

/**
 * Opens report.html in Chromium at 1280×900 and asserts what a partner must see; saves the first screen as
 * report-first-screen.png beside it and returns that path. Skip the test with `browserMissingReason` first.
 */
export async function checkReportInBrowser(file: string, options: BrowserCheckOptions = {}): Promise<string> {
  const source = readFileSync(file, 'utf8');
  expectNoSecrets(source, options.secrets ?? []);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const opened = await open(browser, file, true);
    const { page } = opened;
    const layout = await readLayout(page);
    // The verdict first: inside the first screen, nothing above it, its word big.
    expect(layout.verdict, 'report.html has no #verdict').toBeDefined();
    expect(layout.verdict!.top).toBeGreaterThanOrEqual(0);
    expect(layout.verdict!.bottom).toBeLessThanOrEqual(FIRST_SCREEN.height);
    expect(layout.above, 'something is shown above the verdict').toEqual([]);
    expect(layout.verdict!.text).toMatch(/^(PASS|FAIL|COULD NOT JUDGE)\b/);
    expect(layout.verdict!.wordSize).toBeGreaterThanOrEqual(32);
    expect(layout.sections.slice(0, 4)).toEqual(['verdict', 'violations', 'contradicted', 'unjudged']);
    // The violations, each with a curl to paste.
    const minViolations = options.minViolations ?? 1;
    expect(layout.violations).toBeGreaterThanOrEqual(minViolations);
    if (minViolations > 0) {
      expect(layout.curls.length).toBeGreaterThanOrEqual(1);
      for (const curl of layout.curls) expect(curl).toMatch(/^curl /);
    }
    // The coverage as a grid: one row per operation.
    expect(['table', 'svg']).toContain(layout.gridKind);
    expect(layout.gridRows.length).toBeGreaterThan(0);
    expect(new Set(layout.gridRows).size, 'an operation has more than one row').toBe(layout.gridRows.length);
    if (options.operationIds) expect([...layout.gridRows].sort()).toEqual([...new Set(options.operationIds)].sort());
    // Offline and clean.
    expect(opened.blocked, 'report.html made a request to the outside').toEqual([]);
    expect(opened.consoleErrors).toEqual([]);
    const screenshot = join(dirname(file), 'report-first-screen.png');
    await page.screenshot({ path: screenshot });
    await opened.close();

    // Without JavaScript the page reads the same: the verdict first, the violations and their curls there.
    const plain = await open(browser, file, false);
    const still = await readLayout(plain.page);
    expect(still.verdict?.text).toBe(layout.verdict!.text);
    expect(still.above).toEqual([]);
    expect(still.curls).toEqual(layout.curls);
    expect(plain.blocked).toEqual([]);
    await plain.close();
    return screenshot;
  } finally {
    await browser.close();
  }
}
