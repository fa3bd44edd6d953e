import { ALL_PERMISSIONS, type BatchListRow } from '@obol/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { App } from '../app/App.tsx';
import { callsTo, mockApi, renderWithProviders, signInAs } from '../test-utils.tsx';
import { positiveInt, oneOf } from './urlState.ts';

vi.setConfig({ testTimeout: 60_000 });

let search = '';
/** the query string the app is at, and the browser's Back */
function Probe() {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    search = location.search;
  });
  return (
    <button type="button" onClick={() => navigate(-1)}>
      Browser back
    </button>
  );
}
const renderAt = (path: string) =>
  renderWithProviders(
    <>
      <App />
      <Probe />
    </>,
    path,
  );

function payoutServer() {
  return mockApi({
    '/api/payout-transactions': () => ({
      body: { transactions: { data: [], total: 95, total_estimated: false }, next_cursor: null, prev_cursor: null },
    }),
    '/api/brand-list': () => ({ body: { brand: [{ id: 1, name: 'Acme Brand' }] } }),
  });
}
const lastPayouts = (fetch: ReturnType<typeof mockApi>) => callsTo(fetch, '/api/payout-transactions').at(-1);

describe('list state in the URL', () => {
  it('reads status, sort, page, page size and filters from a shared link, the filter panel open', async () => {
    const fetch = payoutServer();
    signInAs(ALL_PERMISSIONS);
    renderAt(
      '/payout-transactions?status=Failed&sort=oldest&page=3&per_page=20&beneficiary_name=Ana&start_date=2026-01-02',
    );
    await waitFor(() =>
      expect(lastPayouts(fetch)).toEqual({
        status: 'Failed',
        'sort-by': 'ASC',
        per_page: 20,
        page: 3,
        beneficiary_name: 'Ana',
        start_date: '2026-01-02',
        end_date: '2026-01-02',
        tz: expect.any(String),
      }),
    );
    expect(screen.getByRole('combobox', { name: 'Status' }).textContent).toBe('Failed');
    expect(screen.getByRole('combobox', { name: 'Sort by date' }).textContent).toBe('Oldest first');
    expect((screen.getByLabelText('Beneficiary Name') as HTMLInputElement).value).toBe('Ana');
    expect((await screen.findByRole('button', { name: 'page 3' })).getAttribute('aria-current')).toBe('page');
  });

  it('falls back to the defaults for values it cannot use, without breaking', async () => {
    const fetch = payoutServer();
    signInAs(ALL_PERMISSIONS);
    renderAt('/payout-transactions?status=Nope&sort=sideways&page=-2&per_page=999&amount=-5&start_date=yesterday');
    await waitFor(() =>
      expect(lastPayouts(fetch)).toEqual({
        status: '',
        'sort-by': 'DESC',
        per_page: 10,
        page: 1,
        tz: expect.any(String),
      }),
    );
    expect(screen.getByRole('combobox', { name: 'Status' }).textContent).toBe('All Transactions');
  });

  it('writes committed changes to the URL and Back steps back through them', async () => {
    const fetch = payoutServer();
    signInAs(ALL_PERMISSIONS);
    renderAt('/payout-transactions');
    await waitFor(() => expect(lastPayouts(fetch)).toMatchObject({ page: 1 }));
    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    await userEvent.click(screen.getByRole('option', { name: 'Pending' }));
    await waitFor(() => expect(search).toBe('?status=Pending'));
    await userEvent.click(await screen.findByRole('button', { name: 'Go to page 2' }));
    await waitFor(() => expect(search).toBe('?status=Pending&page=2'));
    await userEvent.click(screen.getByRole('button', { name: 'Toggle search filters' }));
    await userEvent.type(screen.getByLabelText('Reference'), 'INV-9{Enter}');
    // a new search goes back to page 1
    await waitFor(() => expect(search).toBe('?status=Pending&reference=INV-9'));
    expect(lastPayouts(fetch)).toMatchObject({ status: 'Pending', page: 1, reference: 'INV-9' });

    await userEvent.click(screen.getByRole('button', { name: 'Browser back' }));
    await waitFor(() => expect(lastPayouts(fetch)).toMatchObject({ status: 'Pending', page: 2 }));
    expect(lastPayouts(fetch)).not.toHaveProperty('reference');
    expect((screen.getByLabelText('Reference') as HTMLInputElement).value).toBe('');
    await userEvent.click(screen.getByRole('button', { name: 'Browser back' }));
    await waitFor(() => expect(lastPayouts(fetch)).toMatchObject({ status: 'Pending', page: 1 }));
    await userEvent.click(screen.getByRole('button', { name: 'Browser back' }));
    await waitFor(() => expect(lastPayouts(fetch)).toMatchObject({ status: '', page: 1 }));
    expect(screen.getByRole('combobox', { name: 'Status' }).textContent).toBe('All Transactions');
  });

  it('puts a debounced search in the URL without a history entry per keystroke', async () => {
    const row: BatchListRow = {
      batch_id: 'B-1',
      payout_type: 'Batch Payout',
      uploaded_by: { name: 'Mia' },
      account_used: { name: 'Main', account_reference: 'OBL1' },
      behalf_of: { name: 'Acme' },
      file_name: 'march.csv',
      updated_at: '2026-03-01T10:00:00Z',
      batch_status: 'Completed',
      created_at: '2026-03-01T09:00:00Z',
      amount: 10_000,
      fee: 150,
      total_rows: 3,
      payouts: { completed: 3, failed: 0, in_flight: 0 },
    };
    const fetch = mockApi({ '/api/batches': () => ({ body: { data: [row], total: 30 } }) });
    signInAs(ALL_PERMISSIONS);
    renderAt('/batch-transactions?status=Pending');
    await waitFor(() => expect(callsTo(fetch, '/api/batches').at(-1)).toMatchObject({ status: 'Pending' }));
    expect(screen.getByRole('combobox', { name: 'Batch status' }).textContent).toBe('Pending');
    await userEvent.click(await screen.findByRole('button', { name: 'Go to page 2' }));
    await waitFor(() => expect(search).toBe('?status=Pending&page=2'));
    await userEvent.type(screen.getByLabelText('Search'), 'march');
    await waitFor(() => expect(search).toBe('?status=Pending&q=march'), { timeout: 3000 });
    expect(callsTo(fetch, '/api/batches').at(-1)).toMatchObject({ search: 'march', page: 1 });
    // the search replaced the page-2 entry: Back goes to the list before it
    await userEvent.click(screen.getByRole('button', { name: 'Browser back' }));
    await waitFor(() => expect(search).toBe('?status=Pending'));
    expect((screen.getByLabelText('Search') as HTMLInputElement).value).toBe('');
  });
});

describe('url values', () => {
  it('reads whole positive numbers and known values only', () => {
    expect(positiveInt('3', 1)).toBe(3);
    for (const bad of [null, '', '0', '-1', '1.5', 'abc', '99999999999']) expect(positiveInt(bad, 1)).toBe(1);
    expect(oneOf('b', ['a', 'b'], 'a')).toBe('b');
    expect(oneOf('c', ['a', 'b'], 'a')).toBe('a');
    expect(oneOf('20', [10, 20], 10)).toBe(20);
  });
});
