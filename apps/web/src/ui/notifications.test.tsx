import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { pathname, renderWithProviders } from '../test-utils.tsx';
import { downloadsPath, HEADER_HEIGHT, severityOf, snackbarHeight, useNotify } from './notifications.tsx';

describe('notifications', () => {
  it('map types to severities, unknown types to warning', () => {
    expect(severityOf('error')).toBe('error');
    expect(severityOf('success')).toBe('success');
    expect(severityOf('info')).toBe('info');
    expect(severityOf('whatever')).toBe('warning');
  });
  it('are taller when the text exceeds 65 characters', () => {
    expect(snackbarHeight('x'.repeat(65))).toBe(68);
    expect(snackbarHeight('x'.repeat(66))).toBe(88);
  });
  it('send See Downloads to the list of the type', () => {
    expect(downloadsPath('transactions')).toBe('/download-transactions');
    expect(downloadsPath('accounting-transactions')).toBe('/download-accounting-transactions');
    expect(downloadsPath('reports')).toBe('/download-reports');
  });
});

describe('the notification components', () => {
  function Buttons() {
    const { notify, notifyDownload } = useNotify();
    return (
      <>
        <button onClick={() => notify('success', 'Saved')}>short</button>
        <button onClick={() => notify('odd', 'y'.repeat(70))}>long</button>
        <button onClick={() => notifyDownload('accounting-transactions')}>download</button>
      </>
    );
  }

  it('shows a snackbar as an alert that closes itself after 2500 ms', async () => {
    renderWithProviders(<Buttons />);
    await userEvent.click(screen.getByRole('button', { name: 'short' }));
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Saved');
    expect(alert.className).toContain('Success');
    expect(getComputedStyle(alert).minHeight).toBe('68px');
    // below the header, not over its buttons
    expect(getComputedStyle(alert.closest('.MuiSnackbar-root')!).top).toBe(`${HEADER_HEIGHT + 8}px`);
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull(), { timeout: 4000 });
  });

  it('is taller for a long text and shows an unknown type as a warning', async () => {
    renderWithProviders(<Buttons />);
    await userEvent.click(screen.getByRole('button', { name: 'long' }));
    const alert = screen.getByRole('alert');
    expect(alert.className).toContain('Warning');
    expect(getComputedStyle(alert).minHeight).toBe('88px');
  });

  it('has a close button on every toast', async () => {
    renderWithProviders(<Buttons />);
    await userEvent.click(screen.getByRole('button', { name: 'short' }));
    await userEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('shows the download notification with See Downloads, which goes to the list of the type', async () => {
    renderWithProviders(<Buttons />);
    await userEvent.click(screen.getByRole('button', { name: 'download' }));
    // it outlives a toast
    await new Promise((r) => setTimeout(r, 2700));
    expect(screen.getByRole('status').textContent).toContain('Process is running in the background. Please wait.');
    await userEvent.click(screen.getByRole('button', { name: 'See Downloads' }));
    expect(pathname()).toBe('/download-accounting-transactions');
    // followed, it has done its work
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
  });

  it('closes the download notification with its close button', async () => {
    renderWithProviders(<Buttons />);
    await userEvent.click(screen.getByRole('button', { name: 'download' }));
    await userEvent.click(within(screen.getByRole('status')).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
  });

  it('keeps the download notification until it is closed, on any page', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderWithProviders(<Buttons />);
      fireEvent.click(screen.getByRole('button', { name: 'download' }));
      act(() => vi.advanceTimersByTime(60_000));
      expect(screen.getByRole('status')).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });
});
