import { NAVIGATION } from '@obol/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launch, linkFromMail, newPage, signIn } from '../lib/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** A page that records every Content-Security-Policy violation: the DOM event and the console's report of it. */
async function watchedPage(): Promise<{ context: BrowserContext; page: Page; violations: () => Promise<string[]> }> {
  const { context, page } = await newPage(browser);
  // injected through the browser's own protocol, so the policy does not apply to it
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  const reports: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) reports.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => reports.push(`page error: ${e.message}`));
  const violations = async () => [
    ...(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])),
    ...reports,
  ];
  return { context, page, violations };
}

describe('the web app under its Content-Security-Policy', () => {
  it('serves the sign-in page with the security headers and no inline script', async () => {
    const { context, page, violations } = await watchedPage();
    const res = await page.goto('/signin');
    const headers = res!.headers();
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['referrer-policy']).toBe('no-referrer');
    const html = await res!.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag, 'every script is a file').toMatch(/\ssrc=/);
    expect(html).not.toMatch(/<style\b|\sstyle=|\son\w+=/i);
    await page.getByLabel('Email', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await violations()).toEqual([]);
    // the watch itself works: an inline script added to the page is refused and reported
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__inline = 1';
      document.body.appendChild(s);
    });
    await expect.poll(violations).toContainEqual(expect.stringMatching(/^script-src-elem blocked inline/));
    expect(await page.evaluate(() => (window as unknown as { __inline?: number }).__inline)).toBeUndefined();
    await context.close();
  });

  // every screen of the menu is a page load of its own (about 25 of them)
  it('raises no violation through sign-in and on every screen of the menu', async () => {
    const { context, page, violations } = await watchedPage();
    await signIn(page, 'admin@obol.example');
    expect(await violations()).toEqual([]);
    const paths = NAVIGATION.flatMap((m) => [m.path, ...(m.items ?? []).map((i) => i.path)]).filter(
      (p): p is string => !!p,
    );
    expect(paths.length).toBeGreaterThan(15);
    for (const path of paths) {
      await page.goto(path);
      await page.getByRole('button', { name: 'Account menu' }).waitFor();
      // the live event stream keeps the network busy on a signed-in page: idle, or 1.5 s
      await page.waitForLoadState('networkidle', { timeout: 1500 }).catch(() => undefined);
      expect(await violations(), path).toEqual([]);
    }
    // menus, dialogs and the account menu are rendered at run time too
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menu').waitFor();
    expect(await violations()).toEqual([]);
    await context.close();
  }, 180_000);

  it('opens a password link without a violation, and its API calls carry no Referer', async () => {
    const email = 'risk-ops@obol.example';
    const since = Date.now();
    const res = await fetch(`${baseUrl()}/api/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    expect(res.status).toBe(200);
    const link = new URL(await linkFromMail(email, since));
    const { context, page, violations } = await watchedPage();
    const check = page.waitForRequest((r) => r.url().endsWith('/api/check-link-expiry'));
    await page.goto(link.pathname);
    const headers = await (await check).allHeaders();
    expect(headers.referer).toBeUndefined();
    await page.getByLabel('New password', { exact: true }).waitFor();
    expect(await violations()).toEqual([]);
    await context.close();
  });
});
