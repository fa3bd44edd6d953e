import type { Browser, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, DEMO_PASSWORD, launch, newPage, signIn } from '../lib/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

// a passkey belongs to a domain name: WebAuthn refuses an IP address such as 127.0.0.1 as the RP ID
const onLocalhost = () => baseUrl().replace('127.0.0.1', 'localhost');

/** Chromium's virtual authenticator (CDP WebAuthn domain): a platform passkey that verifies the user at once. */
async function virtualAuthenticator(cdp: CDPSession) {
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return authenticatorId;
}

async function passwordStep(page: Page, email: string) {
  await page.goto('/signin');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByLabel('Passkey').check();
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('passkeys', () => {
  it('adds a passkey in the profile, then signs in with the password and the passkey, then removes it', async () => {
    const email = 'accountant@obol.example';
    const { context, page } = await newPage(browser, undefined, { baseURL: onLocalhost() });
    const cdp = await context.newCDPSession(page);
    const authenticatorId = await virtualAuthenticator(cdp);

    await signIn(page, email);
    await page.goto('/user-profile');
    await page.getByRole('heading', { name: 'Passkeys' }).waitFor();
    await page.getByText('No passkeys yet.').waitFor();
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    const add = page.getByRole('dialog', { name: 'Add a passkey' });
    await add.getByLabel('Name').fill('E2E laptop');
    await add.getByLabel('Password').fill(DEMO_PASSWORD);
    await add.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('alert').filter({ hasText: 'Passkey added' }).waitFor();
    const item = page.getByRole('list', { name: 'Your passkeys' }).getByRole('listitem');
    await item.filter({ hasText: 'E2E laptop' }).filter({ hasText: 'Last used never' }).waitFor();
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0].rpId).toBe('localhost');

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL('**/signin');

    await passwordStep(page, email);
    await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
    await page.getByRole('alert').filter({ hasText: 'Logged In' }).waitFor();
    expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials[0].signCount).toBeGreaterThan(
      0,
    );

    await page.goto('/user-profile');
    await item.filter({ hasText: 'E2E laptop' }).filter({ hasNotText: 'Last used never' }).waitFor();
    await page.getByRole('button', { name: 'Remove E2E laptop' }).click();
    const remove = page.getByRole('dialog', { name: 'Remove passkey?' });
    await remove.getByLabel('Password').fill(DEMO_PASSWORD);
    await remove.getByRole('button', { name: 'Remove passkey' }).click();
    await page.getByRole('alert').filter({ hasText: 'Passkey removed' }).waitFor();
    await page.getByText('No passkeys yet.').waitFor();
    await context.close();
  });

  it('says so on the sign-in page when the account has no passkey', async () => {
    const { context, page } = await newPage(browser, undefined, { baseURL: onLocalhost() });
    await virtualAuthenticator(await context.newCDPSession(page));
    await passwordStep(page, 'brand@obol.example');
    await page
      .getByRole('alert')
      .filter({ hasText: 'No passkey is registered for this account. Choose another second factor.' })
      .first()
      .waitFor();
    expect(new URL(page.url()).pathname).toBe('/signin');
    await context.close();
  });
});
