import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_ROLE_PERMISSIONS, ROUTE_PERMISSIONS, type GuardedPath, type RoleName } from '@obol/contract';
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

/** with TABLES_SCREENS=dir every list is also photographed at 1366 and 390 px, light and dark (not committed) */
const SCREENS = process.env.TABLES_SCREENS;

/** A list screen: its path, and how to reach the list when it is not the first thing on it (a tab, a row's link). */
interface List {
  name: string;
  path: GuardedPath;
  url?: string;
  open?: (page: Page) => Promise<void>;
}

const LISTS: List[] = [
  { name: 'payin', path: '/payin' },
  { name: 'cardeye', path: '/cardeye' },
  { name: 'refund', path: '/refund' },
  { name: 'payin-rewards', path: '/payin-rewards' },
  { name: 'merchants', path: '/merchants' },
  { name: 'brands', path: '/brands' },
  { name: 'users', path: '/users' },
  { name: 'users-by-role', path: '/roles-permissions/:role', url: '/roles-permissions/Merchant' },
  { name: 'api-keys', path: '/api-keys' },
  { name: 'fee-module', path: '/fee-module' },
  { name: 'payout-transactions', path: '/payout-transactions' },
  { name: 'batches', path: '/batch-transactions' },
  {
    name: 'completed-transactions',
    path: '/batch-transactions',
    open: async (page) => {
      await page.getByRole('tab', { name: /completed transactions/i }).click();
    },
  },
  {
    name: 'transaction-history',
    path: '/transactions-history',
    url: '/batch-transactions',
    open: async (page) => {
      const completed = page.getByRole('row').filter({ hasText: /completed/i });
      await completed
        .first()
        .getByRole('button', { name: /export batch/i })
        .click();
      await page.waitForURL('**/transactions-history');
    },
  },
  { name: 'recent-batches', path: '/recent-batches' },
  { name: 'download-transactions', path: '/download-transactions' },
  { name: 'download-reports', path: '/download-reports' },
  { name: 'transfer-transactions', path: '/transfer-transactions' },
  { name: 'approvals', path: '/approvals' },
  { name: 'activity-logs', path: '/activity-logs' },
  { name: 'companies', path: '/companies' },
  { name: 'accounting-rules', path: '/accounting-rules' },
  { name: 'accounting-transactions', path: '/accounting-transactions' },
  { name: 'download-accounting-transactions', path: '/download-accounting-transactions' },
  { name: 'accounting-approvals', path: '/accounting-approvals' },
];

/**
 * The roles with demo data, how many of their lists at least have rows, and the lists whose every table must have
 * rows (the demo seed's pay-ins, refund, rewards, approval, exports and webhook endpoint): their fit is measured,
 * not estimated from an empty table.
 */
const ROLES_WITH_DATA: { role: RoleName; email: string; listsWithRows: number; filled: string[] }[] = [
  {
    role: 'Admin',
    email: 'admin@obol.example',
    listsWithRows: 15,
    filled: ['payin', 'cardeye', 'refund', 'payin-rewards', 'approvals'],
  },
  {
    role: 'Merchant',
    email: 'merchant@obol.example',
    listsWithRows: 12,
    // api-keys: the keys and the Webhooks panel's endpoints
    filled: ['payin', 'cardeye', 'refund', 'payin-rewards', 'download-transactions', 'download-reports', 'api-keys'],
  },
  { role: 'Brand', email: 'brand@obol.example', listsWithRows: 5, filled: ['payin'] },
  { role: '2D Admin', email: '2d-admin@obol.example', listsWithRows: 3, filled: [] },
];

/** What the table(s) of a list screen look like at the current width (measured in the page). */
interface Fit {
  tables: number;
  rows: number;
  /** the data rows of each table */
  rowsPerTable: number[];
  /** how far each table is wider than its card */
  overflow: number[];
  /** "row n: sticky cell over <column>" */
  overlaps: string[];
  /** single words (ids, e-mails, file names) broken over two or more lines */
  broken: string[];
  /** a row with a one-line value (OneLine) that is taller than one line of text */
  tallRows: string[];
  /** the empty state's distance from the visible card's centre */
  emptyOffset: number | null;
}

/** Measures every list table in the main area. */
function measure(page: Page): Promise<Fit> {
  return page.evaluate(() => {
    const fit: Fit = {
      tables: 0,
      rows: 0,
      rowsPerTable: [],
      overflow: [],
      overlaps: [],
      broken: [],
      tallRows: [],
      emptyOffset: null,
    };
    const containers = Array.from(document.querySelectorAll<HTMLElement>('main .MuiTableContainer-root')).filter(
      (c) => c.offsetParent !== null,
    );
    for (const box of containers) {
      fit.tables++;
      fit.rowsPerTable.push(0);
      fit.overflow.push(box.scrollWidth - box.clientWidth);
      const heads = Array.from(box.querySelectorAll('thead th')).map((th) => th.textContent ?? '');
      const boxRect = box.getBoundingClientRect();
      for (const [n, tr] of Array.from(box.querySelectorAll<HTMLTableRowElement>('tbody tr')).entries()) {
        const cells = Array.from(tr.cells);
        if (cells.length === 1 && cells[0].colSpan > 1) {
          // the loading / empty row: its text centred in the visible part of the card
          const inner = cells[0].firstElementChild ?? cells[0];
          const r = inner.getBoundingClientRect();
          fit.emptyOffset = Math.abs(r.left + r.width / 2 - (boxRect.left + boxRect.width / 2));
          continue;
        }
        fit.rows++;
        fit.rowsPerTable[fit.rowsPerTable.length - 1]++;
        const sticky = cells.filter((c) => getComputedStyle(c).position === 'sticky');
        for (const s of sticky) {
          const sr = s.getBoundingClientRect();
          for (const [i, c] of cells.entries()) {
            if (sticky.includes(c)) continue;
            const cr = c.getBoundingClientRect();
            if (cr.right > sr.left + 1 && cr.left < sr.right - 1) fit.overlaps.push(`row ${n}: over ${heads[i]}`);
          }
        }
        const lineHeight = (el: Element) => parseFloat(getComputedStyle(el).lineHeight) || 20;
        // every single word of 6+ characters (an id, an e-mail, a file name) stays on one line
        for (const [i, c] of cells.entries()) {
          const walker = document.createTreeWalker(c, NodeFilter.SHOW_TEXT);
          for (let t = walker.nextNode(); t; t = walker.nextNode()) {
            const text = t.textContent ?? '';
            if (!/^\S{6,}$/.test(text.trim())) continue;
            const range = document.createRange();
            range.selectNodeContents(t);
            const tops = new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top)));
            if (tops.size > 1) fit.broken.push(`${heads[i]}: ${text.trim()}`);
          }
        }
        // a row with an id / e-mail (one line, cut with an ellipsis) is one line tall
        const oneLine = tr.querySelector<HTMLElement>('td [title]');
        if (oneLine && getComputedStyle(oneLine).textOverflow === 'ellipsis') {
          const lh = lineHeight(oneLine);
          if (oneLine.getBoundingClientRect().height > lh * 1.5)
            fit.broken.push(`one-line value wraps: ${oneLine.title}`);
          // no cell wraps past two lines (a status over its count may take two; a name of three words broke in three)
          const limit = lh * 2 + 26;
          const h = tr.getBoundingClientRect().height;
          if (h > limit) fit.tallRows.push(`row ${n}: ${Math.round(h)} px`);
        }
      }
    }
    return fit;
  });
}

/** Waits for the list to show its rows (or its empty state) with nothing loading. */
async function listReady(page: Page) {
  await page
    .locator('main table tbody tr, main [data-row-card], main [data-empty-state]')
    .first()
    .waitFor({ timeout: 15_000 });
  await page
    .locator('main [aria-label="Loading"]')
    .first()
    .waitFor({ state: 'detached', timeout: 15_000 })
    .catch(() => undefined);
  await settle(page);
}

async function shoot(page: Page, role: string, list: string, width: number) {
  if (!SCREENS) return;
  mkdirSync(SCREENS, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForTimeout(150);
    const file = path.join(SCREENS, `${role.replace(/\s+/g, '-').toLowerCase()}-${list}-${width}-${scheme}.png`);
    await page.screenshot({ path: file, fullPage: false });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('every list fits 1366 px with its default columns, and is cards at 390 px', () => {
  for (const who of ROLES_WITH_DATA) {
    const perms = DEFAULT_ROLE_PERMISSIONS[who.role] as readonly string[];
    const lists = LISTS.filter((l) => perms.includes(ROUTE_PERMISSIONS[l.path]));

    it(`${who.role}: ${lists.map((l) => l.name).join(', ')}`, async () => {
      const { context, page } = await newPage(browser, { width: 1366, height: 900 });
      await signIn(page, who.email);
      const problems: string[] = [];
      let withRows = 0;
      for (const list of lists) {
        await page.setViewportSize({ width: 1366, height: 900 });
        await page.goto(list.url ?? list.path);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        if (list.open) {
          await listReady(page);
          await list.open(page);
        }
        await listReady(page);
        const fit = await measure(page);
        const at = `${who.role} ${list.name}`;
        if (!fit.tables) problems.push(`${at}: no table`);
        if (who.filled.includes(list.name) && fit.rowsPerTable.some((n) => n === 0))
          problems.push(`${at}: a table without rows (${fit.rowsPerTable.join(', ')})`);
        for (const o of fit.overflow) if (o > 0) problems.push(`${at}: ${o} px wider than its card`);
        for (const o of fit.overlaps) problems.push(`${at}: action column ${o}`);
        for (const b of fit.broken) problems.push(`${at}: broken ${b}`);
        for (const t of fit.tallRows) problems.push(`${at}: ${t} tall`);
        if (fit.emptyOffset !== null && fit.emptyOffset > 24)
          problems.push(`${at}: empty state ${Math.round(fit.emptyOffset)} px off the card's centre`);
        if (fit.rows) withRows++;
        await shoot(page, who.role, list.name, 1366);

        // a phone: the rows as cards, nothing wider than the screen
        await page.setViewportSize({ width: 390, height: 844 });
        await page
          .locator('main [data-row-card], main [data-empty-state]')
          .first()
          .waitFor({ timeout: 10_000 })
          .catch(() => problems.push(`${at} @390: no cards`));
        await settle(page);
        const phone = await page.evaluate(() => ({
          // the list's table (a scrollable region), not a small summary table beside it
          tables: Array.from(document.querySelectorAll('main [role=region] table tbody tr')).filter(
            (t) => (t as HTMLElement).offsetParent,
          ).length,
          wide: document.documentElement.scrollWidth - window.innerWidth,
        }));
        if (phone.tables) problems.push(`${at} @390: still a table`);
        if (phone.wide > 0) problems.push(`${at} @390: page ${phone.wide} px wider than the screen`);
        await shoot(page, who.role, list.name, 390);
      }
      await context.close();
      if (problems.length) console.log(problems.join('\n'));
      expect(problems).toEqual([]);
      // the demo data fills most lists (2D: companies, rules, transactions): the checks above measured real rows
      expect(withRows).toBeGreaterThanOrEqual(who.listsWithRows);
    }, 300_000);
  }
});
