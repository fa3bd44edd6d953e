import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFromMail, launch, newPage, signIn } from '../lib/browser.ts';
import { expectReceipt } from '../lib/receipts.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('transfers', () => {
  it('the accountant transfers from a merchant’s payout account with the mailed code and follows it to Completed', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'accountant@obol.example');
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await nav.getByRole('button', { name: 'More' }).click();
    await nav.getByRole('link', { name: 'Merchants Payout', exact: true }).click();
    await page.waitForURL('**/merchants-payout');

    await page.getByRole('combobox', { name: 'Merchant account' }).fill('Acme Pay');
    await page.getByRole('option', { name: /^Acme Payouts/ }).click();
    // no account type yet: the form is shut
    await page.getByText('Please select account first').waitFor();
    expect(await page.getByLabel('IBAN').isDisabled()).toBe(true);
    await page.getByRole('combobox', { name: 'Account type' }).click();
    await page.getByRole('option', { name: 'Payout', exact: true }).click();
    const card = page.getByText('Payout balance').locator('..');
    await card.getByText(/^€[\d,]+\.\d\d$/).waitFor();
    const before = (await card.getByText(/^€[\d,]+\.\d\d$/).textContent())!;

    await page.getByLabel('Beneficiary name').fill('Acme Supplies GmbH');
    // a mistyped IBAN is caught on the spot, before any code
    await page.getByLabel('IBAN').fill('DE89370400440532013001');
    await page.getByText('IBAN is not valid: check the digits').waitFor();
    await page.getByLabel('IBAN').fill('DE89 3704 0044 0532 0130 00');
    await page.getByLabel('BIC').fill('DEUTDEFF');
    await page.getByLabel('Amount (cents)').fill('1999');
    const purpose = `Supplier invoice ${Date.now()}`;
    await page.getByLabel('Purpose of payment (optional)').fill(purpose);
    const since = Date.now();
    await page.getByRole('button', { name: 'Transfer Amount' }).click();
    const code = await codeFromMail('accountant@obol.example', since);
    await page.getByLabel('Verification code', { exact: true }).fill(code);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('alert').filter({ hasText: 'Amount transferred successfully' }).waitFor();
    await expectReceipt(page, 'Transfer submitted', 'See it in Transfer Transactions');
    // the form starts over, and the balance follows about 2 s later
    await expect.poll(() => page.getByLabel('IBAN').inputValue()).toBe('');
    await expect.poll(() => card.getByText(/^€[\d,]+\.\d\d$/).textContent(), { timeout: 10_000 }).not.toBe(before);

    await nav.getByRole('link', { name: 'Transfer Transactions', exact: true }).click();
    await page.waitForURL('**/transfer-transactions');
    const row = page.getByRole('row').filter({ hasText: 'DE89370400440532013000' }).first();
    await row.waitFor();
    // the provider simulator settles it in the background; the list shows it Completed after a reload
    await expect
      .poll(
        async () => {
          await page.reload();
          await row.waitFor();
          return row.getByText('Completed').isVisible();
        },
        { timeout: 20_000, interval: 1000 },
      )
      .toBe(true);
    await row.getByRole('button', { name: /^Purpose of payment of the transfer/ }).click();
    await page.getByRole('dialog', { name: 'Purpose of payment' }).getByText(purpose).waitFor();
    await context.close();
  });

  it('the Admin transfers from the Fee Account on Amount Transfer with the mailed code', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'admin@obol.example');
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await nav.getByRole('button', { name: 'More' }).click();
    await nav.getByRole('link', { name: 'Amount Transfer', exact: true }).click();
    await page.waitForURL('**/amount-transfer');
    await page.getByText('Please select account first').waitFor();
    // the Admin's own account is the Fee Account (shown as the Payout type)
    await page.getByRole('combobox', { name: 'Account type' }).click();
    await page.getByRole('option', { name: 'Payout', exact: true }).click();
    const card = page.getByText('Fee Account balance').locator('..');
    await card.getByText(/^€[\d,]+\.\d\d$/).waitFor();
    const before = (await card.getByText(/^€[\d,]+\.\d\d$/).textContent())!;
    await page.getByLabel('Beneficiary name').fill('Obol Operations Ltd');
    await page.getByLabel('IBAN').fill('GB82 WEST 1234 5698 7654 32');
    await page.getByLabel('BIC').fill('NWBKGB2L');
    await page.getByLabel('Amount (cents)').fill('101');
    const since = Date.now();
    await page.getByRole('button', { name: 'Transfer Amount' }).click();
    const code = await codeFromMail('admin@obol.example', since);
    await page.getByLabel('Verification code', { exact: true }).fill(code);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('alert').filter({ hasText: 'Amount transferred successfully' }).waitFor();
    const receipt = await expectReceipt(page, 'Transfer submitted', 'See it in Transfer Transactions', '€1.01');
    await receipt.getByText(/^Fee Account, /).waitFor();
    await expect.poll(() => page.getByLabel('IBAN').inputValue()).toBe('');
    await expect.poll(() => card.getByText(/^€[\d,]+\.\d\d$/).textContent(), { timeout: 10_000 }).not.toBe(before);
    await nav.getByRole('link', { name: 'Transfer Transactions', exact: true }).click();
    const row = page.getByRole('row').filter({ hasText: 'GB82WEST12345698765432' }).first();
    await row.waitFor();
    await context.close();
  });
});
