import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFromMail, launch, newPage, signIn } from '../lib/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('live screens', () => {
  it('a payout list open in one tab shows a payout made in another, and turns it Completed, without a reload', async () => {
    const { context, page: list } = await newPage(browser, { width: 1366, height: 900 });
    await signIn(list, 'merchant@obol.example');
    await list.goto('/payout-transactions');
    await list.getByRole('heading', { name: 'Payout Transactions', level: 1 }).waitFor();
    // a mark on the document: a reload or a navigation would lose it
    await list.evaluate(() => ((window as unknown as { obolMark: number }).obolMark = 1));

    // the same merchant makes a manual payout in a second tab
    const pay = await context.newPage();
    await pay.goto('/payments');
    await pay.getByText('Manual Payout', { exact: true }).click();
    const next = pay.getByRole('button', { name: 'Next' });
    await expect.poll(() => next.isEnabled()).toBe(true);
    await next.click();
    await pay.getByRole('radio').first().check();
    await expect.poll(() => next.isEnabled()).toBe(true);
    await next.click();
    const id = `LIVE-${Date.now()}`;
    await pay.getByLabel('Beneficiary name').fill('Ana Novak');
    await pay.getByLabel('Brand').click();
    await pay.getByRole('option', { name: 'Acme Brand' }).click();
    await pay.getByLabel('Merchant transaction id').fill(id);
    await pay.getByLabel('Obol ID').fill('100000001');
    await pay.getByLabel('Reference').fill(id);
    await pay.getByLabel('Amount (cents)').fill('1234');
    const since = Date.now();
    await pay.getByRole('button', { name: 'Create Payout' }).click();
    await pay.getByLabel('Verification code', { exact: true }).fill(await codeFromMail('merchant@obol.example', since));
    await pay.getByRole('button', { name: 'Submit' }).click();
    await pay.waitForURL('**/recent-batches');

    // the open list shows it, then Completed once the provider settles it: no reload, the mark is still there
    const row = list.getByRole('row').filter({ hasText: id });
    await row.waitFor({ timeout: 15_000 });
    await row.getByText('Completed', { exact: true }).waitFor({ timeout: 15_000 });
    expect(await list.evaluate(() => (window as unknown as { obolMark?: number }).obolMark)).toBe(1);
    await context.close();
  });
});
