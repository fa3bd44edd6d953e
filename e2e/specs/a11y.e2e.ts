import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from '../lib/a11y.ts';
import { launch, newPage, signIn } from '../lib/browser.ts';
import { tourSignedIn, tourSignedOut } from '../lib/tour.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** A page in the given colour scheme; bypassCSP lets the check inject axe-core (the CSP forbids inline scripts). */
async function themedPage(scheme: 'light' | 'dark') {
  const { context, page } = await newPage(browser, undefined, { colorScheme: scheme, bypassCSP: true });
  await page.emulateMedia({ colorScheme: scheme });
  return { context, page };
}

/**
 * axe-core on every built screen, as staff (the admin) and as a merchant, in the light and the dark theme:
 * a serious or critical violation fails. Every screen is checked before the test fails, so the failure lists
 * all of them at once.
 */
describe('accessibility (axe: no serious or critical violations)', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`the sign-in pages, ${scheme}`, async () => {
      const { context, page } = await themedPage(scheme);
      const found: string[] = [];
      await tourSignedOut(page, async (label) => {
        for (const v of await seriousA11yViolations(page)) found.push(`${label} [${scheme}]: ${v}`);
      });
      await context.close();
      if (found.length) console.log(found.join('\n'));
      expect(found).toEqual([]);
    });

    for (const who of [
      { email: 'admin@obol.example', staff: true },
      { email: 'merchant@obol.example', staff: false },
    ]) {
      it(`every screen as ${who.email}, ${scheme}`, async () => {
        const { context, page } = await themedPage(scheme);
        await signIn(page, who.email);
        const found: string[] = [];
        const screens: string[] = [];
        await tourSignedIn(page, who.staff, async (label) => {
          screens.push(label);
          for (const v of await seriousA11yViolations(page)) found.push(`${label} [${scheme}]: ${v}`);
        });
        await context.close();
        if (found.length) console.log(found.join('\n'));
        expect(screens.length).toBeGreaterThanOrEqual(16);
        expect(found).toEqual([]);
        // the admin's tour visits ~30 screens, each checked by axe: ~3 minutes on a busy 2-core machine
      }, 360_000);
    }
  }
});
