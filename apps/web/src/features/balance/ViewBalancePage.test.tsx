import { ALL_PERMISSIONS, DEFAULT_ROLE_PERMISSIONS } from '@obol/contract';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, mockApi, renderApp, signInAs } from '../../test-utils.tsx';

afterEach(() => vi.restoreAllMocks());

const holder = (id: number, name: string, role: string, brands: unknown[] = []) => ({
  id,
  parent_id: null,
  name,
  email: `${id}@x.test`,
  roles: [{ name: role }],
  remember_token_status: 1,
  fee: 1.5,
  accounts: { account_reference: `REF-${id}`, account_id: `PO-${id}` },
  active_brands: brands,
});
const balances = (id: number, name: string) => ({
  name,
  fee: id === 0 ? null : 1.5,
  account_reference: id === 0 ? 'Fee Account' : `REF-${id}`,
  data:
    id === 0
      ? [{ kind: 'fee', account_id: 'FEE-1', account_reference: 'Fee Account', balance: 990, currency: 'EUR' }]
      : [
          { kind: 'payout', account_id: `PO-${id}`, account_reference: `REF-${id}`, balance: 123456, currency: 'EUR' },
          { kind: 'payin', account_id: `PI-${id}`, account_reference: `REF-${id}`, balance: 5000, currency: 'EUR' },
          { kind: 'clp', account_id: `CL-${id}`, account_reference: `REF-${id}`, balance: 0, currency: 'EUR' },
        ],
});

describe('the balance screen', () => {
  it('lets the Admin pick the Fee Account or a brand under its merchant and shows its balances', async () => {
    const fetch = mockApi({
      '/api/balance-holders': () => ({
        body: {
          data: [holder(7, 'Acme Payouts', 'Merchant', [{ ...holder(8, 'Acme Brand', 'Brand'), parent_id: 7 }])],
        },
      }),
      '/api/holder-balances': (b) => {
        const id = (b as { id: number }).id;
        return { body: balances(id, id === 0 ? 'Fee Account' : 'Acme Brand') };
      },
    });
    signInAs(ALL_PERMISSIONS, { role: 'Admin' });
    renderApp('/view-balance');
    expect(await screen.findByRole('heading', { name: 'View Balance' })).toBeTruthy();
    const chooser = screen.getByRole('combobox', { name: 'Merchant or brand' });
    await userEvent.click(chooser);
    await userEvent.click(await screen.findByRole('option', { name: 'Fee Account' }));
    expect(await screen.findByText('Fee Account balance')).toBeTruthy();
    expect(screen.getByText('€9.90')).toBeTruthy();
    expect(screen.queryByText(/^Fee$/)).toBeNull();

    await userEvent.click(chooser);
    await userEvent.click(await screen.findByRole('option', { name: 'Acme Brand (Brand)' }));
    expect(await screen.findByText('Payout balance')).toBeTruthy();
    expect(screen.getByText('€1,234.56')).toBeTruthy();
    expect(screen.getByText('Pay-in balance')).toBeTruthy();
    expect(screen.getByText('CLP balance')).toBeTruthy();
    expect(screen.getByText('REF-8')).toBeTruthy();
    expect(screen.getByText('1.5%')).toBeTruthy();
    expect(callsTo(fetch, '/api/holder-balances')).toEqual([{ id: 0 }, { id: 8 }]);
  });

  it('offers the Fee Account to the Admin only, and says when nobody matches', async () => {
    mockApi({ '/api/balance-holders': () => ({ body: { data: [] } }) });
    signInAs(DEFAULT_ROLE_PERMISSIONS.Accountant, { role: 'Accountant' });
    renderApp('/view-balance');
    await userEvent.click(await screen.findByRole('combobox', { name: 'Merchant or brand' }));
    expect(await screen.findByText("Merchant/Brand doesn't exist")).toBeTruthy();
    expect(screen.queryByRole('option', { name: 'Fee Account' })).toBeNull();
  });

  it('shows a brand its own balances without a chooser', async () => {
    const fetch = mockApi({
      '/api/holder-balances': (b) => ({ body: balances((b as { id: number }).id, 'My Brand') }),
    });
    signInAs(DEFAULT_ROLE_PERMISSIONS.Brand, { role: 'Brand' });
    renderApp('/view-balance');
    expect(await screen.findByText('Payout balance')).toBeTruthy();
    expect(screen.queryByRole('combobox', { name: 'Merchant or brand' })).toBeNull();
    expect(callsTo(fetch, '/api/balance-holders')).toEqual([]);
    expect(callsTo(fetch, '/api/holder-balances')).toHaveLength(1);
  });

  it('shows the server refusal when the holder is out of reach', async () => {
    mockApi({
      '/api/holder-balances': () => ({ status: 404, body: { error: ["Merchant/Brand doesn't exist"] } }),
    });
    signInAs(DEFAULT_ROLE_PERMISSIONS.Brand, { role: 'Brand' });
    renderApp('/view-balance');
    expect(await screen.findByText("Merchant/Brand doesn't exist")).toBeTruthy();
  });
});
