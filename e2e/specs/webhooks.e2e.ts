import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, launch, newPage, signIn, rowMenuItem } from '../lib/browser.ts';

let browser: Browser;
let receiver: Server;
let base: string;
const heard: { signature: string; body: string; json: { type: string; data: { object: { status: string } } } }[] = [];

beforeAll(async () => {
  browser = await launch();
  // the merchant's own system: takes whatever Obol posts
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      heard.push({ signature: String(req.headers['obol-signature']), body, json: JSON.parse(body) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  receiver?.close();
  await browser?.close();
});

describe('merchant webhooks', () => {
  it('a merchant adds an endpoint, a buyer pays, and its system hears a signed payin.completed', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'merchant@obol.example');
    // the demo shop's own receiving address, shown on its page
    await page.goto('/merchant-site');
    const shopAddress = await page.getByRole('textbox', { name: 'Webhook address' }).inputValue();
    await page.goto('/api-keys');
    const panel = page.getByRole('region', { name: 'Webhooks' });
    const addEndpoint = async (url: string) => {
      // the panel's own button (an empty list offers a second one)
      await panel.getByRole('button', { name: 'Add endpoint' }).first().click();
      const add = page.getByRole('dialog', { name: 'Add webhook endpoint' });
      await add.getByRole('textbox', { name: 'Endpoint URL' }).fill(url);
      for (const box of await add.getByRole('checkbox').all()) await box.uncheck();
      await add.getByRole('checkbox', { name: 'Pay-in completed' }).check();
      await add.getByRole('button', { name: 'Add endpoint' }).click();
      await add.waitFor({ state: 'hidden' });
      const shown = (await panel.getByText(/^whsec_/).textContent())!.trim();
      await panel.getByRole('button', { name: 'Done' }).click();
      await panel.getByRole('row').filter({ hasText: url }).getByText('payin.completed').waitFor();
      return shown;
    };
    const secret = await addEndpoint(`${base}/obol`);
    const shopSecret = await addEndpoint(shopAddress);

    // the merchant's keys, for its shop
    const row = page.getByRole('row').filter({ hasText: 'merchant@obol.example' });
    await (await rowMenuItem(page, row, 'Decrypt keys')).click();
    const decrypt = page.getByRole('dialog', { name: 'Decrypt API keys' });
    await decrypt.getByLabel('Password').fill(DEMO_PASSWORD);
    await decrypt.getByRole('button', { name: 'Decrypt' }).click();
    const keys = page.getByLabel('Decrypted keys');
    const apiKey = `${(await keys.getByText(/^pk_/).first().textContent())!.trim()}:${(await keys
      .getByText(/^sk_/)
      .first()
      .textContent())!.trim()}`;

    // a buyer pays on the storefront and the provider's hosted page
    await page.goto('/merchant-site');
    await page.getByRole('radio', { name: /Stoneware mug/ }).click();
    await page.getByLabel('First name').fill('Ana');
    await page.getByLabel('Last name').fill('Novak');
    await page.getByLabel('Date of birth').fill('1990-04-12');
    await page.getByLabel('Merchant API key').fill(apiKey);
    await page.getByLabel('Signing secret').fill(shopSecret);
    await page.getByRole('button', { name: 'Pay €12.00' }).click();
    await page.getByRole('heading', { name: 'Pay €12.00' }).waitFor();
    await page.getByLabel('First name').fill('Ana');
    await page.getByLabel('Last name').fill('Novak');
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.waitForURL(/\/merchant-site\?order=/);

    // its system hears it, signed with the secret it was shown
    await expect.poll(() => heard.length, { timeout: 30_000, interval: 250 }).toBeGreaterThan(0);
    const h = heard[0];
    expect(h.json.type).toBe('payin.completed');
    expect(h.json.data.object.status).toBe('Completed');
    const t = /t=(\d+)/.exec(h.signature)![1];
    expect(h.signature).toContain(`v1=${createHmac('sha256', secret).update(`${t}.${h.body}`).digest('hex')}`);

    // the shop's page shows it too, its signature checked with the secret the shop was given
    const received = page.getByRole('list', { name: 'Received events' }).getByRole('listitem').first();
    await received.getByText('payin.completed').waitFor({ timeout: 30_000 });
    await received.getByText('Signature verified').waitFor();

    // and the delivery log says so
    await page.goto('/api-keys');
    await panel.getByRole('button', { name: `Deliveries to ${base}/obol` }).click();
    const log = page.getByRole('dialog', { name: /^Deliveries to / });
    await log.getByText('Succeeded').first().waitFor();
    expect(await log.getByText('payin.completed').first().isVisible()).toBe(true);
    await log.getByRole('button', { name: 'Close' }).click();
    for (const url of [`${base}/obol`, shopAddress]) {
      await panel.getByRole('button', { name: `Remove ${url}` }).click();
      await page
        .getByRole('alertdialog', { name: 'Remove this endpoint?' })
        .getByRole('button', { name: 'Remove endpoint' })
        .click();
      await panel.getByRole('row').filter({ hasText: url }).waitFor({ state: 'detached' });
    }
    await context.close();
  });
});
