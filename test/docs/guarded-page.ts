// A Chromium page that lets requests reach loopback only: every other request is aborted and counted,
// and console errors and uncaught page errors are collected, so that a test can assert all three are empty.
import type { Browser, Page } from 'playwright-core';
import { testWaitMs } from '../../config/test-waits.ts';

// The Chromium constants live in tools/ (the contract suite's report test launches the same browser).
export { CHROMIUM_ARGS, CHROMIUM_PATH, chromiumMissingReason } from '../../tools/chromium.ts';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** data: and blob: URLs stay inside the page; http(s) must go to a loopback host. */
export function isLocalUrl(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  if (protocol === 'data:' || protocol === 'blob:' || protocol === 'about:') return true;
  return (protocol === 'http:' || protocol === 'https:') && LOOPBACK_HOSTS.has(hostname);
}

export interface GuardedPage {
  page: Page;
  /** Every request the page made, in order. */
  requests: string[];
  /** Requests to another host, aborted before they left the machine. */
  blocked: string[];
  consoleErrors: string[];
  close(): Promise<void>;
}

export async function openGuardedPage(browser: Browser): Promise<GuardedPage> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  // Every wait of the page without a timeout of its own (goto, waitForURL, a click): Playwright's 30 s, times the slowdown.
  context.setDefaultTimeout(testWaitMs(30_000));
  const page = await context.newPage();
  const requests: string[] = [];
  const blocked: string[] = [];
  const consoleErrors: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
  await page.route('**/*', async (route) => {
    const url = route.request().url();
    if (isLocalUrl(url)) return route.continue();
    blocked.push(url);
    return route.abort('blockedbyclient');
  });
  return { page, requests, blocked, consoleErrors, close: () => context.close() };
}
