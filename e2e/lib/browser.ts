import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Locator,
  type Page,
} from 'playwright-core';
import { inject } from 'vitest';

export const baseUrl = () => inject('baseUrl');
export const DEMO_PASSWORD = 'Obol@2026';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

export async function newPage(
  browser: Browser,
  viewport = { width: 1400, height: 900 },
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport, ...options });
  const page = await context.newPage();
  return { context, page };
}

/** The text of an .eml file: quoted-printable soft breaks and escapes undone. */
function decodeMail(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** The first match of `pattern` in the newest mail written for this recipient after `since`. */
async function fromMail(email: string, since: number, pattern: RegExp, timeoutMs: number): Promise<string> {
  const dir = path.join(inject('dataDir'), 'mail');
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    try {
      const files = readdirSync(dir)
        .filter((f) => f.endsWith(`-${email}.eml`))
        .map((f) => path.join(dir, f))
        .filter((f) => statSync(f).mtimeMs >= since - 5)
        .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
      for (const f of files) {
        const m = pattern.exec(decodeMail(readFileSync(f, 'utf8')));
        if (m) return m[1];
      }
    } catch {
      /* folder not there yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no mail to ${email} matching ${pattern}`);
}

/** The one-time code of the newest mail written for this recipient after `since`. */
export const codeFromMail = (email: string, since: number, timeoutMs = 10_000) =>
  fromMail(email, since, / is (\d{6})\./, timeoutMs);

/** The password link of the newest mail written for this recipient after `since`. */
export const linkFromMail = (email: string, since: number, timeoutMs = 10_000) =>
  fromMail(email, since, /(https?:\/\/\S+\/new-password\/\S+)/, timeoutMs);

/** The consent link of the newest mail written for this recipient after `since` (a company's registration). */
export const consentLinkFromMail = (email: string, since: number, timeoutMs = 10_000) =>
  fromMail(email, since, /(https?:\/\/\S+\/consent-approve\?token=\S+)/, timeoutMs);

/** Signs in through the sign-in pages with the e-mailed code. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto('/signin');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('E-mail code').check();
  const since = Date.now();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/signin/authentication');
  const code = await codeFromMail(email, since);
  await page.getByLabel('Code', { exact: true }).fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
  // the shell is up
  await page.getByRole('button', { name: 'Account menu' }).waitFor();
}

/**
 * An item of a row's labelled "Actions" menu (a row with three or more actions): opens the menu of the row (or
 * card) `scope` and gives the item, named by its text (a disabled one also carries its reason).
 */
export async function rowMenuItem(page: Page, scope: Locator, text: string | RegExp): Promise<Locator> {
  await scope.getByRole('button', { name: /^Actions for / }).click();
  const item = page.getByRole('menu', { name: /^Actions for / }).getByRole('menuitem', { name: text });
  await item.waitFor();
  return item;
}

/** Closes an open menu. */
export async function closeMenu(page: Page) {
  await page.keyboard.press('Escape');
  await page.getByRole('menu').waitFor({ state: 'hidden' });
}
