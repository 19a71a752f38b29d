// Measurements of a docs page in the browser, for the laptop checks of docs-pages.test.ts: how many lines a heading
// takes, where a path breaks, whether an operation's first parameter is on its first screen, and whether a control
// sits on the text of a code sample. Each runs in the page (one evaluate) and returns plain data.
import type { Page } from 'playwright-core';

/** The laptop screens the docs are checked at, the narrower first. */
export const LAPTOP_SIZES = [
  { width: 1280, height: 900 },
  { width: 1440, height: 900 },
] as const;

export const sizeName = ({ width, height }: { width: number; height: number }) => `${width}x${height}`;

/** The number of lines the text of the first element matching `selector` takes (distinct tops of its text's boxes). */
export function lineCount(page: Page, selector: string): Promise<number> {
  return page.evaluate((selector) => {
    const element = document.querySelector(selector);
    if (!element) throw new Error(`no ${selector} on the page`);
    const tops: number[] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) {
        if (rect.width > 0 && !tops.some((top) => Math.abs(top - rect.top) < rect.height / 2)) tops.push(rect.top);
      }
    }
    return tops.length;
  }, selector);
}

/**
 * Every place where the code showing one of `paths` (inline code, not a sample) breaks onto a new line somewhere else
 * than after a `/` or at a space: `/vehicles/{ve|hicleNumber}`. The line of each character is read from its box.
 */
export function pathBreaksInsideWords(page: Page, paths: string[]): Promise<string[]> {
  return page.evaluate((paths) => {
    const bad: string[] = [];
    const range = document.createRange();
    for (const code of document.querySelectorAll('code')) {
      const text = code.textContent ?? '';
      if (code.closest('pre') || (code as HTMLElement).offsetParent === null || !paths.some((path) => text.includes(path))) continue;
      let previousTop: number | undefined;
      let previousChar = '';
      let offset = 0;
      const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const value = node.textContent ?? '';
        for (let i = 0; i < value.length; i++, offset++) {
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const rect = range.getClientRects()[0];
          if (!rect || value[i] === ' ') {
            previousChar = value[i]!;
            continue;
          }
          if (previousTop !== undefined && rect.top > previousTop + rect.height / 2 && previousChar !== '/' && previousChar !== ' ') {
            bad.push(`${text.slice(0, offset)}|${text.slice(offset)}`);
          }
          previousTop = rect.top;
          previousChar = value[i]!;
        }
      }
    }
    return bad;
  }, paths);
}

/** Where an operation's first request parameter is once its section is scrolled to the top of the window. */
export function firstParameterBox(page: Page, sectionId: string): Promise<{ top: number; bottom: number; id: string } | null> {
  return page.evaluate(async (sectionId) => {
    const section = document.getElementById(sectionId);
    if (!section) throw new Error(`no section ${sectionId}`);
    section.scrollIntoView({ block: 'start' });
    await new Promise(requestAnimationFrame);
    // Redoc gives each parameter and request body field an id: <section>/t=request&in=query&path=<name>, ...
    const parameter = document.querySelector(`[id^="${CSS.escape(sectionId)}/t=request"]`);
    const name = parameter?.querySelector('.schema-name') ?? parameter;
    if (!parameter || !name) return null;
    const box = name.getBoundingClientRect();
    return { top: box.top, bottom: box.bottom, id: parameter.id };
  }, sectionId);
}

/**
 * Controls (buttons) in the window that sit on the text of a code sample: each as the button's label and the start of
 * the line it covers. A line's text is measured from its characters' boxes, not from the sample's box.
 */
export function controlsOnCode(page: Page): Promise<string[]> {
  // No named functions inside: the page runs this as it is, without the helpers a build may wrap them in.
  return page.evaluate(() => {
    const inWindow = [...document.querySelectorAll('button, pre')].filter((element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && box.bottom > 0 && box.top < innerHeight;
    });
    const buttons = inWindow.filter((element) => element.tagName === 'BUTTON').map((b) => [b, b.getBoundingClientRect()] as const);
    const found: string[] = [];
    const range = document.createRange();
    for (const pre of inWindow.filter((element) => element.tagName === 'PRE')) {
      const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const value = node.textContent ?? '';
        for (let i = 0; i < value.length; i++) {
          if (/\s/.test(value[i]!)) continue;
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const rect = range.getClientRects()[0];
          if (!rect || rect.bottom <= 0 || rect.top >= innerHeight) continue;
          const button = buttons.find(
            ([, b]) => b.left < rect.right && rect.left < b.right && b.top < rect.bottom && rect.top < b.bottom,
          )?.[0];
          if (button) {
            found.push(`${button.getAttribute('aria-label') ?? button.textContent}: on "${value.slice(Math.max(0, i - 20), i + 5)}"`);
            break;
          }
        }
      }
    }
    return found;
  });
}
