import {
  ALL_PERMISSIONS,
  type BatchListRow,
  type CompletedListResponse,
  type CompletedRow,
  type HistoryResponse,
  type TransactionDetails,
} from '@obol/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { EXPORT_BATCH_HINT } from '../../features/batches/BatchList.tsx';
import { sessionStore } from '../../lib/session.ts';
import { prefsKey } from '../../lib/tablePrefs.ts';
import { callsTo, exportedFile, mockApi, pathname, renderApp, signInAs, type Handler } from '../../test-utils.tsx';

// whole journeys through MUI selects and tables in jsdom take a few seconds
vi.setConfig({ testTimeout: 40_000 });

const batch = (i: number, over: Partial<BatchListRow> = {}): BatchListRow => ({
  batch_id: `B-${i}`,
  payout_type: 'Batch Payout',
  uploaded_by: { name: 'Mia Manager' },
  account_used: { name: 'Main account', account_reference: 'OBL0000001' },
  behalf_of: { name: 'Acme Payouts' },
  file_name: `file-${i}.csv`,
  updated_at: '2026-03-01T10:00:00Z',
  created_at: '2026-03-01T09:59:00Z',
  batch_status: 'Completed',
  amount: 5000,
  fee: 75,
  total_rows: 3,
  payouts: { completed: 0, failed: 0, in_flight: 0 },
  ...over,
});

const history = (over: Partial<HistoryResponse> = {}): HistoryResponse => ({
  data: [],
  total: 0,
  batch: { batch_id: 'B-1', file_name: 'file-1.csv', batch_status: 'Completed', merchant_name: 'Acme Payouts' },
  ...over,
});

type Page = { page: number; per_page: number };
function batchServer(total: number, extra: Record<string, Handler> = {}) {
  const list: Handler = (b) => {
    const { page, per_page } = b as Page;
    const all = Array.from({ length: total }, (_, i) => batch(i + 1, i === 1 ? { batch_status: 'Pending' } : {}));
    return { body: { data: all.slice((page - 1) * per_page, page * per_page), total } };
  };
  return mockApi({ '/api/batches': list, '/api/recent-batches': list, ...extra });
}

describe('batch transactions: the batch list', () => {
  it('lists batches 10 a page with a status filter and a debounced search', async () => {
    const fetch = batchServer(23);
    signInAs(ALL_PERMISSIONS);
    // this user chose to see every column (who uploaded it and from which account start hidden)
    const order = [
      'batch_id',
      'payout_type',
      'uploaded_by',
      'account_used',
      'behalf_of',
      'file_name',
      'timestamp',
      'status',
    ];
    localStorage.setItem(prefsKey(1, 'batches'), JSON.stringify({ order, hidden: [] }));
    renderApp('/batch-transactions');
    expect(screen.getByRole('heading', { name: 'Batch Transactions' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Batches' }).getAttribute('aria-selected')).toBe('true');
    await screen.findByText('B-1');
    expect(callsTo(fetch, '/api/batches')[0]).toEqual({ per_page: 10, page: 1, search: '', status: '' });
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      'Batch ID',
      'Payout Type',
      'Uploaded By',
      'Account Used',
      'Behalf Of',
      'File Name',
      'Timestamp',
      'Batch Status',
      'Action',
    ]);
    expect(within(table).getAllByRole('row')).toHaveLength(11);
    const first = within(table).getByText('B-1').closest('tr')!;
    expect(
      within(first)
        .getAllByRole('cell')
        .slice(0, 8)
        .map((c) => c.textContent),
    ).toEqual([
      'B-1',
      'Batch Payout',
      'Mia Manager',
      'Main account',
      'Acme Payouts',
      'file-1.csv',
      expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      'Completed',
    ]);
    expect(within(table).getByText('Pending').closest('[data-tone]')!.getAttribute('data-tone')).toBe('amber');

    await userEvent.click(screen.getByRole('button', { name: 'Go to page 3' }));
    await screen.findByText('B-21');
    expect(screen.getByRole('combobox', { name: 'Batch status' }).textContent).toBe('All Batches');
    await userEvent.click(screen.getByRole('combobox', { name: 'Batch status' }));
    for (const o of ['All Batches', 'Completed', 'Pending', 'Declined'])
      expect(screen.getByRole('option', { name: o })).toBeTruthy();
    await userEvent.click(screen.getByRole('option', { name: 'Declined' }));
    await waitFor(() =>
      expect(callsTo(fetch, '/api/batches').at(-1)).toEqual({ per_page: 10, page: 1, search: '', status: 'Declined' }),
    );

    await userEvent.click(screen.getByRole('button', { name: 'Go to page 2' }));
    await waitFor(() => expect(callsTo(fetch, '/api/batches').at(-1)).toMatchObject({ page: 2 }));
    const before = callsTo(fetch, '/api/batches').length;
    await userEvent.type(screen.getByLabelText('Search'), 'file-7');
    expect(callsTo(fetch, '/api/batches')).toHaveLength(before);
    await waitFor(
      () =>
        expect(callsTo(fetch, '/api/batches').at(-1)).toEqual({
          per_page: 10,
          page: 1,
          search: 'file-7',
          status: 'Declined',
        }),
      { timeout: 2500 },
    );
  });

  it('copies a batch id', async () => {
    batchServer(1);
    signInAs(ALL_PERMISSIONS);
    renderApp('/batch-transactions');
    await userEvent.click(await screen.findByRole('button', { name: 'Copy batch id B-1' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Success!');
    expect(alert.textContent).toContain('Copied To Clipboard');
  });

  it("says beside a batch's status how many of its payouts completed and failed", async () => {
    const rows = [
      batch(1, { payouts: { completed: 3, failed: 1, in_flight: 0 } }),
      batch(2, { payouts: { completed: 1, failed: 0, in_flight: 2 } }),
      batch(3, { batch_status: 'Pending' }),
    ];
    mockApi({ '/api/batches': () => ({ body: { data: rows, total: 3 } }) });
    signInAs(ALL_PERMISSIONS);
    renderApp('/batch-transactions');
    const first = (await screen.findByText('B-1')).closest('tr')!;
    // the spec's status word stays; the outcome is beside it
    expect(within(first).getByText('Completed')).toBeTruthy();
    expect(within(first).getByText('3 completed · 1 failed')).toBeTruthy();
    expect(within(screen.getByText('B-2').closest('tr')!).getByText('1 completed · 2 in progress')).toBeTruthy();
    const pending = screen.getByText('B-3').closest('tr')!;
    expect(within(pending).queryByText(/completed|failed/)).toBeNull();
  });

  it('clears a batch left Pending, and says so; or reopens it for review', async () => {
    const fetch = batchServer(3, {
      '/api/clear-batch': () => ({ body: { message: ['Batch cleared'] } }),
    });
    signInAs(ALL_PERMISSIONS);
    renderApp('/batch-transactions');
    await screen.findByText('B-2');
    // only the Pending batch offers Review and Clear
    expect(screen.queryByRole('button', { name: 'Clear batch B-1' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Clear batch B-2' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Clear batch B-2?' });
    expect(confirm.textContent).toContain('the file can be uploaded again');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Clear batch' }));
    await waitFor(() =>
      expect(callsTo(fetch, '/api/clear-batch')).toEqual([{ batch_id: 'B-2', merchant_name: 'Acme Payouts' }]),
    );
    expect(await screen.findByText('Batch cleared: file-2.csv can be uploaded again.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    await userEvent.click(screen.getByRole('button', { name: 'Review batch B-2' }));
    await waitFor(() => expect(pathname()).toBe('/payments/transactions'));
    expect(sessionStore.get()?.batch).toMatchObject({
      batch_id: 'B-2',
      file_name: 'file-2.csv',
      batch_status: 'Pending',
    });
  });

  it('says No Record Found when there are no batches', async () => {
    batchServer(0);
    signInAs(ALL_PERMISSIONS);
    renderApp('/batch-transactions');
    expect(await screen.findByText('No Record Found')).toBeTruthy();
  });

  it('Export Batch makes the batch current and opens its transaction history', async () => {
    const fetch = batchServer(3, { '/api/batch-history': () => ({ body: history() }) });
    signInAs(ALL_PERMISSIONS);
    renderApp('/batch-transactions');
    const row = (await screen.findByText('B-1')).closest('tr')!;
    // the spec's name, and on hover what it does
    await userEvent.hover(within(row).getByRole('button', { name: 'Export Batch' }));
    expect((await screen.findByRole('tooltip')).textContent).toBe(EXPORT_BATCH_HINT);
    await userEvent.click(within(row).getByRole('button', { name: 'Export Batch' }));
    await waitFor(() => expect(pathname()).toBe('/transactions-history'));
    expect(callsTo(fetch, '/api/batch-history')[0]).toEqual({ batch_id: 'B-1', page: 1, per_page: 1 });
    expect(sessionStore.get()?.batch).toEqual({
      batch_id: 'B-1',
      merchant_name: 'Acme Payouts',
      file_name: 'file-1.csv',
      account_reference: 'OBL0000001',
      batch_status: 'Completed',
    });
    expect(await screen.findByRole('heading', { name: 'Transaction History' })).toBeTruthy();
  });

  it('Export Batch of a batch still being processed shows the server message and stays', async () => {
    const fetch = batchServer(3, {
      '/api/batch-history': () => ({ status: 402, body: { error: ['Batch is in processing state.'] } }),
    });
    signInAs(ALL_PERMISSIONS);
    renderApp('/batch-transactions');
    const row = (await screen.findByText('B-2')).closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: 'Export Batch' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Batch is in processing state.');
    expect(callsTo(fetch, '/api/batch-history')).toHaveLength(1);
    expect(pathname()).toBe('/batch-transactions');
    expect(sessionStore.get()?.batch).toBeNull();
    await waitFor(() =>
      expect(within(row).getByRole('button', { name: 'Export Batch' }).hasAttribute('disabled')).toBe(false),
    );
  });
});

describe('recent batches', () => {
  it('lists the last 24 hours without a status and says when there are none', async () => {
    const fetch = batchServer(0);
    signInAs(ALL_PERMISSIONS);
    renderApp('/recent-batches');
    expect(screen.getByRole('heading', { name: 'Recent Batches' })).toBeTruthy();
    expect(await screen.findByText('No batch uploaded in last 24 hours')).toBeTruthy();
    expect(callsTo(fetch, '/api/recent-batches')[0]).toEqual({ per_page: 10, page: 1, search: '' });
    expect(screen.queryByRole('combobox', { name: 'Batch status' })).toBeNull();
    expect(callsTo(fetch, '/api/batches')).toHaveLength(0);
  });

  it('shows recent batches with their copy action', async () => {
    batchServer(2);
    signInAs(ALL_PERMISSIONS);
    renderApp('/recent-batches');
    expect(await screen.findByRole('button', { name: 'Copy batch id B-2' })).toBeTruthy();
    expect(screen.getByRole('cell', { name: 'file-1.csv' })).toBeTruthy();
    // the payout type is one click away in Columns: the default columns fit 1366 px
    expect(screen.queryByRole('cell', { name: 'Batch Payout' })).toBeNull();
  });
});

const completed = (i: number, over: Partial<CompletedRow> = {}): CompletedRow => ({
  id: i,
  beneficiary_name: `Beneficiary ${i}`,
  brand: 'Acme Brand',
  behalf_of: 'Acme Payouts',
  uploaded_by: 'Mia Manager',
  account_used: 'Main account',
  merchant_transaction_id: `M-${i}`,
  intergiro_trx_id: `IG-${i}`,
  reference: `Invoice ${i}`,
  account_id: `10000000${i}`,
  batch_id: `B-${i}`,
  currency: 'EUR',
  amount: 1000,
  fee: 10,
  batch_fee: 150,
  status: 'Completed',
  updated_at: '2026-03-01T10:00:00Z',
  ...over,
});

function completedServer(total: number, extra: Record<string, Handler> = {}) {
  return batchServer(0, {
    '/api/completed-transactions': (b) => {
      const { page, per_page } = b as Page;
      const all = Array.from({ length: total }, (_, i) =>
        completed(i + 1, i === 1 ? { batch_id: null, batch_fee: 0, fee: 0 } : {}),
      );
      const body: CompletedListResponse = {
        transactions: { data: all.slice((page - 1) * per_page, page * per_page), total, total_estimated: false },
        fee: { total_eur_fee: '12.34', total_cent_fee: 1234 },
        next_cursor: null,
        prev_cursor: null,
      };
      return { body };
    },
    '/api/brand-list': () => ({ body: { brand: [{ id: 1, name: 'Acme Brand' }] } }),
    ...extra,
  });
}

async function openCompleted() {
  await userEvent.click(screen.getByRole('tab', { name: 'Completed Transactions' }));
  await screen.findByText('Beneficiary 1');
}

describe('batch transactions: completed transactions', () => {
  it('lists completed transactions with fees, the fee totals and pages of 10/20/30', async () => {
    const fetch = completedServer(45);
    signInAs(ALL_PERMISSIONS);
    renderApp('/batch-transactions');
    await openCompleted();
    expect(callsTo(fetch, '/api/completed-transactions')[0]).toEqual({
      status: 'Completed',
      per_page: 10,
      page: 1,
      tz: expect.any(String),
    });
    const table = screen.getByRole('table');
    const headers = () =>
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent);
    // who did it, from which account, the reference and the time start hidden (the rest fit 1366 px); the Columns
    // menu shows them
    expect(headers()).toEqual([
      'Batch ID',
      'Beneficiary Name',
      'Brand',
      'Batch Fee / Fee',
      'Amount',
      'Status',
      'Action',
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Columns' }));
    const menu = screen.getByRole('dialog', { name: 'Table settings' });
    for (const name of ['Reference', 'Behalf Of', 'Uploaded By', 'Account Used', 'Updated At'])
      await userEvent.click(within(menu).getByRole('checkbox', { name }));
    await userEvent.keyboard('{Escape}');
    expect(headers()).toEqual([
      'Batch ID',
      'Beneficiary Name',
      'Brand',
      'Batch Fee / Fee',
      'Amount',
      'Reference',
      'Behalf Of',
      'Uploaded By',
      'Account Used',
      'Status',
      'Updated At',
      'Action',
    ]);
    expect(
      screen.getByLabelText('The batch fee is applied on the summed amount of all transactions sharing a batch_id.'),
    ).toBeTruthy();
    const first = within(table).getByText('Beneficiary 1').closest('tr')!;
    expect(
      within(first)
        .getAllByRole('cell')
        .slice(0, 10)
        .map((c) => c.textContent),
    ).toEqual([
      'B-1',
      'Beneficiary 1',
      'Acme Brand',
      '€1.50 / €0.10',
      '€10.00',
      'Invoice 1',
      'Acme Payouts',
      'Mia Manager',
      'Main account',
      'Completed',
    ]);
    const second = within(table).getByText('Beneficiary 2').closest('tr')!;
    expect(within(second).getAllByRole('cell')[3].textContent).toBe('€0.00 / €0.00');
    expect(screen.getByText('Total Fee (EUR): €12.34')).toBeTruthy();
    expect(screen.getByText('Total Fee (CENTS): 1234')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Go to page 3' }));
    await screen.findByText('Beneficiary 21');
    await userEvent.click(screen.getByRole('combobox', { name: 'Rows per page' }));
    await userEvent.click(screen.getByRole('option', { name: '30' }));
    await waitFor(() =>
      expect(callsTo(fetch, '/api/completed-transactions').at(-1)).toMatchObject({ page: 1, per_page: 30 }),
    );
  });

  it('filters by brand, date and batch id; closing the panel clears them', async () => {
    const fetch = completedServer(3);
    signInAs(ALL_PERMISSIONS);
    renderApp('/batch-transactions');
    await openCompleted();
    await userEvent.click(screen.getByRole('button', { name: 'Toggle search filters' }));
    const panel = screen.getByRole('form', { name: 'Search filters' });
    await userEvent.click(within(panel).getByRole('combobox', { name: 'Brand' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Acme Brand' }));
    fireEvent.change(within(panel).getByLabelText('End Date'), { target: { value: '2026-02-01' } });
    await userEvent.type(within(panel).getByLabelText('Batch ID'), 'B-1{Enter}');
    await waitFor(() =>
      expect(callsTo(fetch, '/api/completed-transactions').at(-1)).toEqual({
        status: 'Completed',
        per_page: 10,
        page: 1,
        brand: 'Acme Brand',
        batch_id: 'B-1',
        start_date: '2026-02-01',
        end_date: '2026-02-01',
        tz: expect.any(String),
      }),
    );
    await userEvent.click(within(panel).getByRole('button', { name: 'Close' }));
    await waitFor(() =>
      expect(callsTo(fetch, '/api/completed-transactions').at(-1)).toEqual({
        status: 'Completed',
        per_page: 10,
        page: 1,
        tz: expect.any(String),
      }),
    );
  });

  it('exports the completed transactions and shows a row in the details dialog', async () => {
    const details: TransactionDetails = {
      ...completed(1),
      failed_transaction: null,
    };
    const fetch = completedServer(3, {
      '/api/export-completed-transactions': () => ({ body: { message: ['ok'], file: exportedFile('completed.csv') } }),
      '/api/transaction-details': () => ({ body: details }),
    });
    signInAs(ALL_PERMISSIONS);
    renderApp('/batch-transactions');
    await openCompleted();
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Export as CSV' }));
    expect((await screen.findByRole('status')).textContent).toContain(
      'Process is running in the background. Please wait.',
    );
    expect(callsTo(fetch, '/api/export-completed-transactions')[0]).toEqual({
      status: 'Completed',
      tz: expect.any(String),
      format: 'csv',
    });
    await userEvent.click(screen.getAllByRole('button', { name: 'View Details' })[0]);
    const dialog = await screen.findByRole('dialog');
    expect(callsTo(fetch, '/api/transaction-details')).toEqual([{ id: 1 }]);
    expect(within(dialog).getByTestId('details-banner').textContent).toBe('Transaction Successful');
  });

  it('hides the filter toggle and Export without their permissions', async () => {
    completedServer(3);
    signInAs(['User can view transactions']);
    renderApp('/batch-transactions');
    await openCompleted();
    expect(screen.queryByRole('button', { name: 'Toggle search filters' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Export' })).toBeNull();
  });
});
