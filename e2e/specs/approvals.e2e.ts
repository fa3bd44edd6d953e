import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFromMail, launch, newPage, signIn, rowMenuItem } from '../lib/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** The Admin sets Acme Payouts' four-eyes threshold on its edit dialog. */
async function setThreshold(page: Page, cents: string) {
  await page.goto('/merchants');
  await (await rowMenuItem(page, page.getByRole('row').filter({ hasText: 'Acme Payouts' }), 'Edit')).click();
  const dialog = page.getByRole('dialog', { name: /^Edit merchant: Acme Payouts/ });
  const field = dialog.getByLabel('Approval threshold (cents)');
  await expect.poll(() => field.isEnabled()).toBe(true);
  await field.fill(cents);
  await dialog.getByRole('button', { name: 'Save threshold' }).click();
  await page.getByText('Approval threshold saved.').first().waitFor();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
}

describe('four eyes on large payouts', () => {
  it("a merchant's large payout waits, a supervisor approves it with their own code, and it settles", async () => {
    const { context: adminCtx, page: admin } = await newPage(browser, { width: 1366, height: 900 });
    await signIn(admin, 'admin@obol.example');
    await setThreshold(admin, '1000000');

    // the merchant pays €10,000.00: reserved, waiting
    const { context: merchantCtx, page: merchant } = await newPage(browser, { width: 1366, height: 900 });
    await signIn(merchant, 'merchant@obol.example');
    await merchant.goto('/payments');
    await merchant.getByText('Manual Payout', { exact: true }).click();
    const next = merchant.getByRole('button', { name: 'Next' });
    await expect.poll(() => next.isEnabled()).toBe(true);
    await next.click();
    await merchant.getByRole('radio').first().check();
    await expect.poll(() => next.isEnabled()).toBe(true);
    await next.click();
    const id = `FOUR-EYES-${Date.now()}`;
    await merchant.getByLabel('Beneficiary name').fill('Ana Novak');
    await merchant.getByLabel('Brand').click();
    await merchant.getByRole('option', { name: 'Acme Brand' }).click();
    await merchant.getByLabel('Merchant transaction id').fill(id);
    await merchant.getByLabel('Obol ID').fill('100000001');
    await merchant.getByLabel('Reference').fill(id);
    await merchant.getByLabel('Amount (cents)').fill('1000000');
    let since = Date.now();
    await merchant.getByRole('button', { name: 'Create Payout' }).click();
    await merchant
      .getByLabel('Verification code', { exact: true })
      .fill(await codeFromMail('merchant@obol.example', since));
    await merchant.getByRole('button', { name: 'Submit' }).click();
    await merchant.waitForURL('**/recent-batches');
    await merchant.getByText('Payout waiting for approval').waitFor();

    // a supervisor sees it counted in the navigation, asks their own code and approves
    const { context: supCtx, page: sup } = await newPage(browser, { width: 1366, height: 900 });
    await signIn(sup, 'supervisor-a@obol.example');
    await sup.getByRole('link', { name: /^Approvals.*waiting/ }).click();
    const table = sup.getByRole('table', { name: 'Approvals' });
    const row = table.getByRole('row').filter({ hasText: id });
    await row.waitFor();
    since = Date.now();
    await row.getByRole('button', { name: /^Approve / }).click();
    const code = sup.getByRole('dialog', { name: 'Enter the verification code' });
    await code.getByLabel('Verification code').fill(await codeFromMail('supervisor-a@obol.example', since));
    await code.getByRole('button', { name: 'Submit' }).click();
    await sup.getByText('Approved. It is on its way to the provider.').first().waitFor();
    await row.waitFor({ state: 'detached' });

    // it went to the provider and settled
    await merchant.goto(`/payout-transactions?q=${id}`);
    await merchant
      .getByRole('row')
      .filter({ hasText: id })
      .getByText('Completed', { exact: true })
      .waitFor({ timeout: 20_000 });

    await setThreshold(admin, '0');
    await Promise.all([adminCtx.close(), merchantCtx.close(), supCtx.close()]);
  });
});
