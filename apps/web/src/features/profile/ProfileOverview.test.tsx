import { ALL_PERMISSIONS, DEFAULT_ROLE_PERMISSIONS } from '@obol/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, mockApi, renderApp, signInAs } from '../../test-utils.tsx';

afterEach(() => vi.restoreAllMocks());

const account = (over: Record<string, unknown> = {}) => ({
  body: {
    id: 'W-PAYOUT',
    account_id: 'W-PAYOUT',
    account_reference: 'REF-1',
    balance: 123456,
    payin_account_id: 'W-PAYIN',
    payin_balance: 5000,
    clp_account_id: null,
    clp_balance: 0,
    ...over,
  },
});

describe('the profile overview', () => {
  it('shows Admin the payout, pay-in and CLP balances with their account ids, and the Obol Checker', async () => {
    const fetch = mockApi({
      '/api/login-user-account': () => account(),
      '/api/wallet-checker': () => ({
        body: {
          user_info: {
            first_name: 'Jo',
            last_name: 'Doe',
            date_of_birth: '1990-01-01',
            date_of_bith: '1990-01-01',
            obol_id: 'OB-1',
          },
        },
      }),
    });
    signInAs(ALL_PERMISSIONS, { role: 'Admin' });
    renderApp('/user-profile');
    expect(await screen.findByText('Payout balance (Fee Account)')).toBeTruthy();
    expect(screen.getByText('Account id W-PAYOUT')).toBeTruthy();
    expect(screen.getByText('Pay-in balance')).toBeTruthy();
    expect(screen.getByText('Account id W-PAYIN')).toBeTruthy();
    expect(screen.getByText('CLP balance')).toBeTruthy();
    expect(screen.getByText('No account')).toBeTruthy();
    expect(screen.getByText(/1,234\.56/)).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Obol Checker' }));
    const dialog = await screen.findByRole('dialog', { name: 'Obol Checker' });
    await userEvent.type(within(dialog).getByLabelText('Obol ID'), 'OB-1{Enter}');
    expect(await within(dialog).findByText(/Jo Doe, born 1990-01-01/)).toBeTruthy();
    expect(callsTo(fetch, '/api/wallet-checker')).toEqual([{ obol_id: 'OB-1' }]);
  });

  it("shows a role with 'User can view balance' its available balance, but not Manager; no checker for 2D Admin", async () => {
    const fetch = mockApi({ '/api/login-user-account': () => account() });
    signInAs(DEFAULT_ROLE_PERMISSIONS.Finance, { role: 'Finance' });
    const { unmount } = renderApp('/user-profile');
    expect(await screen.findByText('Available balance')).toBeTruthy();
    expect(screen.queryByText('Pay-in balance')).toBeNull();
    expect(screen.getByRole('button', { name: 'Obol Checker' })).toBeTruthy();
    unmount();

    signInAs(ALL_PERMISSIONS, { role: 'Manager' });
    const manager = renderApp('/user-profile');
    expect(await screen.findByRole('heading', { name: 'User Profile' })).toBeTruthy();
    expect(screen.queryByText('Available balance')).toBeNull();
    manager.unmount();

    fetch.mockClear();
    signInAs(DEFAULT_ROLE_PERMISSIONS['2D Admin'], { role: '2D Admin' });
    renderApp('/user-profile');
    expect(await screen.findByRole('heading', { name: 'User Profile' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Obol Checker' })).toBeNull();
    // the 2FA switch is there for every role
    expect(screen.getByRole('switch', { name: '2FA for payouts with an authenticator app' })).toBeTruthy();
    await waitFor(() => expect(callsTo(fetch, '/api/login-user-account')).toHaveLength(0));
  });

  it('shows a merchant its own three balances', async () => {
    mockApi({
      '/api/login-user-account': () => account({ clp_account_id: 'W-CLP', clp_balance: 700 }),
      '/api/api-key-overview': () => ({
        body: { account_reference: 'REF-1', public_key_masked: 'pk_AbCd…WxYz', created_at: null },
      }),
    });
    signInAs(DEFAULT_ROLE_PERMISSIONS.Merchant, { role: 'Merchant' });
    renderApp('/user-profile');
    expect(await screen.findByText('Available balance (payout)')).toBeTruthy();
    expect(screen.getByText('Account id W-CLP')).toBeTruthy();
    expect(await screen.findByText('REF-1')).toBeTruthy();
  });
});
