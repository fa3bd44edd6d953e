import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, launch, newPage, signIn, rowMenuItem, closeMenu } from '../lib/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('the API Keys screen', () => {
  it('a merchant decrypts its keys and its brands’ after the password, and copies them only once decrypted', async () => {
    const { context, page } = await newPage(browser, undefined, { permissions: ['clipboard-read', 'clipboard-write'] });
    await signIn(page, 'merchant@obol.example');
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await nav.getByRole('link', { name: 'API Keys', exact: true }).click();
    await page.waitForURL('**/api-keys');
    const row = page.getByRole('row').filter({ hasText: 'merchant@obol.example' });
    await row.getByText(/^pk_.{4}….{4}$/).waitFor();

    await row.getByRole('button', { name: /^Copy the public key of / }).click();
    await page.getByRole('alert').filter({ hasText: 'Decrypt Keys first.' }).waitFor();

    await (await rowMenuItem(page, row, 'Decrypt keys')).click();
    const dialog = page.getByRole('dialog', { name: 'Decrypt API keys' });
    await dialog.getByLabel('Password').fill('not-my-password');
    await dialog.getByRole('button', { name: 'Decrypt' }).click();
    await dialog.getByText('Incorrect Password.').waitFor();
    await dialog.getByLabel('Password').fill(DEMO_PASSWORD);
    await dialog.getByRole('button', { name: 'Decrypt' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const keys = page.getByLabel('Decrypted keys');
    const privateKey = keys.getByText(/^sk_/);
    await privateKey.waitFor();
    const shown = (await privateKey.textContent())!;
    await page.bringToFront(); // the clipboard is written only by a focused document
    await keys.getByRole('button', { name: 'Copy the private key' }).click();
    // the 'Copied To Clipboard.' toast lasts 2.5 s and a loaded machine can miss it: the clipboard is the proof
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()), { timeout: 15_000 }).toBe(shown);

    // the brands' keys, decrypted with the same password
    await (await rowMenuItem(page, row, 'Brand keys')).click();
    const brands = page.getByRole('dialog', { name: /^Brands of / });
    await brands.getByText('Acme Brand').waitFor();
    await brands.getByText(/^sk_/).first().waitFor();
    await brands.getByRole('button', { name: 'Close' }).click();
    await context.close();
  });

  it('the admin sees masked keys only and shares a merchant’s public keys by e-mail', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'admin@obol.example');
    await page.goto('/api-keys');
    await page.getByLabel('Search').fill('Acme');
    const row = page.getByRole('row').filter({ hasText: 'merchant@obol.example' });
    await row.getByText(/^pk_.{4}….{4}$/).waitFor();
    const decrypt = await rowMenuItem(page, row, /^Decrypt keys/);
    expect(await decrypt.getAttribute('aria-disabled')).toBe('true');
    // a disabled action says why
    expect(await decrypt.textContent()).toContain('Only the merchant decrypts its own keys');
    await closeMenu(page);
    expect(await page.content()).not.toContain('sk_');

    await (await rowMenuItem(page, row, 'Share')).click();
    const share = page.getByRole('dialog', { name: /^Share keys of / });
    await share.getByRole('button', { name: 'Share' }).click();
    await share.getByText('This field is required').waitFor();
    await share.getByRole('textbox', { name: 'Email' }).fill('integrations@acme.example');
    await share.getByRole('button', { name: 'Share' }).click();
    await page.getByRole('alert').filter({ hasText: 'Keys shared by e-mail.' }).waitFor();
    await context.close();
  });
});
