import type { Download, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** The note a background job leaves ("Process is running in the background…"), with its See Downloads button. */
export const backgroundNote = (page: Page): Locator =>
  page.getByRole('status').filter({ hasText: 'Process is running in the background. Please wait.' });

/** Exports the list on screen through its Export menu (`item`: 'Export as CSV', ...); answers the job's note. */
export async function exportList(page: Page, item: string): Promise<Locator> {
  const exportButton = page.getByRole('button', { name: 'Export', exact: true });
  await expect.poll(() => exportButton.isEnabled()).toBe(true);
  await exportButton.click();
  await page.getByRole('menuitem', { name: item }).click();
  const note = backgroundNote(page);
  await note.waitFor();
  return note;
}

/**
 * On a download list: the newest file whose row matches `name`, once it has turned Completed by itself (the list
 * polls while a file is being written), downloaded with its Download button.
 */
export async function downloadWhenReady(page: Page, name: RegExp | string): Promise<Download> {
  const row = page.locator('tbody tr').filter({ hasText: name }).first();
  await row.getByText('Completed', { exact: true }).waitFor({ timeout: 30_000 });
  const button = row.getByRole('button', { name: /^Download / });
  await expect.poll(() => button.isEnabled()).toBe(true);
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  return download;
}
