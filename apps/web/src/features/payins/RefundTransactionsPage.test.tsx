import { ALL_PERMISSIONS, type RefundRow } from '@obol/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, mockApi, renderApp, signInAs } from '../../test-utils.tsx';

afterEach(() => vi.restoreAllMocks());

const row = (over: Partial<RefundRow> = {}): RefundRow => ({
  id: 1,
  batch_id: 'rf_000001',
  payin_reference: 'order-10042',
  merchant_name: 'Acme Payouts',
  brand_name: null,
  amount: 2599,
  currency: 'EUR',
  request_id: 'pl_000001',
  transaction_type: 'Payin',
  transaction_status: 'Completed',
  reason: null,
  first_name: 'Ana',
  last_name: 'Novak',
  date_of_birth: '1990-04-12',
  account_id: 'PI00000007',
  created_at: '2026-11-20T10:00:00.000Z',
  ...over,
});

describe('Refund Transactions', () => {
  it('lists refunds with a decline’s reason, filters by type, status and the panel, and exports', async () => {
    const fetch = mockApi({
      '/api/refunds-detail': () => ({
        body: {
          data: [
            row(),
            row({ id: 2, payin_reference: 'order-2', transaction_status: 'Declined', reason: 'Card account closed' }),
          ],
          total: 2,
        },
      }),
      '/api/export-refunds-detail': () => ({
        body: {
          message: ['Process is running in the background. Please wait.'],
          file: {
            id: 1,
            file_name: 'refund-transactions.csv',
            start_date: null,
            end_date: null,
            is_download: 0,
            is_report: 0,
            status: 'Initiated',
            rows: null,
            format: 'csv',
            created_at: '2026-11-20T10:00:00.000Z',
          },
        },
      }),
    });
    signInAs(ALL_PERMISSIONS, { role: 'Admin' });
    renderApp('/refund');
    expect(await screen.findByRole('heading', { name: 'Refund Transactions' })).toBeTruthy();
    expect((await screen.findAllByText('order-10042')).length).toBeGreaterThan(0);
    expect(screen.getByRole('img', { name: 'Reason: Card account closed' })).toBeTruthy();
    const last = () => callsTo(fetch, '/api/refunds-detail').at(-1);
    expect(last()).toEqual({
      transaction_status: 0,
      transaction_type: 0,
      sortby: 'DESC',
      tz: expect.any(String),
      page: 1,
      per_page: 20,
    });
    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Pending' }));
    await waitFor(() => expect(last()).toMatchObject({ transaction_status: 4 }));
    await userEvent.click(screen.getByRole('combobox', { name: 'Type' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Payin' }));
    await waitFor(() => expect(last()).toMatchObject({ transaction_status: 4, transaction_type: 2 }));
    await userEvent.click(screen.getByRole('button', { name: 'Toggle search filters' }));
    await userEvent.type(screen.getByLabelText('Refund ID'), 'rf_000001{Enter}');
    await waitFor(() => expect(last()).toMatchObject({ batch_id: 'rf_000001' }));
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Export as CSV' }));
    await waitFor(() =>
      expect(callsTo(fetch, '/api/export-refunds-detail')).toEqual([
        {
          transaction_status: 4,
          transaction_type: 2,
          batch_id: 'rf_000001',
          sortby: 'DESC',
          tz: expect.any(String),
          format: 'csv',
        },
      ]),
    );
  }, 60_000);
});
