import { NAVIGATION, visibleNavigation, DEFAULT_ROLE_PERMISSIONS } from '@obol/contract';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, newPage, signIn } from '../lib/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

// every top-level menu now leads to a built screen; a menu whose screens are not built yet goes here
const NON_BUILT_MENUS: string[] = [];
/** The menus of a role that lead to a built screen (the labels the sidebar shows). */
const sidebarLabels = (perms: readonly string[]) =>
  visibleNavigation(perms)
    .filter((m) => !NON_BUILT_MENUS.includes(m.label))
    .map((m) => m.label);
/** A menu entry by its label; an approvals entry may say how many wait (the demo seeds one): "Approvals 1 waiting". */
const entry = (nav: Locator, label: string) => {
  const name = new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\d+\\+? waiting)?$`);
  return nav.getByRole('button', { name }).or(nav.getByRole('link', { name }));
};

describe('the web shell', () => {
  it('the admin signs in with the e-mailed code and sees every menu with a built screen in the sidebar', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'admin@obol.example');
    await page.getByRole('alert').filter({ hasText: 'Logged In' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    for (const menu of NAVIGATION) {
      const shown = !NON_BUILT_MENUS.includes(menu.label);
      await expect(entry(nav, menu.label).count(), menu.label).resolves.toBe(shown ? 1 : 0);
    }
    // a group opens to its pages; the current one is marked
    await nav.getByRole('button', { name: 'Transactions', exact: true }).click();
    for (const label of [
      'Payout Transactions',
      'Batch Transactions',
      'Recent Batches',
      'Payin Transactions',
      'Payin Rewards',
      'CardEye Transactions',
      'Refund Transactions',
      'Download Transactions',
    ])
      await expect(nav.getByRole('link', { name: label, exact: true }).count()).resolves.toBe(1);
    // the accounting group, every screen of it built
    await nav.getByRole('button', { name: 'Accounts', exact: true }).click();
    for (const label of ['Companies', '2D Payments', 'Rules', '2D Transactions', 'Downloads'])
      await expect(nav.getByRole('link', { name: label, exact: true }).count()).resolves.toBe(1);
    await nav.getByRole('link', { name: 'Recent Batches', exact: true }).click();
    await page.waitForURL('**/recent-batches');
    await expect
      .poll(() => nav.getByRole('link', { name: 'Recent Batches', exact: true }).getAttribute('aria-current'))
      .toBe('page');
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).textContent()).resolves.toContain('Transactions');
    // avatar initials of "Ada Admin"
    await expect(page.getByRole('button', { name: 'Account menu' }).textContent()).resolves.toContain('AA');
    // an address that is no screen goes to the start page
    await page.goto('/no-such-screen');
    await page.waitForURL('**/payments');
    await context.close();
  });

  it('the brand user sees only its menus and is refused other screens', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'brand@obol.example');
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    const expected = sidebarLabels(DEFAULT_ROLE_PERMISSIONS.Brand);
    for (const menu of NAVIGATION) {
      const n = await entry(nav, menu.label).count();
      expect(n, `${menu.label} shown for brand`).toBe(expected.includes(menu.label) ? 1 : 0);
    }
    expect(expected).not.toContain('Users');
    await page.goto('/users');
    await page.getByRole('heading', { name: 'No access' }).waitFor();
    await context.close();
  });

  it('remembers the collapsed sidebar and the theme; skip link, "/" and the favicon work', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'manager@obol.example');
    await page.getByRole('button', { name: 'Collapse sidebar' }).click();
    await page.getByRole('button', { name: 'Theme' }).click();
    await page.getByRole('menuitemradio', { name: 'Dark' }).click();
    await page.goto('/download-reports');
    await page.getByRole('button', { name: 'Expand sidebar' }).waitFor();
    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.waitFor();
    await expect(page.evaluate(() => document.documentElement.dataset.obolColorScheme)).resolves.toBe('dark');
    await expect(page.evaluate(() => getComputedStyle(document.body).backgroundColor)).resolves.toBe('rgb(14, 16, 20)');
    // the skip link is the first stop of the keyboard and moves focus to the main landmark
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Skip to content');
    await page.keyboard.press('Enter');
    await expect(page.evaluate(() => document.activeElement?.tagName)).resolves.toBe('MAIN');
    await page.keyboard.press('/');
    await expect.poll(() => search.evaluate((e) => e === document.activeElement)).toBe(true);
    await expect(page.locator('main').count()).resolves.toBe(1);
    const icon = await fetch(new URL('/favicon.ico', page.url()));
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).not.toContain('text/html');
    await context.close();
  });

  it('on a phone the menu is a drawer opened from the top bar', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 });
    await signIn(page, 'merchant@obol.example');
    await expect(page.getByRole('navigation', { name: 'Main menu' }).isVisible()).resolves.toBe(false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('navigation', { name: 'Main menu' });
    await drawer.getByRole('button', { name: 'Reports', exact: true }).click();
    await drawer.getByRole('link', { name: 'Download Reports', exact: true }).click();
    await page.waitForURL('**/download-reports');
    await page.getByRole('heading', { level: 1, name: 'Download Reports' }).waitFor();
    await drawer.waitFor({ state: 'hidden' });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await context.close();
  });

  it('a revoked session shows "Session expired" and lands on /signin', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'manager@obol.example');
    // the live event stream keeps a signed-in page busy: the wait for the landing page's calls is bounded
    await page.waitForLoadState('networkidle', { timeout: 1500 }).catch(() => undefined);
    const token = await page.evaluate(() => localStorage.getItem('obol.token'));
    expect(token).toBeTruthy();
    // the app is left before the session ends: a call of the landing page (a list refreshing itself, say) meeting
    // the revoked session would expire it there, and the page load below would then find no session and no toast
    const origin = new URL(page.url()).origin;
    await page.goto('about:blank');
    // the session ends on the server (as an idle expiry or a sign-out elsewhere would)
    const r = await fetch(new URL('/api/logout', origin), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(r.status).toBe(200);
    await page.goto(new URL('/users', origin).toString());
    await page.getByRole('alert').filter({ hasText: 'Session expired' }).waitFor();
    await page.waitForURL('**/signin');
    expect(await page.evaluate(() => localStorage.getItem('obol.token'))).toBeNull();
    await context.close();
  });
});
