import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { permissionLabel } from '@obol/contract';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { DEMO_PASSWORD } from './browser.ts';

/** Called on every screen the tour reaches, once it has drawn. */
export type OnScreen = (label: string) => Promise<void>;

/**
 * Waits for the page's requests to settle and MUI's transitions to end. The live event stream stays open on every
 * signed-in page, so the network is never idle there: the wait is bounded.
 */
export async function settle(page: Page) {
  await page.waitForLoadState('networkidle', { timeout: 1500 }).catch(() => undefined);
  await page.waitForTimeout(400);
}

/** The payments steps up to the account: the merchant entry (typed by staff, preselected for a merchant). */
async function toAccountStep(page: Page, kind: 'Manual Payout' | 'Batch Payout', staff: boolean, on?: OnScreen) {
  await page.goto('/payments');
  await page.getByText(kind, { exact: true }).click();
  if (staff) {
    await page.getByRole('combobox', { name: 'Merchant or brand' }).fill('Acme Payouts');
    await page.getByRole('option', { name: 'Acme Payouts (Merchant)' }).click();
  }
  const next = page.getByRole('button', { name: 'Next' });
  await expect.poll(() => next.isEnabled()).toBe(true);
  await settle(page);
  await on?.(`payments step 2 (${kind})`);
  await next.click();
  // with one account the step may choose it and move on by itself
  const radio = page.getByRole('radio').first();
  const form = page.getByLabel('Beneficiary name').or(page.getByTestId('upload-input'));
  await radio.or(form).first().waitFor({ state: 'attached' });
  if (await radio.isVisible()) {
    await settle(page);
    await on?.(`payments step 3 (${kind})`);
    await radio.check();
    const next3 = page.getByRole('button', { name: 'Next' });
    await expect.poll(() => next3.isEnabled()).toBe(true);
    await next3.click();
  }
}

/** A CSV of two payouts to upload. */
function payoutsCsv(): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'obol-e2e-a11y-')), 'a11y payouts.csv');
  const tag = Date.now();
  writeFileSync(
    file,
    [
      'beneficiary_name,obol_id,merchant_transaction_id,brand,reference,amount',
      `Ana Novak,100000001,A${tag}-1,Acme Brand,Invoice 1,1500`,
      `Ben Berg,12345,A${tag}-2,Acme Brand,Invoice 2,1000`,
    ].join('\n'),
  );
  return file;
}

/**
 * Every built screen a signed-in user can reach: the payments steps (manual and batch), the review page of an
 * uploaded batch, the payout list and a payout's details, both tabs of Batch Transactions, a batch's transaction
 * history, Recent Batches, the download lists, Users, Merchants, API Keys, Brands, View Balance, the profile and its
 * dialogs, and (staff) the activity log, the Fee Module, Roles & Permissions and the transfer screens. Calls `on`
 * on each.
 */
export async function tourSignedIn(page: Page, staff: boolean, on: OnScreen) {
  await page.goto('/payments');
  await page.getByText('Manual Payout', { exact: true }).waitFor();
  await settle(page);
  await on('payments step 1');

  await toAccountStep(page, 'Manual Payout', staff, on);
  await page.getByLabel('Beneficiary name').waitFor();
  await settle(page);
  await on('payments step 4 (manual payout form)');

  await toAccountStep(page, 'Batch Payout', staff);
  await page.getByTestId('upload-input').waitFor({ state: 'attached' });
  await settle(page);
  await on('payments step 4 (upload)');
  await page.getByTestId('upload-input').setInputFiles(payoutsCsv());
  await page.getByRole('button', { name: 'Upload' }).click();
  await page.waitForURL('**/payments/transactions', { timeout: 30_000 });
  await page
    .getByText(/Executable: 1/)
    .first()
    .waitFor();
  await settle(page);
  await on('review page');
  // decline the staged batch (Clear asks first), so /payments is not sent back to it
  await page.getByRole('button', { name: /^clear$/i }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Clear this batch?' });
  await confirm.waitFor();
  await settle(page);
  await on('review page, clear confirmation');
  await confirm.getByRole('button', { name: 'Clear batch' }).click();
  await page.waitForURL((u) => u.pathname === '/payments');

  await page.goto('/payout-transactions');
  await page
    .getByRole('button', { name: /view details/i })
    .first()
    .waitFor();
  await settle(page);
  await on('payout list');
  await page
    .getByRole('button', { name: /view details/i })
    .first()
    .click();
  await page.getByRole('dialog').waitFor();
  await settle(page);
  await on('payout details dialog');
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'hidden' });

  await page.goto('/batch-transactions');
  await page.getByRole('tab', { name: /batches/i }).waitFor();
  await settle(page);
  await on('batch transactions: batches');
  await page.getByRole('tab', { name: /completed transactions/i }).click();
  await settle(page);
  await on('batch transactions: completed transactions');

  await page.getByRole('tab', { name: /batches/i }).click();
  const completed = page.getByRole('row').filter({ hasText: /completed/i });
  await completed
    .first()
    .getByRole('button', { name: /export batch/i })
    .click();
  await page.waitForURL('**/transactions-history');
  await settle(page);
  await on('transaction history');

  for (const url of [
    '/recent-batches',
    '/payin',
    '/cardeye',
    '/payin-rewards',
    '/refund',
    '/download-transactions',
    '/generate-reports',
    '/download-reports',
    '/users',
    '/user-profile',
  ]) {
    await page.goto(url);
    await page.getByRole('heading').first().waitFor();
    await settle(page);
    await on(url);
  }
  // the Users screen with its rows and actions loaded, and the Invite user dialog
  await page.goto('/users');
  await page
    .getByRole('button', { name: /^Actions for / })
    .first()
    .waitFor();
  await settle(page);
  await on('users with their actions');
  await page.getByRole('button', { name: 'Invite user' }).click();
  await page.getByRole('dialog', { name: 'Invite user' }).waitFor();
  await settle(page);
  await on('invite user dialog');
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'hidden' });
  // the activity log is staff's by default: the list, a record's details and the chain check's result
  if (staff) {
    await page.goto('/activity-logs');
    const details = page.getByRole('button', { name: /^View details of / }).first();
    await details.waitFor();
    await settle(page);
    await on('/activity-logs');
    await details.click();
    await page.getByRole('dialog', { name: 'Activity Details' }).waitFor();
    await settle(page);
    await on('activity details dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Verify chain' }).click();
    await page.getByTestId('verify-result').waitFor();
    await settle(page);
    await on('activity logs, chain verified');
    await tourRoles(page, on);
  }
  // the Fee Module (staff): the list, the income card, and the edit dialog
  if (staff) {
    await page.goto('/fee-module');
    const edit = page.getByRole('button', { name: /^Edit the fee of / }).first();
    await edit.waitFor();
    await settle(page);
    await on('/fee-module');
    await edit.click();
    await page.getByRole('dialog', { name: /^Edit fee of / }).waitFor();
    await settle(page);
    await on('edit fee dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
  }
  if (staff) {
    // the merchants, the Add New Merchant dialog and a merchant's brands panel
    await page.goto('/merchants?q=merchant%40obol.example');
    await page.getByRole('heading', { name: 'Merchants', level: 1 }).waitFor();
    await page.getByText('merchant@obol.example').first().waitFor();
    await settle(page);
    await on('/merchants');
    await page.getByRole('button', { name: 'Add New Merchant' }).click();
    await page.getByRole('dialog', { name: 'Add New Merchant' }).waitFor();
    await settle(page);
    await on('Add New Merchant dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await page
      .getByRole('button', { name: /^View brands of / })
      .first()
      .click();
    await page.getByRole('dialog', { name: /^Brands of / }).waitFor();
    await page.getByRole('listitem').first().waitFor();
    await settle(page);
    await on('brands panel');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
  }
  // the API keys in scope (masked) and the share dialog
  await page.goto('/api-keys');
  await page.getByRole('heading', { name: 'API Keys', level: 1 }).waitFor();
  await page
    .getByText(/^pk_.{4}….{4}$/)
    .first()
    .waitFor();
  await settle(page);
  await on('/api-keys');
  // a row's three actions: its labelled Actions menu, checked open
  await page
    .getByRole('button', { name: /^Actions for / })
    .first()
    .click();
  await page.getByRole('menu').waitFor();
  await settle(page);
  await on("api keys, a row's actions menu");
  await page.getByRole('menuitem', { name: 'Share' }).click();
  await page.getByRole('dialog', { name: /^Share keys of / }).waitFor();
  await settle(page);
  await on('share keys dialog');
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'hidden' });
  // the brands in scope
  await page.goto('/brands');
  await page.getByRole('heading', { name: 'Brands', level: 1 }).waitFor();
  await page.getByText('brand@obol.example').first().waitFor();
  await settle(page);
  await on('/brands');
  // the balance screen with a holder chosen (the Admin's first choice is the Fee Account)
  await page.goto('/view-balance');
  await page.getByRole('combobox', { name: 'Merchant or brand' }).click();
  await page.getByRole('option').first().click();
  await page.getByText('Account id').first().waitFor();
  await settle(page);
  await on('/view-balance with balances');
  // the transfer screens (staff's by default): Merchants Payout with an account chosen, Amount Transfer, the list
  if (staff) {
    await page.goto('/merchants-payout');
    await page.getByRole('combobox', { name: 'Merchant account' }).fill('Acme Pay');
    await page.getByRole('option', { name: /^Acme Payouts/ }).click();
    await page.getByRole('combobox', { name: 'Account type' }).click();
    await page.getByRole('option', { name: 'Payout', exact: true }).click();
    await page.getByText('Account id').first().waitFor();
    await settle(page);
    await on('/merchants-payout with an account');
    await page.goto('/amount-transfer');
    await page.getByRole('heading', { name: 'Amount Transfer', level: 1 }).waitFor();
    await settle(page);
    await on('/amount-transfer');
    await page.goto('/transfer-transactions');
    await page.getByRole('heading', { name: 'Transfer Transactions', level: 1 }).waitFor();
    await settle(page);
    await on('/transfer-transactions');
  }
  // the accounting module (staff's by default): companies with the Add Company dialog, 2D payments, the rules with
  // the create dialog, the 2D transactions and their downloads
  if (staff) {
    await page.goto('/companies');
    await page.getByRole('heading', { name: 'Companies', level: 1 }).waitFor();
    await settle(page);
    await on('/companies');
    await page.getByRole('button', { name: 'Add New Company' }).click();
    await page.getByRole('dialog').waitFor();
    await settle(page);
    await on('add company dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await page.goto('/accounting-rules');
    await page.getByRole('heading', { name: 'Rules', level: 1 }).waitFor();
    await settle(page);
    await on('/accounting-rules');
    await page.getByRole('button', { name: 'Create Amount Rule' }).click();
    await page.getByRole('dialog').waitFor();
    await settle(page);
    await on('create amount rule dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    for (const [url, title] of [
      ['/accounting-payment', '2D Payments'],
      ['/accounting-transactions', '2D Transactions'],
      ['/download-accounting-transactions', 'Downloads'],
      ['/accounting-approvals', '2D Approvals'],
      ['/approvals', 'Approvals'],
    ]) {
      await page.goto(url);
      await page.getByRole('heading', { name: title, level: 1 }).waitFor();
      await settle(page);
      await on(url);
    }
  }
  await page.goto('/user-profile');
  await page.getByRole('heading').first().waitFor();
  await profileDialogs(page, staff, on);
}

/**
 * The profile's dialogs, from /user-profile: the 2FA switch's password step and the authenticator's QR code step
 * (cancelled: the user keeps e-mail codes), and for a merchant the API key's reveal.
 */
async function profileDialogs(page: Page, staff: boolean, on: OnScreen) {
  await page.getByRole('switch', { name: '2FA for payouts with an authenticator app' }).click();
  const ask = page.getByRole('dialog', { name: 'Set up an authenticator app' });
  await ask.waitFor();
  await settle(page);
  await on('profile: the 2FA switch asks the password');
  await ask.getByLabel('Password').fill(DEMO_PASSWORD);
  await ask.getByRole('button', { name: 'Continue' }).click();
  const enrol = page.getByRole('dialog', { name: 'Scan the QR code' });
  await enrol.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
  await settle(page);
  await on('profile: the authenticator QR code');
  await enrol.getByRole('button', { name: 'Cancel' }).click();
  await enrol.waitFor({ state: 'hidden' });
  if (staff) return;
  await page.getByRole('button', { name: 'Reveal keys' }).click();
  const reveal = page.getByRole('dialog', { name: 'Reveal API keys' });
  await reveal.waitFor();
  await settle(page);
  await on('profile: the API key reveal asks the password');
  await reveal.getByRole('button', { name: 'Cancel' }).click();
  await reveal.waitFor({ state: 'hidden' });
}

/** Roles & Permissions, the editor of a role and the users of a role (staff: a merchant does not hold it). */
async function tourRoles(page: Page, on: OnScreen) {
  await page.goto('/roles-permissions');
  await page.getByRole('button', { name: 'Edit Finance' }).waitFor();
  await settle(page);
  await on('/roles-permissions');
  await page.getByRole('button', { name: 'Edit Finance' }).click();
  const editor = page.getByRole('dialog', { name: 'Edit Finance permissions' });
  await editor.getByLabel(permissionLabel('User can view transactions'), { exact: true }).waitFor();
  await settle(page);
  await on('role editor');
  await editor.getByRole('button', { name: 'Cancel' }).click();
  await editor.waitFor({ state: 'hidden' });
  await page.goto('/roles-permissions/Finance');
  await page.getByRole('heading', { name: 'Users with Finance role' }).waitFor();
  await page.getByRole('cell', { name: 'finance@obol.example' }).waitFor();
  await settle(page);
  await on('/roles-permissions/Finance');
}

/**
 * The pages for the signed out: sign-in (staff and merchant), the code step, forgotten and new password, and the
 * demo storefront (with a payment's outcome).
 */
export async function tourSignedOut(page: Page, on: OnScreen) {
  for (const url of [
    '/signin',
    '/merchant-signin',
    '/forgot-password',
    '/new-password/not-a-token/ada%40obol.example',
    '/merchant-site',
    '/merchant-site?order=shop-1&status=Completed',
    '/consent-approve?token=not-a-token',
  ]) {
    await page.goto(url);
    await page.getByRole('heading').first().waitFor();
    await settle(page);
    await on(url);
  }
  await page.goto('/signin');
  await page.getByLabel('Email', { exact: true }).fill('admin@obol.example');
  await page.getByLabel('Password', { exact: true }).fill('Obol@2026');
  await page.getByLabel('E-mail code').check();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/signin/authentication');
  await page.getByLabel('Code', { exact: true }).waitFor();
  await settle(page);
  await on('/signin/authentication');
}
