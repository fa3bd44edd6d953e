import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, launch, newPage, signIn } from '../lib/browser.ts';
import { totp, totpStep } from '../lib/totp.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('the profile', () => {
  it('gives new backup codes only after the password', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'finance@obol.example');
    await page.getByRole('alert').filter({ hasText: 'Logged In' }).waitFor();
    await page.goto('/user-profile');
    await page.getByRole('button', { name: 'Download backup codes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Download backup codes' });
    await dialog.getByLabel('Password').fill('not-my-password');
    await dialog.getByRole('button', { name: 'Download' }).click();
    await dialog.getByText('Incorrect Password.').waitFor();
    await dialog.getByLabel('Password').fill(DEMO_PASSWORD);
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByLabel('Password').press('Enter')]);
    expect(download.suggestedFilename()).toBe('obol-backup-codes.txt');
    const text = readFileSync((await download.path())!, 'utf8');
    expect(text.match(/^[A-Z0-9]{5}-[A-Z0-9]{5}$/gm)).toHaveLength(10);
    await dialog.waitFor({ state: 'hidden' });
    await context.close();
  });
});

describe('the authenticator app', () => {
  it('is enrolled from the profile with a QR code and a code, then signs the user in', async () => {
    const email = 'supervisor-a@obol.example';
    const { context, page } = await newPage(browser);
    await signIn(page, email);
    await page.goto('/user-profile');
    const toggle = page.getByRole('switch', { name: '2FA for payouts with an authenticator app' });
    expect(await toggle.isChecked()).toBe(false);
    await toggle.click();
    const ask = page.getByRole('dialog', { name: 'Set up an authenticator app' });
    await ask.getByLabel('Password').fill(DEMO_PASSWORD);
    await ask.getByRole('button', { name: 'Continue' }).click();

    const enrol = page.getByRole('dialog', { name: 'Scan the QR code' });
    await enrol.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    const secret = (await enrol.getByTestId('totp-secret').textContent())!.replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    // a wrong code leaves e-mail codes
    const step = totpStep();
    await enrol.getByLabel('Code from the app').fill(totp(secret, step - 20));
    await enrol.getByRole('button', { name: 'Turn on' }).click();
    await enrol.getByText('Invalid or expired code').waitFor();
    await enrol.getByLabel('Code from the app').fill(totp(secret, step));
    await enrol.getByRole('button', { name: 'Turn on' }).click();
    await enrol.waitFor({ state: 'hidden' });
    await page.getByRole('alert').filter({ hasText: 'Codes now come from your authenticator app.' }).waitFor();
    expect(await toggle.isChecked()).toBe(true);

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL('**/signin');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByLabel('Authenticator app').check();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/signin/authentication');
    // the enrolling code's step is used up; the app's next code is accepted (one step of drift)
    await page.getByLabel('Code', { exact: true }).fill(totp(secret, step + 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
    await page.getByRole('button', { name: 'Account menu' }).waitFor();

    // and back to e-mail codes, with the password
    await page.goto('/user-profile');
    await toggle.click();
    const back = page.getByRole('dialog', { name: 'Send codes by e-mail' });
    await back.getByLabel('Password').fill(DEMO_PASSWORD);
    await back.getByRole('button', { name: 'Switch to e-mail' }).click();
    await back.waitFor({ state: 'hidden' });
    expect(await toggle.isChecked()).toBe(false);
    await context.close();
  });
});

describe("a merchant's API key", () => {
  it('is revealed after the password and copied only once revealed', async () => {
    const { context, page } = await newPage(browser, undefined, { permissions: ['clipboard-read', 'clipboard-write'] });
    await signIn(page, 'merchant2@obol.example');
    await page.goto('/user-profile');
    const privateKey = page.getByTestId('private-key');
    await page
      .getByTestId('public-key')
      .filter({ hasText: /^pk_.{4}….{4}$/ })
      .waitFor();
    await page.getByRole('button', { name: 'Copy the private key' }).click();
    await page.getByRole('alert').filter({ hasText: 'Decrypt Keys first.' }).waitFor();
    expect(await privateKey.textContent()).not.toContain('sk_');

    await page.getByRole('button', { name: 'Reveal keys' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reveal API keys' });
    await dialog.getByLabel('Password').fill('not-my-password');
    await dialog.getByRole('button', { name: 'Reveal' }).click();
    await dialog.getByText('Incorrect Password.').waitFor();
    await dialog.getByLabel('Password').fill(DEMO_PASSWORD);
    await dialog.getByRole('button', { name: 'Reveal' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await privateKey.filter({ hasText: /^sk_/ }).waitFor();
    const shown = (await privateKey.textContent())!;

    await page.bringToFront(); // the clipboard is written only by a focused document
    await page.getByRole('button', { name: 'Copy the private key' }).click();
    // the 'Copied To Clipboard.' toast lasts 2.5 s and a loaded machine can miss it: the clipboard is the proof
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()), { timeout: 15_000 }).toBe(shown);
    await context.close();
  });
});
