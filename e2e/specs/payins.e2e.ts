import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFromMail, DEMO_PASSWORD, launch, newPage, signIn, rowMenuItem } from '../lib/browser.ts';
import { expectReceipt } from '../lib/receipts.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** The signed-in merchant's key pair, from API Keys (Decrypt Keys with the password). */
async function merchantKeys(page: Page) {
  await page.goto('/api-keys');
  const row = page.getByRole('row').filter({ hasText: 'merchant@obol.example' });
  await (await rowMenuItem(page, row, 'Decrypt keys')).click();
  const dialog = page.getByRole('dialog', { name: 'Decrypt API keys' });
  await dialog.getByLabel('Password').fill(DEMO_PASSWORD);
  await dialog.getByRole('button', { name: 'Decrypt' }).click();
  const keys = page.getByLabel('Decrypted keys');
  const publicKey = (await keys.getByText(/^pk_/).first().textContent())!.trim();
  const privateKey = (await keys.getByText(/^sk_/).first().textContent())!.trim();
  return { publicKey, privateKey };
}

/** Reloads the page until the row shows the text (a webhook or a job settles it meanwhile). */
async function untilRowShows(page: Page, row: ReturnType<Page['getByRole']>, text: string, exact = true) {
  await expect
    .poll(
      async () => {
        await page.reload();
        await row.waitFor();
        return row.getByText(text, { exact }).isVisible();
      },
      { timeout: 20_000, interval: 500 },
    )
    .toBe(true);
}

describe('pay-ins through the merchant API', () => {
  it('a buyer pays on the storefront and the hosted page; the merchant finds it Completed in /payin and refunds it', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'merchant@obol.example');
    const { publicKey, privateKey } = await merchantKeys(page);

    // the shop: a product, the buyer, the key; Pay goes to the provider's hosted page
    await page.goto('/merchant-site');
    await page.getByRole('heading', { name: 'Checkout' }).waitFor();
    await page.getByRole('radio', { name: /Stoneware mug/ }).click();
    await page.getByLabel('First name').fill('Ana');
    await page.getByLabel('Last name').fill('Novak');
    await page.getByLabel('Date of birth').fill('1990-04-12');
    await page.getByLabel('Merchant API key').fill(`${publicKey}:${privateKey}`);
    const order = (await page.getByText(/^Order shop-/).textContent())!.replace('Order ', '').trim();
    await page.getByRole('button', { name: 'Pay €12.00' }).click();
    await page.getByRole('heading', { name: 'Pay €12.00' }).waitFor();
    expect(await page.getByText(order).count()).toBeGreaterThan(0);
    await page.getByLabel('First name').fill('Ana');
    await page.getByLabel('Last name').fill('Novak');
    await page.getByRole('button', { name: 'Pay', exact: true }).click();

    // back at the shop with the outcome
    await page.waitForURL(/\/merchant-site\?order=/);
    await expect.poll(() => page.getByTestId('order-result').textContent()).toContain(`Order ${order}: paid`);

    // the merchant's pay-in list shows it Completed once the provider's webhook has settled it
    await page.goto('/payin');
    await page.getByRole('heading', { name: 'Payin Transactions', level: 1 }).waitFor();
    const payin = page.getByRole('row').filter({ hasText: order });
    await expect
      .poll(
        async () => {
          await page.reload();
          await payin.waitFor();
          return payin.getByText('Completed', { exact: true }).isVisible();
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(true);
    expect(await payin.getByText('€12.00').isVisible()).toBe(true);

    // the refund: confirm, the mailed code, submit; the provider completes it
    await payin.getByText('Not Refunded').waitFor();
    await payin.getByRole('button', { name: `Refund the pay-in ${order}` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Refund this pay-in?' });
    const since = Date.now();
    await confirm.getByRole('button', { name: 'Send code' }).click();
    const codeDialog = page.getByRole('dialog', { name: 'Enter the verification code' });
    await codeDialog.getByLabel('Verification code').fill(await codeFromMail('merchant@obol.example', since));
    await codeDialog.getByRole('button', { name: 'Submit' }).click();
    await codeDialog.waitFor({ state: 'hidden' });
    await expectReceipt(page, 'Refund requested', 'See it in Refund Transactions', '€12.00');
    await expect
      .poll(
        async () => {
          await page.reload();
          await payin.waitFor();
          return payin.getByText('Refund Completed').isVisible();
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(true);
    expect(await payin.getByRole('button', { name: `Refund the pay-in ${order}` }).isDisabled()).toBe(true);
    // and in Refund Transactions
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Refund Transactions' })
      .click();
    await page.waitForURL('**/refund');
    await page.getByRole('heading', { name: 'Refund Transactions', level: 1 }).waitFor();
    const refund = page.getByRole('row').filter({ hasText: order });
    await refund.getByText('Completed', { exact: true }).waitFor();
    expect(await refund.getByText('€12.00').isVisible()).toBe(true);
    await context.close();
  });

  it('a staff card payment with cashback: listed under CardEye with who took it; the reward is paid once from /payin-rewards', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'merchant@obol.example');
    const { publicKey, privateKey } = await merchantKeys(page);
    await page.goto('/merchant-site');
    await page.getByRole('heading', { name: 'Checkout' }).waitFor();
    await page.getByLabel('First name').fill('Ben');
    await page.getByLabel('Last name').fill('Berg');
    await page.getByLabel('Date of birth').fill('1985-09-30');
    await page.getByLabel(/Obol wallet for 5% cashback/).fill('100000001');
    await page.getByText('€1.24 back to this wallet once paid').waitFor();
    await page.getByRole('switch', { name: 'Card payment taken by our staff (CardEye)' }).check();
    await page.getByLabel('Staff member or till').fill('Till 4 (Maria)');
    await page.getByLabel('Merchant API key').fill(`${publicKey}:${privateKey}`);
    const order = (await page.getByText(/^Order shop-/).textContent())!.replace('Order ', '').trim();
    await page.getByRole('button', { name: 'Pay €24.90' }).click();
    await page.getByRole('heading', { name: 'Pay €24.90' }).waitFor();
    await page.getByLabel('First name').fill('Ben');
    await page.getByLabel('Last name').fill('Berg');
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.waitForURL(/\/merchant-site\?order=/);

    // CardEye Transactions, not Payin Transactions
    await page.goto('/cardeye');
    await page.getByRole('heading', { name: 'CardEye Transactions', level: 1 }).waitFor();
    const card = page.getByRole('row').filter({ hasText: order });
    await untilRowShows(page, card, 'Completed');
    expect(await card.getByText('Till 4 (Maria)').isVisible()).toBe(true);

    // the reward: confirm, then it is Rewarded and cannot be paid again
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Payin Rewards' }).click();
    await page.waitForURL('**/payin-rewards');
    await page.getByRole('heading', { name: 'Payin Rewards', level: 1 }).waitFor();
    const reward = page.getByRole('row').filter({ hasText: order });
    await reward.getByText('Not Rewarded').waitFor();
    expect(await reward.getByText('€1.24').isVisible()).toBe(true);
    await reward.getByRole('button', { name: `Update the reward of ${order}` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Update this reward?' });
    await confirm.getByRole('button', { name: 'Update reward' }).click();
    await page.getByText('Reward updated successfully.').waitFor();
    await expectReceipt(page, 'Reward paid', 'See it in Payin Rewards', '€1.24');
    await untilRowShows(page, reward, 'Paid');
    expect(await reward.getByText('Rewarded', { exact: true }).isVisible()).toBe(true);
    expect(await reward.getByRole('button', { name: `Update the reward of ${order}` }).isDisabled()).toBe(true);
    await context.close();
  });
});
