import { ALL_PERMISSIONS, DEFAULT_ROLE_PERMISSIONS, type TransferRow } from '@obol/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, mockApi, renderApp, signInAs } from '../../test-utils.tsx';

afterEach(() => vi.restoreAllMocks());

const ownAccounts = {
  account_id: 'PO00000007',
  account_reference: 'OBL0000007',
  balance: 50_000,
  payin_account_id: 'PI00000007',
  payin_balance: 0,
  clp_account_id: 'CL00000007',
  clp_balance: 0,
  id: 'PO00000007',
};
const balances: Record<string, number> = { PO00000007: 50_000, PI00000007: 0, CL00000007: 0, PO00000009: 9_000 };
const balanceApi = (b: unknown) => {
  const id = (b as { account_id: string }).account_id;
  return {
    body: { balance: balances[id] ?? 0, fee: 1.5, account_id: id, account_reference: 'OBL0000007', currency: 'EUR' },
  };
};
const row = (over: Partial<TransferRow> = {}): TransferRow => ({
  id: 1,
  beneficiary_name: 'Acme Supplies GmbH',
  iban: 'DE89370400440532013000',
  bic: 'DEUTDEFF',
  amount: 2500,
  currency: 'EUR',
  transfer_by: 'Acme Payouts',
  account_used: 'Payout',
  account_id: 'PO00000007',
  merchant_name: 'Acme Payouts',
  status: 'Completed',
  detail: null,
  message: 'Invoice 2026-11',
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:05.000Z',
  ...over,
});
const TRANSFER_PERMS = ['User can view transfer amount screen', 'User can export transactions'] as const;

async function fillForm(iban = 'DE89 3704 0044 0532 0130 00') {
  await userEvent.type(screen.getByLabelText('Beneficiary name'), 'Acme Supplies GmbH');
  await userEvent.type(screen.getByLabelText('IBAN'), iban);
  await userEvent.type(screen.getByLabelText('BIC'), 'DEUTDEFF');
  await userEvent.type(screen.getByLabelText('Amount (cents)'), '2500');
  await userEvent.type(screen.getByLabelText('Purpose of payment (optional)'), 'Invoice 2026-11');
}

describe('Amount Transfer', () => {
  it('keeps the form shut until an account with a balance is chosen, then transfers with the mailed code', async () => {
    const fetch = mockApi({
      '/api/login-user-account': () => ({ body: ownAccounts }),
      '/api/account-balance': balanceApi,
      '/api/send-otp': () => ({ body: { message: ['A verification code has been sent to your e-mail'] } }),
      '/api/amount-transfer': () => ({
        status: 201,
        body: {
          message: ['Amount transferred successfully. It is pending until the bank confirms it.'],
          transfer: row(),
        },
      }),
    });
    signInAs([...DEFAULT_ROLE_PERMISSIONS.Merchant, ...TRANSFER_PERMS], { role: 'Merchant', name: 'Acme Payouts' });
    renderApp('/amount-transfer');
    expect(await screen.findByRole('heading', { name: 'Amount Transfer' })).toBeTruthy();
    expect(screen.getByText('Please select account first')).toBeTruthy();
    expect((screen.getByLabelText('IBAN') as HTMLInputElement).disabled).toBe(true);

    // the pay-in account has no balance: still shut
    await userEvent.click(screen.getByRole('combobox', { name: 'Account type' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Payin' }));
    expect(
      await screen.findByText(
        (_, el) =>
          el?.textContent === 'Please select account first: the account chosen has no balance to transfer.' &&
          el.children.length === 0,
      ),
    ).toBeTruthy();
    expect((screen.getByLabelText('IBAN') as HTMLInputElement).disabled).toBe(true);

    await userEvent.click(screen.getByRole('combobox', { name: 'Account type' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Payout' }));
    expect(await screen.findByText('€500.00')).toBeTruthy();
    await waitFor(() => expect((screen.getByLabelText('IBAN') as HTMLInputElement).disabled).toBe(false));

    // a mistyped IBAN is refused before any code is asked for
    await userEvent.type(screen.getByLabelText('IBAN'), 'DE89370400440532013001');
    expect(await screen.findByText('IBAN is not valid: check the digits')).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('IBAN'));
    // more than the balance
    await userEvent.type(screen.getByLabelText('Amount (cents)'), '50001');
    expect(await screen.findByText('Must not exceed available balance')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Transfer Amount' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.clear(screen.getByLabelText('Amount (cents)'));

    await fillForm();
    await userEvent.click(screen.getByRole('button', { name: 'Transfer Amount' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enter the verification code' });
    expect(callsTo(fetch, '/api/send-otp')).toEqual([
      {
        transaction_type: 'Amount Transfer',
        beneficiary_name: 'Acme Supplies GmbH',
        iban: 'DE89370400440532013000',
        bic: 'DEUTDEFF',
        amount: 2500,
        account_id: 'PO00000007',
        message: 'Invoice 2026-11',
      },
    ]);
    await userEvent.type(within(dialog).getByLabelText(/code/i), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: /submit|verify|confirm/i }));
    await waitFor(() => expect(callsTo(fetch, '/api/amount-transfer')).toHaveLength(1));
    expect(callsTo(fetch, '/api/amount-transfer')[0]).toMatchObject({
      code: '123456',
      amount: 2500,
      account_id: 'PO00000007',
      account_used: 1,
      idempotency_key: expect.any(String),
    });
    expect(await screen.findByText(/Amount transferred successfully/)).toBeTruthy();
    // a receipt says what moved, from where, to whom, its reference and status, and links to its list
    const receipt = await screen.findByRole('region', { name: 'Receipt: Transfer submitted' });
    expect(receipt.textContent).toContain('€25.00');
    expect(receipt.textContent).toContain('Acme Payouts, Payout account PO00000007');
    expect(receipt.textContent).toContain('Acme Supplies GmbH, IBAN DE89370400440532013000');
    expect(receipt.textContent).toContain('Transfer 1');
    expect(within(receipt).getByText('Completed')).toBeTruthy();
    expect(within(receipt).getByRole('link', { name: 'See it in Transfer Transactions' }).getAttribute('href')).toBe(
      '/transfer-transactions',
    );
    // the fields start over; the account chosen and its balance stay
    await waitFor(() => expect((screen.getByLabelText('IBAN') as HTMLInputElement).value).toBe(''));
    expect(screen.getByRole('combobox', { name: 'Account type' }).textContent).toBe('Payout');
    // kept until dismissed
    await userEvent.click(within(receipt).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('region', { name: 'Receipt: Transfer submitted' })).toBeNull();
  }, 90_000);

  it('shows a refused code in the dialog and the server’s field message under its field', async () => {
    mockApi({
      '/api/login-user-account': () => ({ body: ownAccounts }),
      '/api/account-balance': balanceApi,
      '/api/send-otp': () => ({ body: { message: ['A verification code has been sent to your e-mail'] } }),
      '/api/amount-transfer': () => ({
        status: 422,
        body: {
          error: ['This code does not approve this transaction'],
          fields: { code: ['This code does not approve this transaction'] },
        },
      }),
    });
    signInAs([...DEFAULT_ROLE_PERMISSIONS.Merchant, ...TRANSFER_PERMS], { role: 'Merchant' });
    renderApp('/amount-transfer');
    await userEvent.click(await screen.findByRole('combobox', { name: 'Account type' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Payout' }));
    await waitFor(() => expect((screen.getByLabelText('IBAN') as HTMLInputElement).disabled).toBe(false));
    await fillForm();
    await userEvent.click(screen.getByRole('button', { name: 'Transfer Amount' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enter the verification code' });
    await userEvent.type(within(dialog).getByLabelText(/code/i), '999999');
    await userEvent.click(within(dialog).getByRole('button', { name: /submit|verify|confirm/i }));
    expect(await within(dialog).findByText('This code does not approve this transaction')).toBeTruthy();
  }, 60_000);

  it('points staff other than the Admin to Merchants Payout', async () => {
    mockApi({ '/api/login-user-account': () => ({ body: { ...ownAccounts, account_id: 'FEE-000001' } }) });
    signInAs(DEFAULT_ROLE_PERMISSIONS.Accountant, { role: 'Accountant' });
    renderApp('/amount-transfer');
    const note = (await screen.findByText(/Your user has no accounts of its own/)).closest(
      '[role="alert"]',
    ) as HTMLElement;
    expect(within(note).getByRole('link', { name: 'Merchants Payout' }).getAttribute('href')).toBe('/merchants-payout');
  });
});

describe('Merchants Payout', () => {
  it('transfers from the chosen merchant’s or brand’s accounts', async () => {
    const fetch = mockApi({
      '/api/merchant-with-account': () => ({
        body: {
          data: [
            {
              id: 9,
              merchant_name: 'Globex Outlet',
              role: 'Brand',
              parent_name: 'Globex Trading',
              account_id: 'PO00000009',
              account_reference: 'OBL0000009',
              accounts: [
                { kind: 'payout', account_id: 'PO00000009' },
                { kind: 'payin', account_id: 'PI00000009' },
                { kind: 'clp', account_id: 'CL00000009' },
              ],
            },
          ],
        },
      }),
      '/api/account-balance': balanceApi,
    });
    signInAs(DEFAULT_ROLE_PERMISSIONS.Accountant, { role: 'Accountant' });
    renderApp('/merchants-payout');
    expect(await screen.findByText(/Choose the merchant or brand/)).toBeTruthy();
    await userEvent.click(screen.getByRole('combobox', { name: 'Merchant account' }));
    await userEvent.click(await screen.findByRole('option', { name: /Globex Outlet/ }));
    await userEvent.click(await screen.findByRole('combobox', { name: 'Account type' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Payout' }));
    expect(await screen.findByText('€90.00')).toBeTruthy();
    expect(screen.getByText('Account id PO00000009')).toBeTruthy();
    expect(callsTo(fetch, '/api/account-balance')).toContainEqual({ account_id: 'PO00000009' });
  });
});

describe('Transfer Transactions', () => {
  it('lists transfers with the reason of a decline and the purpose, filters by status and exports', async () => {
    const fetch = mockApi({
      '/api/get-amount-transfer-details': () => ({
        body: {
          data: [row(), row({ id: 2, status: 'Declined', detail: 'Account closed', iban: 'DE94370400440532010000' })],
          total: 2,
        },
      }),
      '/api/export-transfer-details': () => ({
        body: {
          message: ['Process is running in the background. Please wait.'],
          file: {
            id: 1,
            file_name: 'transfer-transactions.csv',
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
    renderApp('/transfer-transactions');
    expect(await screen.findByRole('heading', { name: 'Transfer Transactions' })).toBeTruthy();
    expect((await screen.findAllByText('Acme Supplies GmbH')).length).toBeGreaterThan(0);
    expect(screen.getByRole('img', { name: 'Reason: Account closed' })).toBeTruthy();
    expect(callsTo(fetch, '/api/get-amount-transfer-details')[0]).toEqual({
      status: 0,
      sortby: 'DESC',
      page: 1,
      per_page: 20,
    });

    await userEvent.click(screen.getAllByRole('button', { name: /^Purpose of payment of the transfer/ })[0]);
    const dialog = await screen.findByRole('dialog', { name: 'Purpose of payment' });
    expect(within(dialog).getByText('Invoice 2026-11')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Declined' }));
    await waitFor(() => expect(callsTo(fetch, '/api/get-amount-transfer-details').at(-1)).toMatchObject({ status: 2 }));

    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Export as CSV' }));
    await waitFor(() =>
      expect(callsTo(fetch, '/api/export-transfer-details')).toEqual([{ status: 2, sortby: 'DESC', format: 'csv' }]),
    );
  }, 60_000);
});
