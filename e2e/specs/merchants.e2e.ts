import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, linkFromMail, newPage, signIn, rowMenuItem } from '../lib/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const PASSWORD = 'Merchant@2026';

/** The row of a merchant in the list, found by the search box. */
async function findMerchant(page: Page, email: string) {
  await page.getByLabel('Search').fill(email);
  const row = page.getByRole('row').filter({ hasText: email });
  await row.waitFor();
  return row;
}

describe('merchants administration', () => {
  it('the admin creates a merchant, who accepts the invitation; then the admin adds it a brand', async () => {
    const stamp = Date.now();
    const email = `shop.${stamp}@merchant.example`;
    const name = `Shop ${String(stamp).slice(-6)}`;
    const admin = await newPage(browser);
    await signIn(admin.page, 'admin@obol.example');
    await admin.page.goto('/merchants');
    await admin.page.getByRole('heading', { name: 'Merchants', level: 1 }).waitFor();

    // Add New Merchant: the required fields first, an unknown wallet from the provider on its field
    await admin.page.getByRole('button', { name: 'Add New Merchant' }).click();
    const dialog = admin.page.getByRole('dialog', { name: 'Add New Merchant' });
    await dialog.getByRole('button', { name: 'Create merchant' }).click();
    expect(await dialog.getByText('This field is required').count()).toBe(6);
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await dialog.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
    await dialog.getByRole('textbox', { name: 'Descriptor', exact: true }).fill('SHOP E2E');
    await dialog.getByRole('textbox', { name: 'Obol Id', exact: true }).fill('900000001');
    await dialog.getByRole('textbox', { name: 'MID', exact: true }).fill(`MID-${stamp}`);
    await dialog.getByRole('textbox', { name: 'Fee', exact: true }).fill('1.25');
    await dialog.getByRole('textbox', { name: 'City', exact: true }).fill('Lisbon');
    await dialog.getByRole('button', { name: 'Create merchant' }).click();
    await dialog.getByText('Invalid Obol Id').first().waitFor();
    await dialog.getByRole('textbox', { name: 'Obol Id', exact: true }).fill('100000042');
    const since = Date.now();
    await dialog.getByRole('button', { name: 'Create merchant' }).click();
    await admin.page.getByRole('alert').filter({ hasText: 'Merchant Created Successfully.' }).waitFor();
    await dialog.waitFor({ state: 'hidden' });

    // not verified yet: brands cannot be added
    let row = await findMerchant(admin.page, email);
    await row.getByText('Not verified').waitFor();
    await (await rowMenuItem(admin.page, row, 'Add brands')).click();
    await admin.page.getByRole('alert').filter({ hasText: 'Merchant is not verified.' }).waitFor();

    // the merchant sets a password from the mail and signs in to its own payments
    const merchant = await newPage(browser);
    const link = new URL(await linkFromMail(email, since));
    await merchant.page.goto(link.pathname);
    await merchant.page.getByLabel('New password', { exact: true }).fill(PASSWORD);
    await merchant.page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    await merchant.page.getByRole('button', { name: 'Set password' }).click();
    await merchant.page.getByText('Your new password is set. Sign in with it.').waitFor();
    await signIn(merchant.page, email, PASSWORD);
    await merchant.page.getByRole('heading', { name: 'Payments', level: 1 }).waitFor();

    // verified: the admin adds a brand
    await admin.page.reload();
    row = await findMerchant(admin.page, email);
    await row.getByText('Verified').waitFor();
    await (await rowMenuItem(admin.page, row, 'Add brands')).click();
    const add = admin.page.getByRole('dialog', { name: `Add brands to ${name}` });
    await add.getByRole('textbox', { name: 'Brand name of brand 1' }).fill('Abc');
    await add.getByRole('button', { name: 'Create brands' }).click();
    await add.getByText('Name should be above 3 characters').waitFor();
    const brandName = `Outlet ${String(stamp).slice(-5)}`;
    await add.getByRole('textbox', { name: 'Brand name of brand 1' }).fill(brandName);
    await add.getByRole('textbox', { name: 'Email of brand 1' }).fill(`outlet.${stamp}@merchant.example`);
    await add.getByRole('textbox', { name: 'Obol Id of brand 1' }).fill('200000042');
    await add.getByRole('textbox', { name: 'MID of brand 1' }).fill(`MID-B-${stamp}`);
    await add.getByRole('button', { name: 'Create brands' }).click();
    await admin.page.getByRole('alert').filter({ hasText: 'Brand Created Successfully.' }).waitFor();
    await add.waitFor({ state: 'hidden' });

    // the brands panel lists it, with the merchant's new count
    await row.getByRole('button', { name: `View brands of ${name}` }).click();
    const panel = admin.page.getByRole('dialog', { name: `Brands of ${name}` });
    await panel.getByText(brandName).waitFor();
    await panel.getByText('1 in all').waitFor();
    await panel.getByRole('button', { name: `Details of ${brandName}` }).click();
    const details = admin.page.getByRole('dialog', { name: brandName });
    await details.getByText('1.25 %').waitFor();
    await details.getByRole('button', { name: 'Close' }).click();
    await panel.getByRole('button', { name: 'Close the brands panel' }).click();

    // its ledger accounts exist: the balance screen finds the brand with its account reference
    await admin.page.goto('/view-balance');
    const chooser = admin.page.getByRole('combobox', { name: 'Merchant or brand' });
    await chooser.click();
    await chooser.fill(brandName);
    const answer = admin.page.waitForResponse((r) => r.url().endsWith('/api/holder-balances'));
    await admin.page.getByRole('option', { name: `${brandName} (Brand)`, exact: true }).click();
    const body = (await (await answer).json()) as { data: { kind: string; balance: number }[] };
    expect(body.data.map((a) => a.kind)).toEqual(['payout', 'payin', 'clp']);
    expect(body.data.every((a) => a.balance === 0)).toBe(true);

    await merchant.context.close();
    await admin.context.close();
  });
});
