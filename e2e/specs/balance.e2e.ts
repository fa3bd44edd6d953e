import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, newPage, signIn } from '../lib/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** '€1,234.56' as the web writes cents */
const euro = (cents: number) =>
  `€${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

interface Balances {
  account_reference: string;
  data: { kind: string; balance: number; account_id: string }[];
}

describe('the balance screen', () => {
  it('the admin opens it from More, sees the Fee Account, then a merchant, as the ledger has them', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'admin@obol.example');
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await nav.getByRole('button', { name: 'More', exact: true }).click();
    await nav.getByRole('link', { name: 'View Balance', exact: true }).click();
    await page.waitForURL('**/view-balance');
    await page.getByRole('heading', { name: 'View Balance', level: 1 }).waitFor();

    const chooser = page.getByRole('combobox', { name: 'Merchant or brand' });
    for (const option of ['Fee Account', 'Acme Payouts (Merchant)']) {
      await chooser.click();
      await chooser.fill(option === 'Fee Account' ? '' : 'Acme Pay');
      const answer = page.waitForResponse((r) => r.url().endsWith('/api/holder-balances'));
      await page.getByRole('option', { name: option, exact: true }).click();
      const body = (await (await answer).json()) as Balances;
      await page.getByText(`Account id ${body.data[0].account_id}`).waitFor();
      for (const a of body.data) await page.getByText(euro(a.balance), { exact: true }).first().waitFor();
      await expect(page.getByText(body.account_reference, { exact: true }).count()).resolves.toBeGreaterThan(0);
      expect(body.data.map((a) => a.kind)).toEqual(option === 'Fee Account' ? ['fee'] : ['payout', 'payin', 'clp']);
    }
    await context.close();
  });

  it('a brand sees its own balances with no chooser', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'brand@obol.example');
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/holder-balances'));
    await page.goto('/view-balance');
    const body = (await (await answer).json()) as Balances;
    await page.getByText('Payout balance', { exact: true }).waitFor();
    await page.getByText(`Account id ${body.data[0].account_id}`).waitFor();
    await expect(page.getByRole('combobox', { name: 'Merchant or brand' }).count()).resolves.toBe(0);
    await context.close();
  });
});
