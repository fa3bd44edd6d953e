import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
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

async function chooseFirstAccount(page: Page) {
  await page.getByRole('radio').first().check();
  const next = page.getByRole('button', { name: 'Next' });
  await expect.poll(() => next.isEnabled()).toBe(true);
  await next.click();
}

describe('payments', () => {
  it('a merchant makes a manual payout with the e-mailed code', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'merchant@obol.example');
    await page.goto('/payments');
    await page.getByText('Manual Payout', { exact: true }).click();
    // the merchant's own entry is preselected
    const next = page.getByRole('button', { name: 'Next' });
    await expect.poll(() => next.isEnabled()).toBe(true);
    await next.click();
    await chooseFirstAccount(page);
    await page.getByLabel('Beneficiary name').fill('Ana Novak');
    await page.getByLabel('Brand').click();
    await page.getByRole('option', { name: 'Acme Brand' }).click();
    await page.getByLabel('Merchant transaction id').fill(`E2E-${Date.now()}`);
    await page.getByLabel('Obol ID').fill('100000001');
    await page.getByLabel('Reference').fill('Invoice 42');
    await page.getByLabel('Amount (cents)').fill('2500');
    await page.getByText('Total payable: €25.38').waitFor();
    const since = Date.now();
    await page.getByRole('button', { name: 'Create Payout' }).click();
    const code = await codeFromMail('merchant@obol.example', since);
    await page.getByLabel('Verification code', { exact: true }).fill(code);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL('**/recent-batches');
    const receipt = await expectReceipt(page, 'Payout created', 'See it in Recent Batches', '€25.00 + €0.38 fee');
    // its batch, named in the receipt, is listed in Recent Batches
    const copy = await receipt.getByRole('button', { name: /^Copy reference / }).getAttribute('aria-label');
    const batchId = copy!.replace('Copy reference ', '');
    await page.getByRole('row').filter({ hasText: batchId }).first().waitFor();
    await context.close();
  });

  it('a staff user uploads a CSV for a merchant, fixes and deletes rows, renames, executes, and finds the batch', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'obol-e2e-csv-'));
    const file = path.join(dir, 'march payouts.csv');
    const tag = Date.now();
    writeFileSync(
      file,
      [
        'beneficiary_name,obol_id,merchant_transaction_id,brand,reference,amount',
        // ids and references as long as real ones: the table is wider than a 1366 px page
        `Ana Novak-Lindqvist,100000001,PAYOUT-RUN-${tag}-1,Acme Brand,Invoice 2026-03 customer refund 1,1500`,
        `Ben Berg,12345,PAYOUT-RUN-${tag}-2,Acme Brand,Invoice 2026-03 customer refund 2,1000`,
        `Chloe Costa,100000003,PAYOUT-RUN-${tag}-3,Unknown Brand,Invoice 2026-03 customer refund 3,700`,
        `David Dubois,100000004,PAYOUT-RUN-${tag}-4,Acme Brand,Invoice 2026-03 customer refund 4,300`,
      ].join('\n'),
    );
    const { context, page } = await newPage(browser, { width: 1366, height: 900 });
    await signIn(page, 'manager@obol.example');
    await page.goto('/payments');
    await page.getByText('Batch Payout', { exact: true }).click();
    await page.getByRole('combobox', { name: 'Merchant or brand' }).fill('Acme Payouts');
    await page.getByRole('option', { name: 'Acme Payouts (Merchant)' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await chooseFirstAccount(page);
    await page.getByTestId('upload-input').setInputFiles(file);
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.waitForURL('**/payments/transactions', { timeout: 30_000 });
    await page.getByText('Executable: 2', { exact: true }).first().waitFor();
    await page.getByText('Inexecutable: 2', { exact: true }).first().waitFor();
    // fix the unknown brand inline
    await page.getByRole('button', { name: 'Edit row 4' }).click();
    // the amount, what a reviewer checks and edits most, is never under the sticky Actions column at 1366 px
    const amountField = (await page.getByLabel('Amount (cents)', { exact: true }).boundingBox())!;
    const actions = (await page.getByRole('columnheader', { name: 'Actions' }).boundingBox())!;
    expect(amountField.x + amountField.width).toBeLessThanOrEqual(actions.x);
    await page.getByLabel('Brand', { exact: true }).fill('Acme Brand');
    await page.getByRole('button', { name: 'Save row 4' }).click();
    await page.getByText('Executable: 3', { exact: true }).first().waitFor();
    // delete the row with the bad wallet id
    await page.getByRole('button', { name: 'Delete row 3' }).click();
    await page
      .getByRole('alertdialog', { name: 'Delete this transaction?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByText('Inexecutable: 0', { exact: true }).first().waitFor();
    // rename the file
    const name = page.getByLabel('File name');
    await name.fill('march-run #1');
    await name.press('Enter');
    await expect.poll(() => name.inputValue()).toBe('marchrun1');
    const since = Date.now();
    await page.getByRole('button', { name: 'Execute Transactions' }).click();
    const code = await codeFromMail('manager@obol.example', since);
    await page.getByLabel('Verification code', { exact: true }).fill(code);
    // what the browser keeps while the batch is the current one
    const kept = await page.evaluate(() => localStorage.getItem('obol.session'));
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL('**/recent-batches');
    await page.getByRole('cell', { name: 'marchrun1.csv' }).waitFor();
    await expectReceipt(page, 'Batch executed', 'See it in Recent Batches');
    await expect.poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('obol.session')!).batch)).toBeNull();

    // the executed batch kept as the current one (a reload before Recent Batches was shown): Payments does not
    // offer it for review again, but says it was executed and shows Recent Batches
    const batchId = (JSON.parse(kept!) as { batch: { batch_id: string } }).batch.batch_id;
    await page.evaluate((s) => localStorage.setItem('obol.session', s), kept!);
    await page.goto('/payments');
    await page.getByText(`Batch ${batchId} has been executed`).waitFor();
    await page.waitForURL('**/recent-batches');
    await page.getByRole('cell', { name: 'marchrun1.csv' }).waitFor();
    expect(await page.getByRole('button', { name: 'Execute Transactions' }).count()).toBe(0);
    await expect.poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('obol.session')!).batch)).toBeNull();
    await context.close();
  });
});
