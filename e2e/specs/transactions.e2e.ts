import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, newPage, signIn } from '../lib/browser.ts';
import { downloadWhenReady, exportList } from '../lib/downloads.ts';
import { limitsOf, ReadClock } from '../../apps/server/src/features/batches/file-limits.ts';
import { readSheetRows } from '../../apps/server/src/features/batches/xlsx.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/**
 * The first cell of every row of the list's table body (the beneficiary name on the payout list); not the rows
 * of the volume chart's figures, a table for screen readers.
 */
const firstCells = (page: Page) =>
  page
    .locator('table:not([data-testid="volume-figures"]) tbody tr')
    .evaluateAll((rows) => rows.map((r) => r.querySelector('td')?.textContent ?? ''));

describe('transactions', () => {
  it('a merchant filters payouts, is told about a bad amount, and opens the details of one', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'merchant@obol.example');
    await page.goto('/payout-transactions');
    await page.getByRole('heading', { name: 'Payout Transactions' }).waitFor();
    // the demo history: this merchant's payouts (which come first depends on when the provider settled them),
    // never another merchant's
    await page.getByRole('button', { name: 'View Details' }).first().waitFor();
    await expect.poll(() => firstCells(page)).toHaveLength(10);
    await expect(page.getByRole('cell', { name: 'Globex Outlet' }).count()).resolves.toBe(0);

    await page.getByRole('button', { name: 'Toggle search filters' }).click();
    const amount = page.getByLabel('Amount (in cents)');
    await amount.fill('-5');
    await amount.press('Enter');
    await page.getByText('Amount must be 0 or more').waitFor();
    await amount.fill('');
    const name = page.getByLabel('Beneficiary Name');
    await name.fill('Ana');
    await name.press('Enter');
    // the payouts to Ana Novak (at least the merchant's own and its brand's demo payouts), and no other
    const onlyAna = (names: string[]) => names.length >= 2 && names.every((n) => n === 'Ana Novak');
    // the search goes through the URL and the server: on a loaded machine that can take more than poll's 1 s
    await expect.poll(async () => onlyAna(await firstCells(page)), { timeout: 10_000 }).toBe(true);

    await page.getByRole('button', { name: 'View Details' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Transaction Details' });
    await dialog.waitFor();
    await dialog.getByText('Ana Novak', { exact: true }).waitFor();
    await dialog.getByText('Acme Brand', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // closing the panel clears the filters and shows every row again
    await page.getByRole('button', { name: 'Toggle search filters' }).click();
    await expect.poll(() => firstCells(page)).toHaveLength(10);
    await context.close();
  });

  it('pages forward with the cursor of the page shown and back again, each row once', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'merchant@obol.example');
    const asked: Record<string, unknown>[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/payout-transactions') && r.method() === 'POST') asked.push(r.postDataJSON());
    });
    const totals: number[] = [];
    page.on('response', async (r) => {
      if (r.url().endsWith('/api/payout-transactions') && r.ok()) totals.push((await r.json()).transactions.total);
    });
    await page.goto('/payout-transactions');
    await page.getByRole('button', { name: 'View Details' }).first().waitFor();
    const rowTexts = () =>
      page
        .locator('table:not([data-testid="volume-figures"]) tbody tr')
        .evaluateAll((rows) => rows.map((r) => r.textContent ?? ''));
    await expect.poll(rowTexts).toHaveLength(10);
    const first = await rowTexts();
    // the demo gives this merchant 16 payouts (its own and its brand's), more once other journeys paid some:
    // the list's total says how many the second page holds
    const total = totals.at(-1)!;
    expect(total).toBeGreaterThanOrEqual(16);
    expect(total).toBeLessThanOrEqual(20);
    await page.getByRole('button', { name: 'Go to next page' }).click();
    await expect.poll(rowTexts).toHaveLength(total - 10);
    const second = await rowTexts();
    expect(new Set([...first, ...second]).size).toBe(total);
    // the step forward sent the cursor of the page shown (not an offset)
    expect(asked.at(-1)?.cursor).toMatch(/^.{8,}$/);
    // back to page 1 (read from its start: a step back to page 2 or later would send prev_cursor)
    await page.getByRole('button', { name: 'Go to previous page' }).click();
    await expect.poll(rowTexts).toEqual(first);
    await page.getByRole('button', { name: 'Go to next page' }).waitFor();
    await expect(page.getByRole('button', { name: 'Go to previous page' }).isDisabled()).resolves.toBe(true);
    await context.close();
  });

  /** A merchant exports the payout list through `item` of its Export menu and downloads the file when ready. */
  async function exportPayouts(page: Page, item: string, file: RegExp) {
    await signIn(page, 'merchant@obol.example');
    await page.goto('/payout-transactions');
    await page.getByRole('button', { name: 'View Details' }).first().waitFor();
    const note = await exportList(page, item);
    await note.getByRole('button', { name: 'See Downloads' }).click();
    await page.waitForURL('**/download-transactions');
    await page.getByRole('heading', { name: 'Download Transactions' }).waitFor();
    // the newest file comes first; it turns Completed by itself and then downloads
    return downloadWhenReady(page, file);
  }

  it('exports the payouts in the background and downloads the file from the download list', async () => {
    const { context, page } = await newPage(browser);
    const download = await exportPayouts(page, 'Export as CSV', /^payout-transactions-.*\.csv/);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const file = await download.path();
    const csv = readFileSync(file, 'utf8');
    const [header, ...lines] = csv.trim().split(/\r?\n/);
    expect(header).toContain('Beneficiary Name');
    expect(lines.length).toBeGreaterThanOrEqual(10);
    expect(csv).toContain('Ana Novak');
    // another merchant's payouts are not in it
    expect(csv).not.toContain('Globex Outlet');
    await context.close();
  });

  it("exports the payouts as XLSX: a workbook the spreadsheet reader opens, with this merchant's rows only", async () => {
    const { context, page } = await newPage(browser);
    const download = await exportPayouts(page, 'Export as Excel (XLSX)', /^payout-transactions-.*\.xlsx/);
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    // read as an uploaded workbook is: by its zip's central directory, every part's size checked
    const rows: string[][] = [];
    for await (const r of readSheetRows(await download.path(), limitsOf(), new ReadClock(60_000)))
      rows.push([...r.cells.entries()].sort(([a], [b]) => a - b).map(([, v]) => v));
    expect(rows[0]).toContain('Beneficiary Name');
    expect(rows.length).toBeGreaterThanOrEqual(11);
    const texts = rows.flat();
    expect(texts).toContain('Ana Novak');
    expect(texts).not.toContain('Globex Outlet');
    await context.close();
  });

  it('follows a batch from the batch list into its history', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'merchant@obol.example');
    await page.goto('/batch-transactions');
    await page.getByRole('tab', { name: 'Batches' }).waitFor();
    await page.getByLabel('Search', { exact: true }).fill('DEMO_1002');
    const row = page.locator('tbody tr').filter({ hasText: 'manual_DEMO_1002' });
    await row.waitFor();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await row.getByRole('button', { name: 'Export Batch' }).click();
    await page.waitForURL('**/transactions-history');
    await page.getByRole('heading', { name: 'Transaction History' }).waitFor();
    await page.getByText('manual_DEMO_1002').first().waitFor();
    // the one payout of that batch (the second demo payout: Ben Berg, €19.85)
    await page.getByRole('cell', { name: 'Ben Berg' }).waitFor();
    await page.getByRole('cell', { name: '€19.85' }).waitFor();
    await page.getByRole('button', { name: 'View Details' }).click();
    const dialog = page.getByRole('dialog', { name: 'Transaction Details' });
    await dialog.getByText('DEMO-1002', { exact: true }).waitFor();
    await dialog.getByText('Reason', { exact: true }).waitFor();
    await context.close();
  });
});
