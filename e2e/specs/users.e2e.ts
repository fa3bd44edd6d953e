import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, linkFromMail, newPage, signIn, rowMenuItem, closeMenu } from '../lib/browser.ts';
import { settle } from '../lib/tour.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const NEW_PASSWORD = 'Invited@2026';

/** The admin, on the Users screen, invites a staff user through the dialog; answers when the invitation was mailed. */
async function invite(page: Page, name: string, email: string, role: string): Promise<number> {
  await page.goto('/users');
  await page.getByRole('button', { name: 'Invite user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite user' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: role, exact: true }).click();
  const since = Date.now();
  await dialog.getByRole('button', { name: 'Invite' }).click();
  await page.getByRole('alert').filter({ hasText: 'User invited successfully' }).waitFor();
  await dialog.waitFor({ state: 'hidden' });
  return since;
}

/** The invitee opens the link of the mail and sets a password. */
async function acceptInvitation(page: Page, email: string, since: number) {
  const link = new URL(await linkFromMail(email, since));
  await page.goto(link.pathname);
  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('Confirm password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByText('Your new password is set. Sign in with it.').waitFor();
}

/** The row of a user in the list, found by the search box. */
async function findUser(page: Page, email: string) {
  await page.getByLabel('Search').fill(email);
  const row = page.getByRole('row').filter({ hasText: email });
  await row.waitFor();
  return row;
}

describe('users administration', () => {
  it('the admin invites a user, who sets a password from the mail and signs in', async () => {
    const email = `ivy.${Date.now()}@obol.example`;
    const admin = await newPage(browser);
    await signIn(admin.page, 'admin@obol.example');
    const since = await invite(admin.page, 'Ivy Invited', email, 'Accountant');
    const row = await findUser(admin.page, email);
    // not verified yet: resend is possible, the switch is not
    expect(await (await rowMenuItem(admin.page, row, /^Resend/)).getAttribute('aria-disabled')).toBeNull();
    await closeMenu(admin.page);
    expect(await row.getByRole('switch', { name: 'Active: Ivy Invited' }).isDisabled()).toBe(true);

    const invitee = await newPage(browser);
    await acceptInvitation(invitee.page, email, since);
    await signIn(invitee.page, email, NEW_PASSWORD);
    await invitee.page.getByRole('alert').filter({ hasText: 'Logged In' }).waitFor();

    // verified now: the admin's list says so after a reload
    await admin.page.reload();
    const verified = await findUser(admin.page, email);
    expect(await (await rowMenuItem(admin.page, verified, /^Resend/)).getAttribute('aria-disabled')).toBe('true');
    await closeMenu(admin.page);
    expect(await verified.getByRole('switch', { name: 'Active: Ivy Invited' }).isEnabled()).toBe(true);
    await invitee.context.close();
    await admin.context.close();
  });

  it('a deactivated user, signed in elsewhere, is sent to sign-in on their next action', async () => {
    const email = `dan.${Date.now()}@obol.example`;
    const admin = await newPage(browser);
    await signIn(admin.page, 'admin@obol.example');
    const since = await invite(admin.page, 'Dan Deactivated', email, 'Accountant');
    const user = await newPage(browser);
    await acceptInvitation(user.page, email, since);
    await signIn(user.page, email, NEW_PASSWORD);

    await admin.page.reload();
    const row = await findUser(admin.page, email);
    await row.getByRole('switch', { name: 'Active: Dan Deactivated' }).click();
    const confirm = admin.page.getByRole('alertdialog', { name: 'Deactivate Dan Deactivated?' });
    await confirm.getByText('User will no longer perform any action!').waitFor();
    await confirm.getByRole('button', { name: 'Deactivate' }).click();
    await admin.page.getByRole('alert').filter({ hasText: 'Status Updated.' }).waitFor();
    await row.getByText('Inactive').waitFor();

    // the user's next action: open the profile from the account menu
    await user.page.getByRole('button', { name: 'Account menu' }).click();
    await user.page.getByRole('menuitem', { name: 'User Profile' }).click();
    await user.page.waitForURL('**/signin');
    await user.page.getByRole('alert').filter({ hasText: 'Session expired' }).waitFor();
    await user.context.close();
    await admin.context.close();
  });

  it('on a phone (390 px) the list turns to cards with their actions, and nothing scrolls sideways', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 }, { isMobile: true, hasTouch: true });
    await signIn(page, 'merchant@obol.example');
    await page.goto('/users');
    const card = page.locator('[data-row-card]').filter({ hasText: 'finance@obol.example' });
    await card.getByRole('button', { name: /^Actions for / }).waitFor();
    await card.getByRole('switch').waitFor();
    const sideways = async () => {
      await settle(page);
      return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    };
    expect(await sideways()).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: 'Invite user' }).click();
    await page.getByRole('dialog', { name: 'Invite user' }).waitFor();
    expect(await sideways()).toBeLessThanOrEqual(0);
    await context.close();
  });
});
