import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * The receipt a money action leaves above the page (issue 48): found by its title, it shows the amount moved and a
 * link to the list the movement is in, and stays (across pages) until dismissed.
 */
export async function expectReceipt(page: Page, title: string, link: string, amount?: string) {
  const receipt = page.getByRole('region', { name: `Receipt: ${title}` });
  await receipt.waitFor();
  if (amount) expect(await receipt.getByText(amount, { exact: false }).count()).toBeGreaterThan(0);
  await receipt.getByRole('link', { name: link }).waitFor();
  for (const term of ['From', 'To', 'Reference', 'Status']) await receipt.getByText(term, { exact: true }).waitFor();
  return receipt;
}
