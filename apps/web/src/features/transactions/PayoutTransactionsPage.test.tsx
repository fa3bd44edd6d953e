import {
  ALL_PERMISSIONS,
  type Permission,
  type PayoutListResponse,
  type PayoutRow,
  type TransactionDetails,
} from '@obol/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { prefsKey } from '../../lib/tablePrefs.ts';
import { callsTo, exportedFile, mockApi, pathname, renderApp, signInAs, type Handler } from '../../test-utils.tsx';
import { PAYOUT_COLUMNS } from './columns.tsx';

// whole journeys through MUI selects and tables in jsdom take a few seconds
vi.setConfig({ testTimeout: 20_000 });

const row = (i: number, over: Partial<PayoutRow> = {}): PayoutRow => ({
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
  batch_id: null,
  currency: 'EUR',
  amount: 2550,
  fee: 25,
  status: 'Completed',
  updated_at: '2026-03-01T10:00:00Z',
  ...over,
});

const details = (over: Partial<TransactionDetails> = {}): TransactionDetails => ({
  id: 1,
  merchant_transaction_id: 'M-1',
  intergiro_trx_id: 'IG-1',
  beneficiary_name: 'Beneficiary 1',
  brand: 'Acme Brand',
  account_id: '100000001',
  reference: 'Invoice 1',
  currency: 'EUR',
  amount: 2550,
  status: 'Completed',
  batch_id: null,
  updated_at: '2026-03-01T10:00:00Z',
  failed_transaction: null,
  ...over,
});

type Body = { page: number; per_page: number; cursor?: string; prev_cursor?: string };
/**
 * The list as the server pages it: by page number, or one page after `after-<id>` / before `before-<id>` (the
 * cursors it answers: ids are positions here). `estimated` answers the total as an estimate.
 */
function payoutServer(
  total: number,
  extra: Record<string, Handler> = {},
  rows = (i: number) => row(i),
  estimated = false,
) {
  return mockApi({
    '/api/payout-transactions': (b) => {
      const { page, per_page, cursor, prev_cursor } = b as Body;
      const all = Array.from({ length: total }, (_, i) => rows(i + 1));
      const at = (c: string) => Number(c.split('-')[1]);
      const data = cursor
        ? all.slice(at(cursor), at(cursor) + per_page)
        : prev_cursor
          ? all.slice(Math.max(0, at(prev_cursor) - 1 - per_page), at(prev_cursor) - 1)
          : all.slice((page - 1) * per_page, page * per_page);
      const body: PayoutListResponse = {
        transactions: { data, total, total_estimated: estimated },
        next_cursor: data.length ? `after-${data.at(-1)!.id}` : null,
        prev_cursor: data.length ? `before-${data[0].id}` : null,
      };
      return { body };
    },
    '/api/brand-list': () => ({
      body: {
        brand: [
          { id: 1, name: 'Acme Brand' },
          { id: 2, name: 'Beta Brand' },
        ],
      },
    }),
    ...extra,
  });
}

const lastList = (fetch: ReturnType<typeof mockApi>) => callsTo(fetch, '/api/payout-transactions').at(-1);
const without = (p: Permission) => ALL_PERMISSIONS.filter((x) => x !== p);

describe('payout transactions', () => {
  it('lists every column, 10 a page with six page links, and reloads a new page', async () => {
    const fetch = payoutServer(200, {}, (i) =>
      row(i, i === 2 ? { intergiro_trx_id: null, status: 'Failed', amount: 100 } : {}),
    );
    signInAs(ALL_PERMISSIONS);
    // this user chose to see every column (by default the less read ones are hidden)
    const order = PAYOUT_COLUMNS.map((c) => c.id);
    localStorage.setItem(prefsKey(1, 'payout-transactions'), JSON.stringify({ order, hidden: [] }));
    renderApp('/payout-transactions');
    expect(screen.getByRole('heading', { name: 'Payout Transactions' })).toBeTruthy();
    await screen.findByText('Beneficiary 1');
    expect(lastList(fetch)).toEqual({ status: '', 'sort-by': 'DESC', per_page: 10, page: 1, tz: expect.any(String) });
    const table = screen.getByRole('table');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual([
      'Beneficiary Name',
      'Brand',
      'Behalf Of',
      'Uploaded By',
      'Account Used',
      'Merchant Transaction ID',
      'Intergiro Trx ID',
      'Reference',
      'Obol ID',
      'Amount',
      'Status',
      'Updated At',
      'Action',
    ]);
    expect(within(table).getAllByRole('row')).toHaveLength(11);
    const first = within(table).getByText('Beneficiary 1').closest('tr')!;
    const cells = within(first)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells.slice(0, 11)).toEqual([
      'Beneficiary 1',
      'Acme Brand',
      'Acme Payouts',
      'Mia Manager',
      'Main account',
      'M-1',
      'IG-1',
      'Invoice 1',
      '100000001',
      '€25.50',
      'Completed',
    ]);
    expect(cells[11]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(within(first).getByText('Completed').closest('[data-tone]')!.getAttribute('data-tone')).toBe('green');
    const second = within(table).getByText('Beneficiary 2').closest('tr')!;
    expect(within(second).getAllByRole('cell')[6].textContent).toBe('-');
    expect(within(second).getByText('Failed').closest('[data-tone]')!.getAttribute('data-tone')).toBe('red');

    const nav = screen.getByRole('navigation', { name: 'pagination navigation' });
    expect(within(nav).getAllByRole('button', { name: /^(Go to )?page \d+$/ })).toHaveLength(6);
    await userEvent.click(screen.getByRole('button', { name: 'Go to page 3' }));
    await screen.findByText('Beneficiary 21');
    expect(lastList(fetch)).toMatchObject({ page: 3, per_page: 10 });
    expect(within(nav).getAllByRole('button', { name: /^(Go to )?page \d+$/ })).toHaveLength(6);
  });

  it('steps to the next and previous page by the cursors of the page shown, and jumps by page number', async () => {
    const fetch = payoutServer(95);
    signInAs(ALL_PERMISSIONS);
    renderApp('/payout-transactions');
    await screen.findByText('Beneficiary 1');
    const step = async (name: string, shows: string) => {
      await userEvent.click(screen.getByRole('button', { name }));
      await screen.findByText(shows);
    };
    await step('Go to next page', 'Beneficiary 11');
    expect(lastList(fetch)).toMatchObject({ page: 2, cursor: 'after-10' });
    expect(screen.getByRole('button', { name: 'page 2' }).getAttribute('aria-current')).toBe('page');
    await step('Go to next page', 'Beneficiary 21');
    expect(lastList(fetch)).toMatchObject({ page: 3, cursor: 'after-20' });
    await step('Go to previous page', 'Beneficiary 11');
    expect(lastList(fetch)).toMatchObject({ page: 2, prev_cursor: 'before-21' });
    expect(lastList(fetch)).not.toHaveProperty('cursor');
    // each step asked for its page once, by its cursor: the page left was never asked again by number meanwhile
    const asked = (call: unknown) => {
      const b = call as Body;
      return [b.page, b.cursor ?? b.prev_cursor ?? null];
    };
    expect(callsTo(fetch, '/api/payout-transactions').map(asked)).toEqual([
      [1, null],
      [2, 'after-10'],
      [3, 'after-20'],
      [2, 'before-21'],
    ]);
    // page 1 and any page link are read by number, without a cursor
    await step('Go to previous page', 'Beneficiary 1');
    expect(lastList(fetch)).toEqual({ status: '', 'sort-by': 'DESC', per_page: 10, page: 1, tz: expect.any(String) });
    await step('Go to page 5', 'Beneficiary 41');
    expect(lastList(fetch)).toEqual(expect.not.objectContaining({ cursor: expect.anything() }));
    expect(lastList(fetch)).toMatchObject({ page: 5 });
    await step('Go to last page', 'Beneficiary 91');
    expect(lastList(fetch)).toMatchObject({ page: 10 });
    expect(lastList(fetch)).not.toHaveProperty('prev_cursor');
    expect(screen.getByRole('button', { name: 'page 10' }).getAttribute('aria-current')).toBe('page');
  }, 60_000);

  it('shows an estimated total as one, steps on while pages are full, and cannot jump to an unknown last page', async () => {
    const fetch = payoutServer(25, {}, (i) => row(i), true);
    // the server counts 25 rows here but says the total is an estimate: the pager shows it and steps by cursor
    signInAs(ALL_PERMISSIONS);
    renderApp('/payout-transactions');
    await screen.findByText('Beneficiary 1');
    expect(screen.getByText('about 25 rows')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Go to last page' })).toHaveProperty('disabled', true);
    await userEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    await screen.findByText('Beneficiary 11');
    await userEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    await screen.findByText('Beneficiary 21');
    expect(lastList(fetch)).toMatchObject({ page: 3, cursor: 'after-20' });
    // a page that is not full is the end
    expect(screen.getByRole('button', { name: 'Go to next page' })).toHaveProperty('disabled', true);
  });

  it('writes a long estimate the way people say it', async () => {
    mockApi({
      '/api/payout-transactions': () => ({
        body: {
          transactions: { data: [row(1)], total: 1_234_567, total_estimated: true },
          next_cursor: 'after-1',
          prev_cursor: 'before-1',
        },
      }),
      '/api/brand-list': () => ({ body: { brand: [] } }),
    });
    signInAs(ALL_PERMISSIONS);
    renderApp('/payout-transactions');
    expect(await screen.findByText('about 1.2M rows')).toBeTruthy();
  });

  // one test a reset: each walks pages and menus, which a loaded machine makes slow
  async function onPage(fetch: ReturnType<typeof payoutServer>, page: number) {
    await userEvent.click(screen.getByRole('button', { name: `Go to page ${page}` }));
    await waitFor(() => expect(lastList(fetch)).toMatchObject({ page }));
  }
  async function choose(menu: string, option: string) {
    await userEvent.click(screen.getByRole('combobox', { name: menu }));
    await userEvent.click(screen.getByRole('option', { name: option }));
  }

  it('goes back to page 1 when the status changes', async () => {
    const fetch = payoutServer(95);
    signInAs(ALL_PERMISSIONS);
    renderApp('/payout-transactions');
    await screen.findByText('Beneficiary 1');
    await onPage(fetch, 3);
    await choose('Status', 'Failed');
    await waitFor(() => expect(lastList(fetch)).toMatchObject({ page: 1, status: 'Failed' }));
  });

  it('goes back to page 1 when the sort changes, keeping the status', async () => {
    const fetch = payoutServer(95);
    signInAs(ALL_PERMISSIONS);
    renderApp('/payout-transactions?status=Failed');
    await screen.findByText('Beneficiary 1');
    await onPage(fetch, 2);
    await choose('Sort by date', 'Oldest first');
    await waitFor(() => expect(lastList(fetch)).toMatchObject({ page: 1, 'sort-by': 'ASC', status: 'Failed' }));
  });

  it('goes back to page 1 when the page size changes', async () => {
    const fetch = payoutServer(95);
    signInAs(ALL_PERMISSIONS);
    renderApp('/payout-transactions');
    await screen.findByText('Beneficiary 1');
    await onPage(fetch, 4);
    await choose('Rows per page', '20');
    await waitFor(() => expect(lastList(fetch)).toMatchObject({ page: 1, per_page: 20 }));
    expect(screen.getAllByRole('row')).toHaveLength(21);
  });

  it('reloads itself every 5 minutes and drops to the last page when the total shrinks under it', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    let total = 35;
    const fetch = payoutServer(0, {
      '/api/payout-transactions': (b) => {
        const { page, per_page } = b as Body;
        const all = Array.from({ length: total }, (_, i) => row(i + 1));
        const data = all.slice((page - 1) * per_page, page * per_page);
        return {
          body: { transactions: { data, total, total_estimated: false }, next_cursor: null, prev_cursor: null },
        };
      },
    });
    signInAs(ALL_PERMISSIONS);
    renderApp('/payout-transactions');
    await screen.findByText('Beneficiary 1');
    await user.click(screen.getByRole('button', { name: 'Go to page 4' }));
    await screen.findByText('Beneficiary 31');
    const before = callsTo(fetch, '/api/payout-transactions').length;
    total = 25;
    // the clock also runs in real time (shouldAdvanceTime), which a loaded machine stretches: 290 s leaves room
    await vi.advanceTimersByTimeAsync(290_000);
    expect(callsTo(fetch, '/api/payout-transactions')).toHaveLength(before);
    await vi.advanceTimersByTimeAsync(10_000);
    await screen.findByText('Beneficiary 21');
    expect(callsTo(fetch, '/api/payout-transactions').slice(before)).toMatchObject([{ page: 4 }, { page: 3 }]);
  });

  it('sends only the filters that are set; Enter searches; one date is start = end; closing clears', async () => {
    const fetch = payoutServer(3);
    signInAs(ALL_PERMISSIONS);
    renderApp('/payout-transactions');
    await screen.findByText('Beneficiary 1');
    await userEvent.click(screen.getByRole('button', { name: 'Toggle search filters' }));
    const panel = screen.getByRole('form', { name: 'Search filters' });
    for (const label of [
      'Beneficiary Name',
      'Behalf Of',
      'Uploaded By',
      'Account Used',
      'Merchant ID',
      'Intergiro Trx ID',
      'Reference',
      'Obol ID',
      'Amount (in cents)',
      'Start Date',
      'End Date',
    ])
      expect(within(panel).getByLabelText(label)).toBeTruthy();
    expect(within(panel).getByLabelText('Amount (in cents)').getAttribute('min')).toBe('0');
    // dates are typed and shown YYYY-MM-DD, as the table shows them; the hyphens come by themselves
    const start = within(panel).getByLabelText('Start Date');
    expect(start.getAttribute('placeholder')).toBe('YYYY-MM-DD');

    await userEvent.click(within(panel).getByRole('combobox', { name: 'Brand' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Beta Brand' }));
    await userEvent.type(start, '20260203');
    expect((start as HTMLInputElement).value).toBe('2026-02-03');
    await userEvent.type(within(panel).getByLabelText('Amount (in cents)'), '2550');
    const before = callsTo(fetch, '/api/payout-transactions').length;
    await userEvent.type(within(panel).getByLabelText('Beneficiary Name'), 'Ana{Enter}');
    await waitFor(() => expect(callsTo(fetch, '/api/payout-transactions')).toHaveLength(before + 1));
    expect(lastList(fetch)).toEqual({
      status: '',
      'sort-by': 'DESC',
      per_page: 10,
      page: 1,
      beneficiary_name: 'Ana',
      brand: 'Beta Brand',
      amount: 2550,
      start_date: '2026-02-03',
      end_date: '2026-02-03',
      tz: expect.any(String),
    });

    // a reversed range is reordered; the Search button searches too
    fireEvent.change(within(panel).getByLabelText('End Date'), { target: { value: '2026-01-10' } });
    await userEvent.click(within(panel).getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(lastList(fetch)).toMatchObject({ start_date: '2026-01-10', end_date: '2026-02-03' }));

    // a negative amount is refused before any call
    const calls = callsTo(fetch, '/api/payout-transactions').length;
    const amount = within(panel).getByLabelText('Amount (in cents)');
    await userEvent.clear(amount);
    await userEvent.type(amount, '-5{Enter}');
    expect(await within(panel).findByText('Amount must be 0 or more')).toBeTruthy();
    expect(callsTo(fetch, '/api/payout-transactions')).toHaveLength(calls);

    await userEvent.click(within(panel).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('form', { name: 'Search filters' })).toBeNull();
    await waitFor(() =>
      expect(lastList(fetch)).toEqual({ status: '', 'sort-by': 'DESC', per_page: 10, page: 1, tz: expect.any(String) }),
    );
    // reopened: the fields are empty again
    await userEvent.click(screen.getByRole('button', { name: 'Toggle search filters' }));
    expect((screen.getByLabelText('Beneficiary Name') as HTMLInputElement).value).toBe('');
    // many fields typed one key at a time: about 15 s on the 2-core machine
  }, 40_000);

  it('closing the panel with nothing applied still reloads', async () => {
    const fetch = payoutServer(3);
    signInAs(ALL_PERMISSIONS);
    renderApp('/payout-transactions');
    await screen.findByText('Beneficiary 1');
    const before = callsTo(fetch, '/api/payout-transactions').length;
    await userEvent.click(screen.getByRole('button', { name: 'Toggle search filters' }));
    await userEvent.click(screen.getByRole('button', { name: 'Toggle search filters' }));
    await waitFor(() => expect(callsTo(fetch, '/api/payout-transactions')).toHaveLength(before + 1));
  });

  it('hides the search toggle and Export without their permissions', async () => {
    payoutServer(3);
    signInAs(without('User can search').filter((p) => p !== 'User can export transactions'));
    renderApp('/payout-transactions');
    await screen.findByText('Beneficiary 1');
    expect(screen.queryByRole('button', { name: 'Toggle search filters' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Export' })).toBeNull();
  });

  it('says No Record Found and disables Export when nothing matches', async () => {
    payoutServer(0);
    signInAs(ALL_PERMISSIONS);
    renderApp('/payout-transactions');
    expect(await screen.findByText('No Record Found')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Export' }).hasAttribute('disabled')).toBe(true);
  });

  it('exports with the status and sort-buy, then points to the downloads', async () => {
    let release: () => void = () => undefined;
    const fetch = payoutServer(3, {
      '/api/export-payout-transactions': () =>
        new Promise((resolve) => {
          release = () => resolve({ body: { message: ['Export started'], file: exportedFile('payouts.xlsx') } });
        }),
    });
    signInAs(ALL_PERMISSIONS);
    renderApp('/payout-transactions');
    await screen.findByText('Beneficiary 1');
    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    await userEvent.click(screen.getByRole('option', { name: 'Pending' }));
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Export as CSV' }));
    await waitFor(() => expect(callsTo(fetch, '/api/export-payout-transactions')).toHaveLength(1));
    expect(screen.getByRole('button', { name: 'Export' }).hasAttribute('disabled')).toBe(true);
    expect(callsTo(fetch, '/api/export-payout-transactions')[0]).toEqual({
      status: 'Pending',
      'sort-buy': 'DESC',
      tz: expect.any(String),
      format: 'csv',
    });
    release();
    const note = await screen.findByRole('status');
    expect(note.textContent).toContain('Process is running in the background. Please wait.');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Export' }).hasAttribute('disabled')).toBe(false));
    await userEvent.click(within(note).getByRole('button', { name: 'See Downloads' }));
    await waitFor(() => expect(pathname()).toBe('/download-transactions'));
  });

  it('re-enables Export after a failed export, saying so instead of a download notification', async () => {
    const fetch = payoutServer(3, {
      '/api/export-payout-transactions': () => ({ status: 500, body: { error: ['boom'] } }),
    });
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    signInAs(ALL_PERMISSIONS);
    renderApp('/payout-transactions');
    await screen.findByText('Beneficiary 1');
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Export as Excel (XLSX)' }));
    await waitFor(() => expect(callsTo(fetch, '/api/export-payout-transactions')).toHaveLength(1));
    expect(callsTo(fetch, '/api/export-payout-transactions')[0]).toMatchObject({ format: 'xlsx' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Export' }).hasAttribute('disabled')).toBe(false));
    expect(screen.queryByRole('status')).toBeNull();
    expect((await screen.findByRole('alert')).textContent).toContain('Something went wrong');
    error.mockRestore();
  });

  it.each([
    ['Completed', null, 'Transaction Successful', 'green'],
    ['Failed', null, 'Brand does not match', 'red'],
    ['Failed', { message: 'Wallet is closed' }, 'Wallet is closed', 'red'],
    ['Pending', null, '', 'teal'],
  ] as const)('View Details of a %s transaction (%j) shows the banner "%s"', async (status, failed, text, tone) => {
    let release: () => void = () => undefined;
    const fetch = payoutServer(2, {
      '/api/transaction-details': () =>
        new Promise((resolve) => {
          release = () => resolve({ body: details({ status, failed_transaction: failed }) });
        }),
    });
    signInAs(ALL_PERMISSIONS);
    renderApp('/payout-transactions');
    await screen.findByText('Beneficiary 1');
    const buttons = screen.getAllByRole('button', { name: 'View Details' });
    await userEvent.click(buttons[0]);
    // every View Details waits for the running request
    await waitFor(() => expect(buttons.every((b) => b.hasAttribute('disabled'))).toBe(true));
    expect(callsTo(fetch, '/api/transaction-details')).toEqual([{ id: 1 }]);
    release();
    const dialog = await screen.findByRole('dialog');
    for (const t of ['M-1', 'IG-1', 'Beneficiary 1', 'Acme Brand', '100000001', 'Invoice 1', 'EUR', '€25.50', status])
      expect(within(dialog).getByText(t)).toBeTruthy();
    const banner = within(dialog).getByTestId('details-banner');
    expect(banner.textContent).toBe(text);
    expect(banner.getAttribute('data-tone')).toBe(tone);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(buttons.every((b) => !b.hasAttribute('disabled'))).toBe(true);
  });

  it('a failed details request only stops the spinner', async () => {
    const fetch = payoutServer(2, {
      '/api/transaction-details': () => ({ status: 500, body: { error: ['boom'] } }),
    });
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    signInAs(ALL_PERMISSIONS);
    renderApp('/payout-transactions');
    await screen.findByText('Beneficiary 1');
    await userEvent.click(screen.getAllByRole('button', { name: 'View Details' })[1]);
    await waitFor(() => expect(callsTo(fetch, '/api/transaction-details')).toEqual([{ id: 2 }]));
    await waitFor(() => expect(error).toHaveBeenCalled());
    await waitFor(() =>
      expect(screen.getAllByRole('button', { name: 'View Details' }).every((b) => !b.hasAttribute('disabled'))).toBe(
        true,
      ),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    error.mockRestore();
  });
});
