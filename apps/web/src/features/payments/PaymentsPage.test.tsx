import { ALL_PERMISSIONS, type AccountChoice, type HolderOption } from '@obol/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { callsTo, mockApi, renderApp, signInAs } from '../../test-utils.tsx';

vi.setConfig({ testTimeout: 40_000 });

const ACME: HolderOption = {
  id: 7,
  parent_id: null,
  name: 'Acme Payouts',
  email: 'merchant@obol.example',
  roles: [{ name: 'Merchant' }],
  remember_token_status: 1,
  fee: 1.5,
  accounts: { account_reference: 'OBL0000001', account_id: 'PO00000001' },
  active_brands: [],
};
const account = (n: number): AccountChoice => ({
  merchant_name: 'Acme Payouts',
  account_id: `PO0000000${n}`,
  account_reference: `OBL000000${n}`,
  balance: 50_000,
});

/** Payments as a staff user up to step 3 (the account), the holder's accounts as given. */
async function toAccountStep(
  accounts: AccountChoice[],
  role: 'Manager' | 'Admin' = 'Manager',
  extra: Parameters<typeof mockApi>[0] = {},
) {
  const fetch = mockApi({
    ...extra,
    '/api/search-merchant': () => ({ body: { data: [ACME] } }),
    '/api/merchant-accounts': (body) =>
      (body as { id: number }).id === 0 ? { body: { data: [FEE_ACCOUNT] } } : { body: { data: accounts, fee: 1.5 } },
    '/api/account-balance': (b) => {
      const asked = b as { account_reference: string; account_id: string };
      return { body: { balance: 50_000, fee: 1.5, ...asked, currency: 'EUR' } };
    },
  });
  signInAs(ALL_PERMISSIONS, { role });
  renderApp('/payments');
  await userEvent.click(await screen.findByText('Manual Payout'));
  await userEvent.click(await screen.findByRole('combobox', { name: 'Merchant or brand' }));
  await userEvent.click(await screen.findByRole('option', { name: 'Acme Payouts (Merchant)' }));
  await userEvent.click(screen.getByRole('button', { name: 'Next' }));
  return fetch;
}

const FEE_ACCOUNT: AccountChoice = {
  merchant_name: 'Fee Account',
  account_id: 'FEE0000001',
  account_reference: 'Fee Account',
  balance: 9_000,
};

describe('the payments stepper, step 3', () => {
  it('offers the Admin the Fee Account beside the holder’s accounts, paid on the holder’s behalf', async () => {
    const fetch = await toAccountStep([account(1)], 'Admin');
    const fee = (await screen.findByRole('radio', { name: /Fee Account: the platform's fees/ })) as HTMLInputElement;
    expect(screen.getAllByRole('radio')).toHaveLength(2);
    expect(callsTo(fetch, '/api/merchant-accounts')).toContainEqual({ id: 0, parent_id: null });
    await userEvent.click(fee);
    await waitFor(() =>
      expect(callsTo(fetch, '/api/account-balance')).toEqual([
        { account_reference: 'Fee Account', account_id: 'FEE0000001' },
      ]),
    );
  });

  it('chooses the only account for the user and loads its balance', async () => {
    const fetch = await toAccountStep([account(1)]);
    const radio = (await screen.findByRole('radio', { name: /PO00000001/ })) as HTMLInputElement;
    await waitFor(() => expect(radio.checked).toBe(true));
    expect(screen.getByText(/only account you can pay out from/)).toBeTruthy();
    const next = screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement;
    await waitFor(() => expect(next.disabled).toBe(false));
    expect(callsTo(fetch, '/api/account-balance')).toEqual([
      { account_reference: 'OBL0000001', account_id: 'PO00000001' },
    ]);
    await userEvent.click(next);
    await screen.findByLabelText('Beneficiary name');
  });

  it('creates a manual payout with its code, then a receipt follows to Recent Batches', async () => {
    const fetch = await toAccountStep([account(1)], 'Manager', {
      '/api/request-code': () => ({ body: { message: ['A verification code has been sent to your e-mail'] } }),
      '/api/create-payout': () => ({
        status: 201,
        body: {
          message: ['Payout created'],
          batch_id: 'manual_OBL1_1',
          payout: { id: 5, status: 'Processing', amount: 2500, fee: 38 },
        },
      }),
      '/api/recent-batches': () => ({ body: { data: [], total: 0 } }),
    });
    const next = screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement;
    await waitFor(() => expect(next.disabled).toBe(false));
    await userEvent.click(next);
    await userEvent.type(await screen.findByLabelText('Beneficiary name'), 'Ana Silva');
    await userEvent.type(screen.getByLabelText('Brand'), 'Acme Brand');
    await userEvent.type(screen.getByLabelText('Merchant transaction id'), 'M-1');
    await userEvent.type(screen.getByLabelText('Obol ID'), '100000001');
    await userEvent.type(screen.getByLabelText('Reference'), 'Invoice 1');
    await userEvent.type(screen.getByLabelText('Amount (cents)'), '2500');
    const create = screen.getByRole('button', { name: 'Create Payout' }) as HTMLButtonElement;
    await waitFor(() => expect(create.disabled).toBe(false));
    await userEvent.click(create);
    const dialog = await screen.findByRole('dialog', { name: 'Enter the verification code' });
    await userEvent.type(within(dialog).getByLabelText('Verification code'), '123456{Enter}');
    await waitFor(() => expect(callsTo(fetch, '/api/create-payout')).toHaveLength(1));
    const receipt = await screen.findByRole('region', { name: 'Receipt: Payout created' });
    expect(receipt.textContent).toContain('€25.00 + €0.38 fee');
    expect(receipt.textContent).toContain('Acme Payouts, account OBL0000001');
    expect(receipt.textContent).toContain('Ana Silva, Obol id 100000001');
    expect(receipt.textContent).toContain('manual_OBL1_1');
    expect(within(receipt).getByText('Processing')).toBeTruthy();
    expect(within(receipt).getByRole('link', { name: 'See it in Recent Batches' }).getAttribute('href')).toBe(
      '/recent-batches?q=manual_OBL1_1',
    );
  });

  it('waits for a choice when there are several', async () => {
    const fetch = await toAccountStep([account(1), account(2)]);
    const radios = (await screen.findAllByRole('radio')) as HTMLInputElement[];
    expect(radios.map((r) => r.checked)).toEqual([false, false]);
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
    expect(callsTo(fetch, '/api/account-balance')).toEqual([]);
    await userEvent.click(radios[1]);
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(false),
    );
  });
});
