import { NAVIGATION, visibleNavigation, DEFAULT_ROLE_PERMISSIONS } from '@obol/contract';
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

const topLabels = (perms: readonly string[]) => visibleNavigation(perms).map((m) => m.label);

describe('the web shell', () => {
  it('the admin signs in with the e-mailed code and sees every menu', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'admin@obol.example');
    await page.getByRole('alert').filter({ hasText: 'Logged In' }).waitFor();
    const nav = page.getByRole('navigation');
    for (const menu of NAVIGATION) {
      await expect(
        nav
          .getByRole('button', { name: menu.label, exact: true })
          .or(nav.getByRole('link', { name: menu.label, exact: true }))
          .count(),
      ).resolves.toBe(1);
    }
    // every item of a menu is there
    for (const menu of NAVIGATION.filter((m) => m.items)) {
      await nav.getByRole('button', { name: menu.label, exact: true }).click();
      for (const item of menu.items!) {
        await expect(page.getByRole('menuitem', { name: item.label, exact: true }).count()).resolves.toBe(1);
      }
      await page.keyboard.press('Escape');
    }
    // avatar initials of "Ada Admin"
    await expect(page.getByRole('button', { name: 'Account menu' }).textContent()).resolves.toContain('AA');
    await context.close();
  });

  it('the brand user sees only its menus and is refused other screens', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'brand@obol.example');
    const nav = page.getByRole('navigation');
    const expected = topLabels(DEFAULT_ROLE_PERMISSIONS.Brand);
    for (const menu of NAVIGATION) {
      const n = await nav
        .getByRole('button', { name: menu.label, exact: true })
        .or(nav.getByRole('link', { name: menu.label, exact: true }))
        .count();
      expect(n, `${menu.label} shown for brand`).toBe(expected.includes(menu.label) ? 1 : 0);
    }
    expect(expected).not.toContain('Users');
    await page.goto('/users');
    await expect(page.getByRole('heading', { name: 'No access' }).isVisible()).resolves.toBe(true);
    await context.close();
  });

  it('a revoked session shows "Session expired" and lands on /signin', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'manager@obol.example');
    const token = await page.evaluate(() => localStorage.getItem('obol.token'));
    expect(token).toBeTruthy();
    // the session ends on the server (as an idle expiry or a sign-out elsewhere would)
    const r = await fetch(new URL('/api/logout', page.url()), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(r.status).toBe(200);
    await page.goto('/users');
    await page.getByRole('alert').filter({ hasText: 'Session expired' }).waitFor();
    await page.waitForURL('**/signin');
    expect(await page.evaluate(() => localStorage.getItem('obol.token'))).toBeNull();
    await context.close();
  });
});
