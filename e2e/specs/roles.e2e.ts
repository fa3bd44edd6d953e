import { DEFAULT_ROLE_PERMISSIONS, permissionLabel, type Permission } from '@obol/contract';
import type { Browser, Page } from 'playwright-core';
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

/** Puts a role back to its seeded permissions through the API, with the admin's session in `page`. */
async function restore(page: Page, role: 'Finance') {
  const status = await page.evaluate(
    async ([role_name, permission_name]) => {
      const token = localStorage.getItem('obol.token');
      const r = await fetch('/api/update-permission', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ role_name, permission_name }),
      });
      return r.status;
    },
    [role, [...DEFAULT_ROLE_PERMISSIONS[role]]] as const,
  );
  expect(status).toBe(200);
}

/**
 * Edit a role in the editor: toggles the checkboxes of the permissions (shown by their plain labels), then
 * Update and its confirmation, which names the change in those labels.
 */
async function editRole(page: Page, role: string, toggle: Permission[]) {
  await page.goto('/roles-permissions');
  await page.getByRole('button', { name: `Edit ${role}` }).click();
  const editor = page.getByRole('dialog', { name: `Edit ${role} permissions` });
  const update = editor.getByRole('button', { name: 'Update' });
  await editor.getByLabel(permissionLabel(toggle[0]), { exact: true }).waitFor();
  await expect(update.isDisabled()).resolves.toBe(true);
  for (const p of toggle) await editor.getByLabel(permissionLabel(p), { exact: true }).click();
  await update.click();
  const confirm = page.getByRole('alertdialog', { name: `Update the ${role} role?` });
  await expect(confirm.textContent()).resolves.toContain(permissionLabel(toggle[0]));
  await confirm.getByRole('button', { name: 'Update' }).click();
  await page.getByRole('alert').filter({ hasText: 'Role Updated Successfully' }).waitFor();
  await editor.waitFor({ state: 'hidden' });
}

describe('roles and permissions', () => {
  it("a role edit changes a signed-in user's menu on their next navigation", async () => {
    const admin = await newPage(browser);
    const finance = await newPage(browser);
    try {
      await signIn(finance.page, 'finance@obol.example');
      const nav = finance.page.getByRole('navigation', { name: 'Main menu' });
      const transactions = nav.getByRole('button', { name: 'Transactions', exact: true });
      const reports = nav.getByRole('button', { name: 'Reports', exact: true });
      await transactions.waitFor();

      await signIn(admin.page, 'admin@obol.example');
      // the card of Finance counts its user, and its users page lists them
      await admin.page.goto('/roles-permissions');
      await admin.page.getByRole('heading', { name: 'Roles & Permissions', level: 1 }).waitFor();
      await admin.page.getByRole('link', { name: 'View users against role Finance' }).click();
      await admin.page.waitForURL('**/roles-permissions/Finance');
      await admin.page.getByRole('heading', { name: 'Users with Finance role' }).waitFor();
      await admin.page.getByRole('cell', { name: 'finance@obol.example' }).waitFor();

      // unticking the view of Transactions clears the screen's other permissions
      await editRole(admin.page, 'Finance', ['User can view transactions']);

      // Finance's next navigation re-reads the permissions: the Transactions menu is gone
      await finance.page.getByRole('button', { name: /^Account menu/ }).click();
      await finance.page.getByRole('menuitem', { name: 'User Profile' }).click();
      await finance.page.waitForURL('**/user-profile');
      await transactions.waitFor({ state: 'detached' });
      await reports.waitFor();
      // and the screens it guarded are closed
      await finance.page.goto('/payout-transactions');
      await finance.page.getByRole('heading', { name: 'No access' }).waitFor();

      // restore through the editor: the view and the screen's other permissions
      await editRole(admin.page, 'Finance', [
        'User can view transactions',
        'User can search',
        'User can export transactions',
      ]);
      await finance.page.getByRole('button', { name: 'Back to my start page' }).click();
      await transactions.waitFor();
    } finally {
      await restore(admin.page, 'Finance').catch(() => undefined);
      await admin.context.close();
      await finance.context.close();
    }
  });

  it('fits a phone (390 px): the cards, the editor and the users of a role', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 }, { isMobile: true, hasTouch: true });
    const sideways = async () => {
      await settle(page);
      return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    };
    try {
      await signIn(page, 'admin@obol.example');
      await page.goto('/roles-permissions');
      await page.getByRole('button', { name: 'Edit Finance' }).waitFor();
      expect(await sideways(), 'cards').toBeLessThanOrEqual(0);
      await page.getByRole('button', { name: 'Edit Finance' }).click();
      const editor = page.getByRole('dialog', { name: 'Edit Finance permissions' });
      await editor.getByLabel(permissionLabel('User can view transactions'), { exact: true }).waitFor();
      expect(await sideways(), 'editor').toBeLessThanOrEqual(0);
      await editor.getByRole('button', { name: 'Cancel' }).click();
      await page.goto('/roles-permissions/Finance');
      await page.getByText('finance@obol.example').waitFor();
      expect(await sideways(), 'users of a role').toBeLessThanOrEqual(0);
    } finally {
      await context.close();
    }
  });
});
