import { ALL_PERMISSIONS, type HistoryResponse, type HistoryRow } from '@obol/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session.ts';
import { prefsKey } from '../../lib/tablePrefs.ts';
import { callsTo, exportedFile, mockApi, pathname, renderApp, signInAs, type Handler } from '../../test-utils.tsx';
import { HISTORY_COLUMNS } from './columns.tsx';

// whole journeys through MUI selects and tables in jsdom take a few seconds
vi.setConfig({ testTimeout: 40_000 });

const CURRENT = {
  batch_id: 'B-7',
  merchant_name: 'Acme Payouts',
  file_name: 'march.csv',
  account_reference: 'OBL0000001',
  batch_status: 'Completed',
};

const trx = (i: number, over: Partial<HistoryRow> = {}): HistoryRow => ({
  id: i,
  beneficiary_name: `Beneficiary ${i}`,
  account_id: `10000000${i}`,
  intergiro_trx_id: `IG-${i}`,
  merchant_transaction_id: `M-${i}`,
  brand: 'Acme Brand',
  reference: `Invoice ${i}`,
  currency: 'EUR',
  amount: 1500,
  status: 'Completed',
  updated_at: '2026-03-01T10:00:00Z',
  failed_transaction: null,
  ...over,
});

const special = (i: number) =>
  i === 2
    ? trx(i, { status: 'Failed', intergiro_trx_id: null })
    : i === 3
      ? trx(i, { status: 'Failed', failed_transaction: { message: 'Wallet is closed' } })
      : trx(i);

function historyServer(total: number, extra: Record<string, Handler> = {}) {
  return mockApi({
    '/api/batch-history': (b) => {
      const { page, per_page } = b as { page: number; per_page: number };
      const all = Array.from({ length: total }, (_, i) => special(i + 1));
      const body: HistoryResponse = {
        data: all.slice((page - 1) * per_page, page * per_page),
        total,
        batch: { batch_id: 'B-7', file_name: 'march.csv', batch_status: 'Completed', merchant_name: 'Acme Payouts' },
      };
      return { body };
    },
    ...extra,
  });
}

function open(perms = ALL_PERMISSIONS) {
  signInAs(perms);
  sessionStore.setBatch(CURRENT);
  renderApp('/transactions-history');
}

const lastCall = (fetch: ReturnType<typeof mockApi>) => callsTo(fetch, '/api/batch-history').at(-1);

describe('transaction history of the current batch', () => {
  it('goes to the batch list without a current batch', async () => {
    historyServer(0);
    signInAs(ALL_PERMISSIONS);
    renderApp('/transactions-history');
    await waitFor(() => expect(pathname()).toBe('/batch-transactions'));
  });

  it('lists the batch transactions with the failure reason and its details', async () => {
    const fetch = historyServer(13);
    // this user chose to see every column (the currency starts hidden)
    const order = HISTORY_COLUMNS.map((c) => c.id);
    localStorage.setItem(prefsKey(1, 'transaction-history'), JSON.stringify({ order, hidden: [] }));
    open();
    expect(screen.getByRole('heading', { name: 'Transaction History' })).toBeTruthy();
    const sub = screen.getByRole('heading', { level: 2 });
    expect(sub.textContent).toContain('B-7');
    expect(sub.textContent).toContain('march.csv');
    await screen.findByText('Beneficiary 1');
    expect(callsTo(fetch, '/api/batch-history')[0]).toEqual({ batch_id: 'B-7', status: '', per_page: 10, page: 1 });
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      'Beneficiary Name',
      'Obol ID',
      'Transaction ID',
      'Currency',
      'Amount',
      'Timestamp',
      'Status',
      'Reason',
      'Action',
    ]);
    const cellsOf = (name: string) =>
      within(within(table).getByText(name).closest('tr')!)
        .getAllByRole('cell')
        .map((c) => c.textContent);
    expect(cellsOf('Beneficiary 1')).toEqual([
      'Beneficiary 1',
      '100000001',
      'IG-1',
      'EUR',
      '€15.00',
      expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      'Completed',
      '-',
      'View Details',
    ]);
    // the default reason, and the transaction's own message
    expect(cellsOf('Beneficiary 2')[2]).toBe('-');
    expect(cellsOf('Beneficiary 2')[7]).toBe('Brand does not match');
    expect(cellsOf('Beneficiary 3')[7]).toBe('Wallet is closed');
    expect(screen.getByRole('button', { name: 'Copy transaction id IG-1' })).toBeTruthy();

    const row2 = within(table).getByText('Beneficiary 2').closest('tr')!;
    await userEvent.click(within(row2).getByRole('button', { name: 'View Details' }));
    const dialog = await screen.findByRole('dialog');
    for (const t of [
      'Merchant Trx ID',
      'Transaction ID',
      'M-2',
      'Acme Brand',
      '100000002',
      'Invoice 2',
      'EUR',
      '€15.00',
    ])
      expect(within(dialog).getByText(t)).toBeTruthy();
    expect(within(dialog).getByText('Reason').nextElementSibling!.textContent).toBe('Brand does not match');
    expect(within(dialog).queryByTestId('details-banner')).toBeNull();
    // no extra call for the details
    expect(callsTo(fetch, '/api/transaction-details')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await userEvent.click(screen.getByRole('button', { name: 'Go to page 2' }));
    await screen.findByText('Beneficiary 11');
    // the empty status is named, not blank
    expect(screen.getByRole('combobox', { name: 'Status' }).textContent).toBe('All Transactions');
    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    for (const o of ['All Transactions', 'Completed', 'Pending', 'Failed'])
      expect(screen.getByRole('option', { name: o })).toBeTruthy();
    await userEvent.click(screen.getByRole('option', { name: 'Failed' }));
    await waitFor(() => expect(lastCall(fetch)).toEqual({ batch_id: 'B-7', status: 'failed', per_page: 10, page: 1 }));

    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(pathname()).toBe('/batch-transactions'));
  });

  it('needs both amounts for the range filter and sends them in cents', async () => {
    const fetch = historyServer(3);
    open();
    await screen.findByText('Beneficiary 1');
    const before = callsTo(fetch, '/api/batch-history').length;
    await userEvent.type(screen.getByLabelText('Min Amount (in cents)'), '100{Enter}');
    const form = screen.getByRole('form', { name: 'Amount filter' });
    expect(within(form).getByText('This field is required')).toBeTruthy();
    await userEvent.click(within(form).getByRole('button', { name: 'Search' }));
    expect(callsTo(fetch, '/api/batch-history')).toHaveLength(before);
    await userEvent.type(screen.getByLabelText('Max Amount (in cents)'), '2000{Enter}');
    await waitFor(() =>
      expect(lastCall(fetch)).toEqual({
        batch_id: 'B-7',
        status: '',
        per_page: 10,
        page: 1,
        min_amount: 100,
        max_amount: 2000,
      }),
    );
    expect(within(form).queryByText('This field is required')).toBeNull();
    await userEvent.click(within(form).getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(lastCall(fetch)).toEqual({ batch_id: 'B-7', status: '', per_page: 10, page: 1 }));
    expect((screen.getByLabelText('Min Amount (in cents)') as HTMLInputElement).value).toBe('');
  });

  it("shows the server's refusal of the range under its field", async () => {
    historyServer(3, {
      '/api/batch-history': (b) =>
        (b as { min_amount?: number }).min_amount !== undefined
          ? {
              status: 400,
              body: {
                error: ['Min amount must not be above max amount'],
                fields: { min_amount: ['Min amount must not be above max amount'] },
              },
            }
          : { body: { data: [trx(1)], total: 1, batch: CURRENT } },
    });
    open();
    await screen.findByText('Beneficiary 1');
    await userEvent.type(screen.getByLabelText('Min Amount (in cents)'), '500');
    await userEvent.type(screen.getByLabelText('Max Amount (in cents)'), '100{Enter}');
    const form = screen.getByRole('form', { name: 'Amount filter' });
    expect(await within(form).findByText('Min amount must not be above max amount')).toBeTruthy();
  });

  it('shows a batch still being processed', async () => {
    historyServer(0, {
      '/api/batch-history': () => ({ status: 402, body: { error: ['Batch is in processing state.'] } }),
    });
    open();
    expect(await screen.findByText('Batch is in processing state.')).toBeTruthy();
  });

  it('exports the batch with its status', async () => {
    const fetch = historyServer(3, {
      '/api/export-batch-history': () => ({ body: { message: ['ok'], file: exportedFile('batch-B-7.csv') } }),
    });
    open();
    await screen.findByText('Beneficiary 1');
    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    await userEvent.click(screen.getByRole('option', { name: 'Completed' }));
    await waitFor(() => expect(lastCall(fetch)).toMatchObject({ status: 'completed' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Export' }).hasAttribute('disabled')).toBe(false));
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Export as CSV' }));
    expect((await screen.findByRole('status')).textContent).toContain(
      'Process is running in the background. Please wait.',
    );
    expect(callsTo(fetch, '/api/export-batch-history')).toEqual([
      { batch_id: 'B-7', status: 'completed', format: 'csv' },
    ]);
  });

  it('disables Export when the batch has no rows', async () => {
    historyServer(0);
    open();
    expect(await screen.findByText('No Record Found')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Export' }).hasAttribute('disabled')).toBe(true);
  });

  it('hides the amount filter and Export without their permissions', async () => {
    historyServer(3);
    open(['User can view transactions']);
    await screen.findByText('Beneficiary 1');
    expect(screen.queryByLabelText('Min Amount (in cents)')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Export' })).toBeNull();
  });
});
