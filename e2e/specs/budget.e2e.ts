import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { format, measure, SIGN_IN_BUDGET } from '../../apps/web/tools/bundle-size.ts';
import { launch, newPage } from '../lib/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;

/** Issue 14: at most 200 kB of JavaScript on the wire for the sign-in page. */
describe('the first load', () => {
  it('the built sign-in page loads at most 200 kB of JavaScript (brotli)', () => {
    const report = measure();
    console.log(format(report));
    expect(report.signIn.brotli, `sign-in JS ${kB(report.signIn.brotli)} brotli`).toBeLessThanOrEqual(SIGN_IN_BUDGET);
  });

  it('the browser gets the sign-in page compressed, within the budget, its scripts cached for a year', async () => {
    const { context, page } = await newPage(browser);
    const scripts: { url: string; encoding?: string; cache?: string }[] = [];
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script')
        scripts.push({ url: r.url(), encoding: r.headers()['content-encoding'], cache: r.headers()['cache-control'] });
    });
    await page.goto('/signin');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.waitForLoadState('networkidle');
    const onTheWire = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((e) => (e as PerformanceResourceTiming).initiatorType === 'script' || e.name.endsWith('.js'))
        .reduce((sum, e) => sum + (e as PerformanceResourceTiming).encodedBodySize, 0),
    );
    await context.close();
    console.log(`sign-in page: ${scripts.length} scripts, ${kB(onTheWire)} on the wire`);
    expect(scripts.length).toBeGreaterThan(0);
    for (const s of scripts) {
      expect(s.encoding, s.url).toBe('br');
      expect(s.cache, s.url).toBe('public, max-age=31536000, immutable');
    }
    expect(onTheWire, `sign-in JS on the wire ${kB(onTheWire)}`).toBeLessThanOrEqual(SIGN_IN_BUDGET);
  });
});
