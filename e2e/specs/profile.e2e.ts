import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, launch, newPage, signIn } from '../lib/browser.ts';

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
