import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFromMail, DEMO_PASSWORD, launch, newPage, signIn } from '../lib/browser.ts';
import { settle } from '../lib/tour.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const PHONE = { width: 390, height: 844 };

/** How far the page reaches past the right edge of the screen (0: nothing to scroll sideways). */
async function expectNoSidewaysScroll(page: Page, label: string) {
  await settle(page);
  const overflow = await page.evaluate(() => {
    const doc = document.documentElement;
    // the widest element that sticks out, to name it in the failure
    let widest = '';
    let right = doc.clientWidth;
    for (const el of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
      const r = el.getBoundingClientRect().right;
      if (r > right + 1 && getComputedStyle(el).position !== 'fixed') {
        right = r;
        widest = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${Array.from(el.classList).slice(0, 2).join('.')}`;
      }
    }
    return { by: doc.scrollWidth - doc.clientWidth, widest };
  });
  // soft: the journey goes on, and the failure lists every screen that scrolls sideways
  expect
    .soft(overflow.by, `${label}: ${overflow.by}px wider than the phone (${overflow.widest})`)
    .toBeLessThanOrEqual(0);
}

describe('on a phone (390x844)', () => {
  it('a merchant signs in, makes a manual payout, finds it on the payout list and opens its details', async () => {
    const { context, page } = await newPage(browser, PHONE, { isMobile: true, hasTouch: true });
    await page.goto('/signin');
    await expectNoSidewaysScroll(page, 'sign-in');
    await signIn(page, 'merchant@obol.example');

    await page.goto('/payments');
    await page.getByText('Manual Payout', { exact: true }).waitFor();
    await expectNoSidewaysScroll(page, 'payments step 1');
    await page.getByText('Manual Payout', { exact: true }).click();
    const next = page.getByRole('button', { name: 'Next' });
    await expect.poll(() => next.isEnabled()).toBe(true);
    await expectNoSidewaysScroll(page, 'payments step 2');
    await next.click();
    const radio = page.getByRole('radio').first();
    const name = page.getByLabel('Beneficiary name');
    await radio.or(name).first().waitFor();
    if (await radio.isVisible()) {
      await expectNoSidewaysScroll(page, 'payments step 3');
      await radio.check();
      await page.getByRole('button', { name: 'Next' }).click();
    }
    await name.waitFor();
    await expectNoSidewaysScroll(page, 'payments step 4');
    // a name no other payout has, to find this one on the list
    const tag = Date.now()
      .toString(36)
      .replace(/\d/g, (d) => 'abcdefghij'[Number(d)]);
    const beneficiary = `Phone ${tag[0].toUpperCase()}${tag.slice(1)}`;
    await name.fill(beneficiary);
    await page.getByLabel('Brand').click();
    await page.getByRole('option', { name: 'Acme Brand' }).click();
    await page.getByLabel('Merchant transaction id').fill(`PHONE-${Date.now()}`);
    await page.getByLabel('Obol ID').fill('100000001');
    await page.getByLabel('Reference').fill('Phone payout');
    await page.getByLabel('Amount (cents)').fill('1200');
    const since = Date.now();
    await page.getByRole('button', { name: /create payout/i }).click();
    const code = await codeFromMail('merchant@obol.example', since);
    await page.getByLabel('Verification code', { exact: true }).fill(code);
    await expectNoSidewaysScroll(page, 'the code dialog');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL('**/recent-batches');
    await expectNoSidewaysScroll(page, 'recent batches');

    await page.goto('/payout-transactions');
    await page
      .getByRole('button', { name: /view details/i })
      .first()
      .waitFor();
    await expectNoSidewaysScroll(page, 'payout list');
    await page.getByRole('button', { name: /toggle search filters/i }).click();
    const filter = page.getByLabel(/beneficiary name/i);
    await filter.fill(beneficiary);
    await filter.press('Enter');
    const row = page.getByText(beneficiary, { exact: true }).first();
    await row.waitFor({ timeout: 20_000 });
    await expectNoSidewaysScroll(page, 'payout list, filtered');
    await page
      .getByRole('button', { name: /view details/i })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(beneficiary, { exact: true }).waitFor();
    await expectNoSidewaysScroll(page, 'payout details');
    await context.close();
  }, 120_000);

  it("a merchant's profile fits, with its keys revealed and the authenticator's QR code open", async () => {
    const { context, page } = await newPage(browser, PHONE);
    await signIn(page, 'merchant2@obol.example');
    await page.goto('/user-profile');
    await page.getByRole('button', { name: 'Reveal keys' }).click();
    const reveal = page.getByRole('dialog', { name: 'Reveal API keys' });
    await reveal.getByLabel('Password').fill(DEMO_PASSWORD);
    await reveal.getByRole('button', { name: 'Reveal' }).click();
    await reveal.waitFor({ state: 'hidden' });
    await page.getByTestId('private-key').filter({ hasText: /^sk_/ }).waitFor();
    await expectNoSidewaysScroll(page, 'profile with revealed keys');
    await page.getByRole('switch', { name: '2FA for payouts with an authenticator app' }).click();
    const ask = page.getByRole('dialog', { name: 'Set up an authenticator app' });
    await ask.getByLabel('Password').fill(DEMO_PASSWORD);
    await ask.getByRole('button', { name: 'Continue' }).click();
    const enrol = page.getByRole('dialog', { name: 'Scan the QR code' });
    await enrol.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    await expectNoSidewaysScroll(page, 'the authenticator QR code');
    await enrol.getByRole('button', { name: 'Cancel' }).click();
    await context.close();
  });
});
