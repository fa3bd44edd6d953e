import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFromMail, consentLinkFromMail, DEMO_PASSWORD, launch, newPage, signIn } from '../lib/browser.ts';
import { expectReceipt } from '../lib/receipts.ts';
import { downloadWhenReady, exportList } from '../lib/downloads.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** the simulator's documented company key (docs/provider.md) */
const COMPANY_KEY = 'ck_acme0000000000000001';

async function pick(page: Page, scope: Page | ReturnType<Page['getByRole']>, label: string, option: string | RegExp) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option }).first().click();
}

describe('the accounting module (2D)', () => {
  it('registers a company, has its access approved, reveals its key, creates both rule kinds and transfers with the OTP', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, '2d-admin@obol.example');
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await nav.getByRole('link', { name: 'Companies', exact: true }).click();
    await page.waitForURL('**/companies');

    // register the company with its key at the bank
    const email = `treasury-${Date.now()}@acme-holding.example`;
    await page.getByRole('button', { name: 'Add New Company' }).click();
    const add = page.getByRole('dialog', { name: 'Add Company Details' });
    await add.getByLabel('Company name').fill('Acme Holding');
    await add.getByLabel('Email').fill('not-an-email');
    await add.getByLabel('API key').fill(COMPANY_KEY);
    await add.getByText('E-mail must be valid').waitFor();
    expect(await add.getByRole('button', { name: 'Add Company' }).isDisabled()).toBe(true);
    await add.getByLabel('Email').fill(email);
    const since = Date.now();
    await add.getByRole('button', { name: 'Add Company' }).click();
    await add.waitFor({ state: 'hidden' });
    const row = page.getByRole('row').filter({ hasText: email });
    await row.getByText('Pending').waitFor();

    // the account holder approves the access from the mailed link (signed out)
    const link = new URL(await consentLinkFromMail(email, since));
    const holder = await browser.newContext({ baseURL: new URL(page.url()).origin });
    const consent = await holder.newPage();
    await consent.goto(`${link.pathname}${link.search}`);
    await consent.getByText('Acme Holding').first().waitFor();
    await consent.getByRole('button', { name: 'Approve' }).click();
    await consent.getByText('Account access approved').waitFor();
    await holder.close();

    // active now; the key shows after the password only
    await page.reload();
    await row.getByText('Approved').waitFor();
    expect(await row.getByText(COMPANY_KEY).count()).toBe(0);
    await row.getByRole('button', { name: 'Show the API key of Acme Holding' }).click();
    const pwd = page.getByRole('dialog', { name: 'Enter Password' });
    await pwd.getByLabel('Password').fill('wrong-password');
    await pwd.getByRole('button', { name: /decrypt|confirm|show/i }).click();
    await pwd.getByText('Incorrect Password.').waitFor();
    await pwd.getByLabel('Password').fill(DEMO_PASSWORD);
    await pwd.getByRole('button', { name: /decrypt|confirm|show/i }).click();
    await pwd.waitFor({ state: 'hidden' });
    await row.getByText(COMPANY_KEY).waitFor();

    // a percentage rule and an amount rule
    await nav.getByRole('link', { name: 'Rules', exact: true }).click();
    await page.waitForURL('**/accounting-rules');
    await page.getByRole('button', { name: 'Create Percentage Rule' }).click();
    let dialog = page.getByRole('dialog', { name: 'Create Accounting Rule' });
    await dialog.getByLabel('Rule name').fill('Nightly sweep');
    await dialog.getByLabel('Reference').fill('Sweep to reserve');
    await pick(page, dialog, 'Company', 'Acme Holding');
    await pick(page, dialog, 'Account', /^Operating account/);
    await dialog.getByRole('radio', { name: 'Internal' }).check();
    await pick(page, dialog, 'Beneficiary', /^Reserve account/);
    await dialog.getByLabel('Percentage').fill('12.345');
    await dialog.getByLabel('Time (UTC)').fill('23:30');
    await dialog.getByRole('button', { name: 'Create Rule' }).click();
    await dialog.getByText('Value must be a valid decimal with up to 2 decimal places').waitFor();
    await dialog.getByLabel('Percentage').fill('12.5');
    await dialog.getByRole('button', { name: 'Create Rule' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('row').filter({ hasText: 'Nightly sweep' }).waitFor();

    await page.getByRole('button', { name: 'Create Amount Rule' }).click();
    dialog = page.getByRole('dialog', { name: 'Create Accounting Rule' });
    await dialog.getByLabel('Rule name').fill('Monthly rent');
    await dialog.getByLabel('Reference').fill('Office rent');
    await pick(page, dialog, 'Company', 'Acme Holding');
    await pick(page, dialog, 'Account', /^Operating account/);
    await pick(page, dialog, 'Beneficiary', /^Northwind/);
    await dialog.getByLabel('Amount (cents)').fill('150000');
    await pick(page, dialog, 'Interval', 'Monthly');
    await dialog.getByLabel('Day of the month').fill('31');
    await dialog.getByRole('button', { name: 'Create Rule' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('row').filter({ hasText: 'Monthly rent' }).waitFor();

    // a transfer to a beneficiary, approved with the mailed code
    await nav.getByRole('link', { name: '2D Payments', exact: true }).click();
    await page.waitForURL('**/accounting-payment');
    const form = page.getByRole('form', { name: 'Amount Transfer' });
    await pick(page, page, 'Company', 'Acme Holding');
    await pick(page, page, 'Account', /^Operating account/);
    const card = page.getByRole('region', { name: 'Account details' });
    await card
      .getByText(/DE\d{2}/)
      .first()
      .waitFor();
    await pick(page, form, 'Beneficiary', /^Northwind/);
    await form.getByLabel('Amount (cents)').fill('12.5');
    await form.getByLabel('Purpose of payment').fill('Invoice 4471!');
    await form.getByRole('button', { name: 'Transfer Amount' }).click();
    await form.getByText('Must be a whole number').waitFor();
    await form.getByText('Only alphanumeric characters are allowed').waitFor();
    await form.getByLabel('Amount (cents)').fill('4471');
    await form.getByLabel('Purpose of payment').fill('Invoice 4471');
    const codeSince = Date.now();
    await form.getByRole('button', { name: 'Transfer Amount' }).click();
    const code = await codeFromMail('2d-admin@obol.example', codeSince);
    await page.getByLabel('Verification code', { exact: true }).fill(code);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /Transfer sent|transferred/ })
      .waitFor();
    await expectReceipt(page, '2D payment submitted', 'See it in 2D Transactions', '€44.71');
    await expect.poll(() => form.getByLabel('Amount (cents)').inputValue()).toBe('');

    // in 2D Transactions, settled by the bank in the background
    await nav.getByRole('link', { name: '2D Transactions', exact: true }).click();
    await page.waitForURL('**/accounting-transactions');
    const txn = page.getByRole('row').filter({ hasText: 'Northwind Supplies GmbH' }).first();
    await txn.waitFor();
    await expect
      .poll(
        async () => {
          await page.reload();
          await txn.waitFor();
          return txn.getByText('Completed').isVisible();
        },
        { timeout: 20_000, interval: 1000 },
      )
      .toBe(true);

    // exported into the 2D downloads, where the file is written and downloads
    const note = await exportList(page, 'Export as CSV');
    await note.getByRole('button', { name: 'See Downloads' }).click();
    await page.waitForURL('**/download-accounting-transactions');
    const download = await downloadWhenReady(page, /^2d-transactions-.*\.csv/);
    const csv = readFileSync(await download.path(), 'utf8');
    expect(csv.split(/\r?\n/)[0]).toContain('Rule Name');
    expect(csv).toContain('Northwind Supplies GmbH');
    await context.close();
  });
});
