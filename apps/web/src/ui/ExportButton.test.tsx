import { MSG } from '@obol/contract';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../lib/api.ts';
import { renderWithProviders } from '../test-utils.tsx';
import { ExportButton } from './ExportButton.tsx';

async function exportWith(onExport: () => Promise<unknown>) {
  renderWithProviders(<ExportButton disabled={false} onExport={onExport} />);
  await userEvent.click(screen.getByRole('button', { name: 'Export' }));
  await userEvent.click(screen.getByRole('menuitem', { name: 'Export as CSV' }));
}

describe('ExportButton', () => {
  it('says the spec’s "No record found" when the filters match nothing', async () => {
    await exportWith(() => Promise.reject(new ApiError(404, { error: [MSG.exportNoRecord] })));
    expect((await screen.findByRole('alert')).textContent).toContain('No record found');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says "Something went wrong" when the export fails otherwise', async () => {
    await exportWith(() => Promise.reject(new ApiError(500, { error: ['Something went wrong!'] })));
    expect((await screen.findByRole('alert')).textContent).toContain('Something went wrong');
  });

  it('says "Something went wrong" when the server cannot be reached', async () => {
    await exportWith(() => Promise.reject(new TypeError('Failed to fetch')));
    expect((await screen.findByRole('alert')).textContent).toContain(MSG.exportFailed);
  });

  it('shows the download notification when the export starts', async () => {
    await exportWith(() => Promise.resolve({}));
    expect((await screen.findByRole('status')).textContent).toContain(MSG.processingBackground);
  });
});
