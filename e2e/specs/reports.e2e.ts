import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, newPage, signIn } from '../lib/browser.ts';
import { backgroundNote, downloadWhenReady } from '../lib/downloads.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('reports', () => {
  it('a merchant pulls its activity report, follows it to Download Reports and downloads it', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'merchant@obol.example');
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('button', { name: 'Reports', exact: true })
      .click();
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Generate Reports' }).click();
    await page.getByRole('heading', { name: 'Generate the following reports', level: 1 }).waitFor();
    const card = page.getByRole('region', { name: /Merchant activity/ });
    const pull = card.getByRole('button', { name: 'Pull Report' });
    expect(await pull.isDisabled()).toBe(true);
    await card.getByLabel('Merchant or brand').click();
    await page.getByRole('option', { name: 'Acme Payouts (Merchant)' }).click();
    const today = await page.evaluate(() => {
      const d = new Date();
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    });
    await card.getByLabel('Start Date', { exact: true }).fill(today);
    await expect.poll(() => pull.isEnabled()).toBe(true);
    await pull.click();
    const note = backgroundNote(page);
    await note.waitFor();
    await note.getByRole('button', { name: 'See Downloads' }).click();
    await page.waitForURL('**/download-reports');
    await page.getByRole('heading', { name: 'Download Reports' }).waitFor();
    const download = await downloadWhenReady(page, /^merchant-activity-report-.*\.csv/);
    const csv = readFileSync(await download.path(), 'utf8');
    const [header, ...lines] = csv.trim().split(/\r?\n/);
    expect(header).toContain('Balance After (EUR)');
    // the demo funds and payouts of the merchant and its brand, nobody else's
    expect(lines.length).toBeGreaterThan(0);
    expect(csv).toContain('Acme Payouts');
    expect(csv).not.toContain('Globex');
    await context.close();
  });

  it('a merchant issues its invoice for this month and downloads the PDF', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'merchant@obol.example');
    await page.goto('/generate-reports');
    const card = page.getByRole('region', { name: /Invoices/ });
    if (!(await card.isVisible())) await page.getByRole('heading', { name: 'Invoices', exact: true }).click();
    await card.getByLabel('Merchant').click();
    await page.getByRole('option', { name: 'Acme Payouts (Merchant)' }).click();
    const month = await page.evaluate(() => new Date().toISOString().slice(0, 7));
    await card.getByLabel('Month').fill(month);
    await card.getByRole('button', { name: 'Pull Report' }).click();
    const note = page.getByRole('status').filter({ hasText: /Invoice OBL-\d{4}-\d{6}/ });
    await note.waitFor();
    const number = /OBL-\d{4}-\d{6}/.exec((await note.textContent())!)![0];
    await note.getByRole('button', { name: 'See Downloads' }).click();
    await page.waitForURL('**/download-reports');
    const download = await downloadWhenReady(page, `invoice-${number}`);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    expect(
      readFileSync(await download.path())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    await context.close();
  });
});
