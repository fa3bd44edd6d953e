import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeNode {
  target: string[];
  failureSummary?: string;
}
interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  nodes: AxeNode[];
}

/** One line per violation: its rule, its impact, what it asks, and the first elements it found. */
function describe(v: AxeViolation): string {
  const where = v.nodes
    .slice(0, 4)
    .map((n) => n.target.join(' '))
    .join(', ');
  const more = v.nodes.length > 4 ? ` and ${v.nodes.length - 4} more` : '';
  return `${v.impact} ${v.id}: ${v.help} (${where}${more})`;
}

/** Serious and critical axe violations of the page as it is now (WCAG 2.x A and AA rules and best practices). */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  // the page's Content-Security-Policy forbids inline scripts: the context must be made with bypassCSP
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE_SOURCE });
  // colours are judged at rest: a transition caught half-way (a fading button, a ripple) is not what people read
  if (!(await page.evaluate(() => 'axe' in window && document.getElementById('a11y-no-motion')))) {
    await page.addStyleTag({
      content: '*, *::before, *::after { transition: none !important; animation: none !important; }',
    });
    await page.evaluate(() => {
      document.head.lastElementChild?.setAttribute('id', 'a11y-no-motion');
    });
  }
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: unknown[] }> } })
      .axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations;
  });
  return (violations as AxeViolation[]).filter((v) => v.impact === 'serious' || v.impact === 'critical').map(describe);
}

/** Fails, listing them, when the page has serious or critical accessibility violations. */
export async function expectNoSeriousA11y(page: Page, label: string): Promise<void> {
  expect(await seriousA11yViolations(page), `axe on ${label}`).toEqual([]);
}
