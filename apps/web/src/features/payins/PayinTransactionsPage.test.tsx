import { ALL_PERMISSIONS, REFUND_MSG, type PayinRow } from '@obol/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, description, mockApi, renderApp, signInAs } from '../../test-utils.tsx';

afterEach(() => vi.restoreAllMocks());

const row = (over: Partial<PayinRow> = {}): PayinRow => ({
  id: 1,
  pay_in_reference: 'order-10042',
  merchant_name: 'Acme Payouts',
  brand_name: null,
  amount: 2599,
  currency: 'EUR',
  request_id: 'pl_000001',
  channel: 'Payin',
  requested_by: null,
  transaction_status: 'Completed',
  link_status: 'Used',
  reason: null,
  first_name: 'Ana',
  last_name: 'Novak',
  date_of_birth: '1990-04-12',
  account_id: 'PI00000007',
  refund_status: 3,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:01:00.000Z',
  ...over,
});
const exported = {
  message: ['Process is running in the background. Please wait.'],
  file: {
    id: 1,
    file_name: 'payin-transactions.csv',
    start_date: null,
    end_date: null,
    is_download: 0,
    is_report: 0,
    status: 'Initiated',
    rows: null,
    format: 'csv',
    created_at: '2026-11-20T10:00:00.000Z',
  },
};
const last = (fetch: ReturnType<typeof mockApi>) => callsTo(fetch, '/api/pay-in-order-details').at(-1);

describe('Payin Transactions', () => {
  it('lists pay-ins with the reasons of Declined and Expired, filters by status and the panel, and exports', async () => {
    const fetch = mockApi({
      '/api/pay-in-order-details': () => ({
        body: {
          data: [
            row(),
            row({ id: 2, pay_in_reference: 'order-2', transaction_status: 'Declined', reason: 'Payment declined' }),
            row({
              id: 3,
              pay_in_reference: 'order-3',
              brand_name: 'Acme Brand',
              transaction_status: 'Expired',
              link_status: 'Expired',
              reason: 'The payment link expired before it was paid',
            }),
          ],
          total: 3,
        },
      }),
      '/api/export-payin-record': () => ({ body: exported }),
    });
    signInAs(ALL_PERMISSIONS, { role: 'Admin' });
    renderApp('/payin');
    expect(await screen.findByRole('heading', { name: 'Payin Transactions' })).toBeTruthy();
    expect((await screen.findAllByText('order-10042')).length).toBeGreaterThan(0);
    expect(screen.getByRole('img', { name: 'Reason: Payment declined' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Reason: The payment link expired before it was paid' })).toBeTruthy();
    expect(callsTo(fetch, '/api/pay-in-order-details')[0]).toEqual({
      channel: 'Payin',
      transaction_status: 0,
      sortby: 'DESC',
      tz: expect.any(String),
      page: 1,
      per_page: 20,
    });

    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Expired' }));
    await waitFor(() => expect(last(fetch)).toMatchObject({ transaction_status: 3 }));

    await userEvent.click(screen.getByRole('button', { name: 'Toggle search filters' }));
    const panel = screen.getByRole('form', { name: 'Search filters' });
    for (const label of ['Pay-in Reference', 'Merchant or Brand', 'Request ID', 'Payer Name', 'Account ID'])
      expect(within(panel).getByLabelText(label)).toBeTruthy();
    await userEvent.type(within(panel).getByLabelText('Payer Name'), 'Ana{Enter}');
    await waitFor(() => expect(last(fetch)).toMatchObject({ transaction_status: 3, user_name: 'Ana', page: 1 }));

    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Export as CSV' }));
    await waitFor(() =>
      expect(callsTo(fetch, '/api/export-payin-record')).toEqual([
        {
          channel: 'Payin',
          transaction_status: 3,
          user_name: 'Ana',
          sortby: 'DESC',
          tz: expect.any(String),
          format: 'csv',
        },
      ]),
    );
  }, 60_000);

  it('CardEye Transactions: the CardEye channel, who requested each payment, and a Requested By filter', async () => {
    const fetch = mockApi({
      '/api/pay-in-order-details': () => ({
        body: {
          data: [row({ channel: 'CardEye', requested_by: 'Till 4 (Maria)', pay_in_reference: 'card-7' })],
          total: 1,
        },
      }),
    });
    signInAs(['User can view cardeye transactions', 'User can search', 'User can view profile'], { role: 'Reviewer' });
    renderApp('/cardeye');
    expect(await screen.findByRole('heading', { name: 'CardEye Transactions' })).toBeTruthy();
    expect((await screen.findAllByText('Till 4 (Maria)')).length).toBeGreaterThan(0);
    expect(callsTo(fetch, '/api/pay-in-order-details')[0]).toMatchObject({ channel: 'CardEye' });
    await userEvent.click(screen.getByRole('button', { name: 'Toggle search filters' }));
    const panel = screen.getByRole('form', { name: 'Search filters' });
    await userEvent.type(within(panel).getByLabelText('Requested By'), 'maria{Enter}');
    await waitFor(() =>
      expect(callsTo(fetch, '/api/pay-in-order-details').at(-1)).toMatchObject({
        channel: 'CardEye',
        requested_by: 'maria',
      }),
    );
  }, 60_000);

  it('has no filter toggle without "User can search", and no export without "User can export transactions"', async () => {
    mockApi({ '/api/pay-in-order-details': () => ({ body: { data: [row()], total: 1 } }) });
    signInAs(['User can view pay in panel', 'User can view profile'], { role: 'Reviewer' });
    renderApp('/payin');
    expect((await screen.findAllByText('order-10042')).length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: 'Export' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Toggle search filters' })).toBeNull();
  }, 60_000);

  it('refunds a completed pay-in: confirm, the code, submit; the others cannot be refunded', async () => {
    let refunded = false;
    const fetch = mockApi({
      '/api/pay-in-order-details': () => ({
        body: {
          data: [
            row({ refund_status: refunded ? 2 : 3 }),
            row({ id: 2, pay_in_reference: 'order-2', request_id: 'pl_2', refund_status: 1 }),
            row({
              id: 3,
              pay_in_reference: 'order-3',
              request_id: 'pl_3',
              transaction_status: 'Pending',
              refund_status: null,
            }),
          ],
          total: 3,
        },
      }),
      '/api/generate-refund-code': () => ({ body: { message: ['A verification code has been sent to your e-mail'] } }),
      '/api/payin-refund': (b) => {
        if ((b as { code: string }).code !== '123456')
          return {
            status: 422,
            body: {
              error: ['This code does not approve this transaction'],
              fields: { code: ['This code does not approve this transaction'] },
            },
          };
        refunded = true;
        return { body: { message: [REFUND_MSG.refunded], refund_status: 2, reward_kept: 0 } };
      },
    });
    signInAs(ALL_PERMISSIONS, { role: 'Admin' });
    renderApp('/payin');
    expect((await screen.findAllByText('order-10042')).length).toBeGreaterThan(0);
    expect(screen.getAllByText('Not Refunded').length).toBeGreaterThan(0);
    expect(screen.getAllByText('Refund Completed').length).toBeGreaterThan(0);
    expect(screen.getAllByText('Not Allowed').length).toBeGreaterThan(0);
    expect((screen.getByRole('button', { name: 'Refund the pay-in order-2' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect((screen.getByRole('button', { name: 'Refund the pay-in order-3' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    // the disabled ones say why
    expect(description(screen.getByRole('button', { name: 'Refund the pay-in order-2' }))).toBe(
      'The pay-in is already refunded',
    );
    expect(description(screen.getByRole('button', { name: 'Refund the pay-in order-3' }))).toBe(
      'The pay-in is not completed',
    );
    expect(screen.getByRole('button', { name: 'Refund the pay-in order-10042' }).textContent).toBe('Refund');

    await userEvent.click(screen.getByRole('button', { name: 'Refund the pay-in order-10042' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Refund this pay-in?' });
    expect(within(confirm).getByText(/€25\.99 of order-10042 goes back to Ana Novak/)).toBeTruthy();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Send code' }));
    expect(callsTo(fetch, '/api/generate-refund-code')).toEqual([{ reference: 'pl_000001' }]);
    const dialog = await screen.findByRole('dialog', { name: 'Enter the verification code' });
    // the spec's note: the refund code is e-mailed and valid for 24 hours
    expect(within(dialog).getByText(/valid for 24 hours/)).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText('Verification code'), '111111{Enter}');
    expect(await within(dialog).findByText('This code does not approve this transaction')).toBeTruthy();
    const input = within(dialog).getByLabelText('Verification code');
    await userEvent.clear(input);
    await userEvent.type(input, '123456{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(fetch, '/api/payin-refund').at(-1)).toEqual({ reference: 'pl_000001', code: '123456' });
    expect(await screen.findByText(REFUND_MSG.refunded)).toBeTruthy();
    expect((await screen.findAllByText('Refund Pending')).length).toBeGreaterThan(0);
    // a receipt of the refund, with a link to the refund list, until dismissed
    const receipt = screen.getByRole('region', { name: 'Receipt: Refund requested' });
    expect(receipt.textContent).toContain('€25.99');
    expect(receipt.textContent).toContain('Acme Payouts, pay-in account PI00000007');
    expect(receipt.textContent).toContain('Ana Novak');
    expect(receipt.textContent).toContain('order-10042');
    expect(within(receipt).getByText('Pending')).toBeTruthy();
    expect(within(receipt).getByRole('link', { name: 'See it in Refund Transactions' }).getAttribute('href')).toBe(
      '/refund',
    );
  }, 60_000);
});
