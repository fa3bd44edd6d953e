import { ALL_PERMISSIONS, PAYMENT_MSG, type StagedPage, type StagedRow } from '@obol/contract';

type BatchStatus = StagedPage['batch']['batch_status'];
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session.ts';
import { callsTo, mockApi, pathname, renderApp, signInAs, type Handler } from '../../test-utils.tsx';

// whole journeys through MUI tables in jsdom take a few seconds
vi.setConfig({ testTimeout: 20_000 });

const field = (value: string, error: string | null = null) => ({ value, error });
const row = (n: number, over: Partial<StagedRow> = {}): StagedRow => ({
  id: 100 + n,
  row_number: n,
  beneficiary_name: field(`Payee ${n}`),
  account_id: field('100000001'),
  obol_id: field('100000001'),
  merchant_transaction_id: field(`M-${n}`),
  brand: field('Acme Brand'),
  reference: field(`Invoice ${n}`),
  amount: field('1500'),
  amount_cents: 1500,
  status: 'Pending',
  ...over,
});

const BATCH = {
  batch_id: 'B1',
  merchant_name: 'Acme Payouts',
  file_name: 'march.csv',
  account_reference: 'OBL0000001',
  batch_status: 'Pending',
};

function reviewServer(rows: StagedRow[], extra: Record<string, Handler> = {}, status: BatchStatus = 'Pending') {
  const page = (): StagedPage => ({
    transaction: { data: rows, total: rows.length },
    missingTransaction: 0,
    pendingTransaction: rows.filter((r) => r.status === 'Pending').length,
    failedTransaction: rows.filter((r) => r.status === 'Failed').length,
    failedByReason: Object.entries(
      rows
        .flatMap((r) => Object.values(r).flatMap((v) => (v && typeof v === 'object' && v.error ? [v.error] : [])))
        .reduce<Record<string, number>>((n, e) => ({ ...n, [e]: (n[e] ?? 0) + 1 }), {}),
    ).map(([reason, count]) => ({ reason, count })),
    batch: {
      batch_id: 'B1',
      file_name: 'march.csv',
      batch_status: status,
      total_rows: rows.length,
      processed_rows: 0,
    },
  });
  return mockApi({
    '/api/staged-transactions': () => ({ body: page() }),
    '/api/batch-amount': () => ({ body: { amount: 3000, fee: 75 } }),
    '/api/account-balance': (b) => {
      const asked = b as { account_reference: string; account_id?: string };
      return { body: { balance: 100_000, fee: 250, account_id: 'PO00000001', ...asked, currency: 'EUR' } };
    },
    ...extra,
  });
}

function openReview() {
  signInAs(ALL_PERMISSIONS);
  sessionStore.setBatch(BATCH);
  renderApp('/payments/transactions');
}

describe('the review of a staged batch', () => {
  it('shows the rows, their errors, the counts and the totals', async () => {
    reviewServer([row(1), row(2, { status: 'Failed', brand: field('Nope', PAYMENT_MSG.brandMissing) })]);
    openReview();
    await screen.findByText('Payee 1');
    expect(screen.getByText('Executable: 1')).toBeTruthy();
    expect(screen.getByText('Inexecutable: 1')).toBeTruthy();
    expect(screen.getByText('Amount: €30.00')).toBeTruthy();
    expect(screen.getByText('Fee: €0.75')).toBeTruthy();
    expect(screen.getByText('Total: €30.75')).toBeTruthy();
    expect((screen.getByLabelText('File name') as HTMLInputElement).value).toBe('march');
    // the banner counts the inexecutable rows by what fails them
    const banner = screen.getByRole('alert', { name: 'Inexecutable transactions' });
    expect(banner.textContent).toContain('1 transaction cannot be executed');
    expect(banner.textContent).toContain(`1 × ${PAYMENT_MSG.brandMissing}`);
    expect(banner.textContent).not.toContain('required field');
  });

  it("edits a row in place by the staging's own rules, then saves it and reads the batch again", async () => {
    const fetch = reviewServer([row(1), row(2)], {
      '/api/update-transaction': () => ({ body: { message: ['Transaction updated'], transaction: row(2) } }),
    });
    openReview();
    await screen.findByText('Payee 2');
    await userEvent.click(screen.getByRole('button', { name: 'Edit row 2' }));
    const obolId = screen.getByLabelText('Obol ID');
    const amount = screen.getByLabelText('Amount (cents)');
    fireEvent.change(obolId, { target: { value: '12345' } });
    fireEvent.change(amount, { target: { value: '0' } });
    expect(screen.getByText(PAYMENT_MSG.invalidObolId)).toBeTruthy();
    expect(screen.getByText(PAYMENT_MSG.amountPositive)).toBeTruthy();
    // refused before it is sent, with the first error in the order of the columns
    await userEvent.click(screen.getByRole('button', { name: 'Save row 2' }));
    expect((await screen.findByRole('alert')).textContent).toContain(PAYMENT_MSG.invalidObolId);
    expect(callsTo(fetch, '/api/update-transaction')).toHaveLength(0);
    fireEvent.change(obolId, { target: { value: '100000002' } });
    fireEvent.change(amount, { target: { value: '2500' } });
    expect(screen.queryByText(PAYMENT_MSG.amountPositive)).toBeNull();
    const before = callsTo(fetch, '/api/staged-transactions').length;
    await userEvent.click(screen.getByRole('button', { name: 'Save row 2' }));
    await waitFor(() => expect(callsTo(fetch, '/api/update-transaction')).toHaveLength(1));
    expect(callsTo(fetch, '/api/update-transaction')[0]).toEqual({
      id: 102,
      batch_id: 'B1',
      beneficiary_name: 'Payee 2',
      obol_id: '100000002',
      merchant_transaction_id: 'M-2',
      brand: 'Acme Brand',
      reference: 'Invoice 2',
      amount: '2500',
    });
    await waitFor(() => expect(callsTo(fetch, '/api/staged-transactions').length).toBeGreaterThan(before));
    expect(screen.queryByRole('button', { name: 'Save row 2' })).toBeNull();
  });

  it('deletes one row, or the selected ones', async () => {
    const fetch = reviewServer([row(1), row(2), row(3)], {
      '/api/delete-transaction': () => ({ body: { message: ['Transaction deleted'] } }),
      '/api/delete-transactions': () => ({ body: { message: ['2 transactions deleted'] } }),
    });
    openReview();
    await screen.findByText('Payee 3');
    await userEvent.click(screen.getByRole('button', { name: 'Delete row 1' }));
    // nothing is deleted before the user confirms; Cancel deletes nothing
    let ask = await screen.findByRole('alertdialog', { name: 'Delete this transaction?' });
    await userEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(callsTo(fetch, '/api/delete-transaction')).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Delete row 1' }));
    ask = await screen.findByRole('alertdialog', { name: 'Delete this transaction?' });
    await userEvent.click(within(ask).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(callsTo(fetch, '/api/delete-transaction')).toEqual([
        { id: 101, batch_id: 'B1', merchant_name: 'Acme Payouts' },
      ]),
    );
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select row 2' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select row 3' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete selected' }));
    ask = await screen.findByRole('alertdialog', { name: 'Delete 2 transactions?' });
    await userEvent.click(within(ask).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(callsTo(fetch, '/api/delete-transactions')).toEqual([
        { id: [102, 103], batch_id: 'B1', merchant_name: 'Acme Payouts' },
      ]),
    );
    expect((await screen.findByRole('alert')).textContent).toContain('2 transactions deleted');
  });

  it('renames the batch on Enter, keeping letters, digits and underscores', async () => {
    const fetch = reviewServer([row(1)], {
      '/api/rename-batch': () => ({ body: { message: ['File renamed'], file_name: 'marchrun1.csv' } }),
    });
    openReview();
    await screen.findByText('Payee 1');
    const name = screen.getByLabelText('File name');
    await userEvent.clear(name);
    await userEvent.type(name, 'march-run #1{Enter}');
    await waitFor(() =>
      expect(callsTo(fetch, '/api/rename-batch')[0]).toEqual({
        batch_id: 'B1',
        file_name: 'marchrun1',
        merchant_name: 'Acme Payouts',
      }),
    );
    await waitFor(() => expect((name as HTMLInputElement).value).toBe('marchrun1'));
    expect(sessionStore.get()?.batch?.file_name).toBe('marchrun1.csv');
  });

  it('executes with the code for the total it shows, then goes to Recent Batches', async () => {
    const fetch = reviewServer([row(1), row(2)], {
      '/api/execute-batch': () => ({ body: { message: ['A verification code has been sent to your e-mail'] } }),
      '/api/confirm-batch': () => ({
        body: { message: ['Batch is being executed'], batch_id: 'B1', amount: 3000, fee: 75 },
      }),
      '/api/recent-batches': () => ({ body: { data: [], total: 0 } }),
    });
    openReview();
    await screen.findByText('Payee 1');
    const execute = screen.getByRole('button', { name: 'Execute Transactions' }) as HTMLButtonElement;
    await waitFor(() => expect(execute.disabled).toBe(false));
    await userEvent.click(execute);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Approve batch B1: €30.75 including the fee.')).toBeTruthy();
    expect(callsTo(fetch, '/api/execute-batch')).toEqual([
      { batch_id: 'B1', amount: 3000, merchant_name: 'Acme Payouts' },
    ]);
    await userEvent.type(within(dialog).getByLabelText('Verification code'), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(pathname()).toBe('/recent-batches'));
    expect(callsTo(fetch, '/api/confirm-batch')).toEqual([
      { batch_id: 'B1', code: '123456', merchant_name: 'Acme Payouts' },
    ]);
    await waitFor(() => expect(sessionStore.get()?.batch).toBeNull());
    // the receipt follows to Recent Batches: the total, the fee, the account, the batch id and its list
    const receipt = screen.getByRole('region', { name: 'Receipt: Batch executed' });
    expect(receipt.textContent).toContain('€30.00 + €0.75 fee');
    expect(receipt.textContent).toContain('B1');
    expect(within(receipt).getByText('Completed')).toBeTruthy();
    expect(within(receipt).getByRole('link', { name: 'See it in Recent Batches' }).getAttribute('href')).toBe(
      '/recent-batches?q=B1',
    );
  });

  it('clears the batch and goes back to Payments', async () => {
    const fetch = reviewServer([row(1)], {
      '/api/clear-batch': () => ({ body: { message: ['Batch cleared'] } }),
      '/api/search-merchant': () => ({ body: { data: [] } }),
    });
    openReview();
    await screen.findByText('Payee 1');
    await userEvent.click(screen.getByRole('button', { name: 'Clear' }));
    // Esc leaves the batch as it is
    const ask = await screen.findByRole('alertdialog', { name: 'Clear this batch?' });
    expect(ask.textContent).toContain('Its rows will be declined');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(callsTo(fetch, '/api/clear-batch')).toEqual([]);
    expect(pathname()).toBe('/payments/transactions');
    await userEvent.click(screen.getByRole('button', { name: 'Clear' }));
    const again = await screen.findByRole('alertdialog', { name: 'Clear this batch?' });
    await userEvent.click(within(again).getByRole('button', { name: 'Clear batch' }));
    await waitFor(() => expect(pathname()).toBe('/payments'));
    expect(callsTo(fetch, '/api/clear-batch')).toEqual([{ batch_id: 'B1', merchant_name: 'Acme Payouts' }]);
    expect(sessionStore.get()?.batch).toBeNull();
  });

  it('leaves a batch the server says was executed for Recent Batches, no longer the current one', async () => {
    // the executed batch was kept as the current one (a reload before Recent Batches took it, another tab)
    for (const status of ['Processing', 'Completed'] as const) {
      const fetch = reviewServer([row(1)], { '/api/recent-batches': () => ({ body: { data: [], total: 0 } }) }, status);
      openReview();
      await waitFor(() => expect(pathname()).toBe('/recent-batches'));
      expect(await screen.findByText('Batch B1 has been executed')).toBeTruthy();
      await waitFor(() => expect(sessionStore.get()?.batch).toBeNull());
      expect(callsTo(fetch, '/api/execute-batch')).toEqual([]);
    }
  });

  it('goes back to Payments from a batch cleared in another tab', async () => {
    reviewServer([row(1)], { '/api/search-merchant': () => ({ body: { data: [] } }) }, 'Declined');
    openReview();
    await waitFor(() => expect(pathname()).toBe('/payments'));
    expect(await screen.findByText('Batch B1 was cleared')).toBeTruthy();
    expect(sessionStore.get()?.batch).toBeNull();
  });
});
