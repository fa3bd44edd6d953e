import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, newPage, signIn } from '../lib/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('the Fee Module', () => {
  it("the accountant changes a brand's fee with a reason and finds the change in its history", async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'accountant@obol.example');
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await nav.getByRole('link', { name: 'Fee Module', exact: true }).click();
    await page.waitForURL('**/fee-module');
    await page.getByRole('heading', { name: 'Fee Module', level: 1 }).waitFor();

    await page.getByRole('searchbox', { name: 'Search' }).fill('brand2@');
    const edit = page.getByRole('button', { name: /^Edit the fee of / });
    await expect.poll(() => edit.count(), { timeout: 10_000 }).toBe(1);
    const name = (await edit.getAttribute('aria-label'))!.replace('Edit the fee of ', '');
    await edit.click();
    const dialog = page.getByRole('dialog', { name: `Edit fee of ${name}` });
    const current = Number(await dialog.getByLabel('Fee').inputValue());
    const next = current === 4.25 ? '4.5' : '4.25';
    const save = dialog.getByRole('button', { name: 'Save' });
    await dialog.getByLabel('Fee').fill(next);
    expect(await save.isDisabled()).toBe(true);
    await dialog.getByLabel('Reason').fill('Annual review (e2e)');
    await save.click();
    await page.getByRole('alert').filter({ hasText: 'Fee updated successfully.' }).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText(`${next}%`).first().waitFor();

    await page.getByRole('button', { name: `Fee history of ${name}` }).click();
    const history = page.getByRole('dialog', { name: `Fee history of ${name}` });
    await history.getByText(`${current}% → ${next}%: Annual review (e2e)`).waitFor();
    await context.close();
  });
});
