import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, newPage, signIn } from '../lib/browser.ts';
import { settle } from '../lib/tour.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** Today in the browser's time zone, as the date input wants it. */
const todayIn = (tz: string) => new Date().toLocaleDateString('en-CA', { timeZone: tz });

describe('the activity log', () => {
  it('shows the admin their own sign-in today, its details, and verifies the chain', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'admin@obol.example');
    await page.getByRole('alert').filter({ hasText: 'Logged In' }).waitFor();

    // through the menu
    await page.getByRole('link', { name: 'Activity Logs' }).click();
    await page.waitForURL('**/activity-logs');
    await page.getByRole('heading', { name: 'Activity Logs', level: 1 }).waitFor();

    const tz = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    const date = page.getByLabel('Date', { exact: true });
    // its calendar offers no day after today
    expect(await page.locator('input[type="date"]').first().getAttribute('max')).toBe(todayIn(tz));
    await date.fill(todayIn(tz));
    await page.waitForURL((u) => u.searchParams.get('date') === todayIn(tz));

    // the newest of the admin's sign-ins: the code step, 'Signed in'
    const mine = page
      .getByRole('row')
      .filter({ hasText: 'admin@obol.example' })
      .filter({ has: page.getByRole('cell', { name: 'Signed in', exact: true }) });
    await mine.first().waitFor();
    expect(await mine.first().getByRole('cell').nth(0).textContent()).toBe('Ada Admin');

    await mine
      .first()
      .getByRole('button', { name: /^View details of Signed in by Ada Admin/ })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Activity Details' });
    await dialog.waitFor();
    await dialog.getByText('Success', { exact: true }).waitFor();
    expect(await dialog.getByText(/^[0-9a-f]{64}$/).count()).toBe(1);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: 'Verify chain' }).click();
    const result = page.getByTestId('verify-result');
    await result.waitFor();
    expect(await result.textContent()).toMatch(/The activity log is intact: \d+ records checked/);
    // the check is recorded, and the list shows it
    await page
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'Verified the activity log', exact: true }) })
      .first()
      .waitFor();

    // a future day cannot be asked for
    await date.fill('2999-01-01');
    await page.getByText('Date must not be after today').waitFor();
    await context.close();
  });

  it('fits a phone: records as cards, the details dialog, no sideways scroll', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 });
    await signIn(page, 'manager@obol.example');
    await page.getByRole('alert').filter({ hasText: 'Logged In' }).waitFor();
    await page.goto('/activity-logs');
    const details = page.getByRole('button', { name: /^View details of / }).first();
    await details.waitFor();
    // cards, not a table that scrolls sideways
    expect(await page.getByRole('table').count()).toBe(0);
    const sideways = () =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    await settle(page);
    expect(await sideways()).toBeLessThanOrEqual(0);
    await details.click();
    await page.getByRole('dialog', { name: 'Activity Details' }).waitFor();
    await settle(page);
    expect(await sideways()).toBeLessThanOrEqual(0);
    await context.close();
  });
});
