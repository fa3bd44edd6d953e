import { ALL_PERMISSIONS, REWARD_MSG, type RewardRow } from '@obol/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, mockApi, renderApp, signInAs } from '../../test-utils.tsx';

afterEach(() => vi.restoreAllMocks());

const row = (over: Partial<RewardRow> = {}): RewardRow => ({
  id: 1,
  pay_in_reference: 'order-10042',
  user_obol_id: '100000001',
  merchant_name: 'Acme Payouts',
  brand_name: null,
  amount: 250,
  currency: 'EUR',
  transaction_status: 'Completed',
  refund_status: 3,
  reward_status: 'NotRewarded',
  payout_status: null,
  reason: null,
  created_at: '2026-11-20T10:00:00.000Z',
  rewarded_at: null,
  ...over,
});

describe('Payin Rewards', () => {
  it('lists rewards, searches (debounced), filters by reward status, and exports', async () => {
    const fetch = mockApi({
      '/api/payin-rewards': () => ({
        body: {
          data: [
            row(),
            row({
              id: 2,
              pay_in_reference: 'order-2',
              reward_status: 'Rewarded',
              payout_status: 'Completed',
              rewarded_at: '2026-11-20T11:00:00.000Z',
            }),
          ],
          total: 2,
        },
      }),
      '/api/export-payin-rewards': () => ({
        body: {
          message: ['Process is running in the background. Please wait.'],
          file: {
            id: 1,
            file_name: 'payin-rewards.csv',
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
    renderApp('/payin-rewards');
    expect(await screen.findByRole('heading', { name: 'Payin Rewards' })).toBeTruthy();
    expect((await screen.findAllByText('order-10042')).length).toBeGreaterThan(0);
    expect(callsTo(fetch, '/api/payin-rewards')[0]).toEqual({
      search: '',
      reward_status: 0,
      sortby: 'DESC',
      page: 1,
      per_page: 20,
    });
    // the update button: enabled while Not Rewarded, disabled once Rewarded
    expect(
      (screen.getByRole('button', { name: 'Update the reward of order-10042' }) as HTMLButtonElement).disabled,
    ).toBe(false);
    expect((screen.getByRole('button', { name: 'Update the reward of order-2' }) as HTMLButtonElement).disabled).toBe(
      true,
    );

    await userEvent.click(screen.getByRole('combobox', { name: 'Reward Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Not Rewarded' }));
    await waitFor(() => expect(callsTo(fetch, '/api/payin-rewards').at(-1)).toMatchObject({ reward_status: 2 }));

    await userEvent.type(screen.getByRole('searchbox'), '100000001');
    await waitFor(
      () =>
        expect(callsTo(fetch, '/api/payin-rewards').at(-1)).toMatchObject({
          search: '100000001',
          reward_status: 2,
          page: 1,
        }),
      { timeout: 3000 },
    );

    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Export as CSV' }));
    await waitFor(() =>
      expect(callsTo(fetch, '/api/export-payin-rewards')).toEqual([
        { search: '100000001', reward_status: 2, sortby: 'DESC', format: 'csv' },
      ]),
    );
  }, 60_000);

  it('updates a reward after the confirmation, and shows a refusal', async () => {
    let paid = false;
    const fetch = mockApi({
      '/api/payin-rewards': (b) => {
        const body = b as { id?: number };
        if (body.id === 3) return { status: 409, body: { error: [REWARD_MSG.alreadyRewarded] } };
        if (body.id === 1) paid = true;
        return {
          body: {
            ...(body.id ? { message: [REWARD_MSG.updated] } : {}),
            data: [
              row(paid ? { reward_status: 'Rewarded', payout_status: 'Pending' } : {}),
              row({ id: 3, pay_in_reference: 'order-3' }),
              row({ id: 4, pay_in_reference: 'order-4', transaction_status: 'Pending', refund_status: null }),
              row({ id: 5, pay_in_reference: 'order-5', refund_status: 2 }),
              row({ id: 6, pay_in_reference: 'order-6', refund_status: 1 }),
            ],
            total: 5,
          },
        };
      },
    });
    signInAs(ALL_PERMISSIONS, { role: 'Admin' });
    renderApp('/payin-rewards');
    await screen.findAllByText('order-10042');
    // a pay-in not completed cannot be rewarded yet, nor one refunded or being refunded
    for (const ref of ['order-4', 'order-5', 'order-6'])
      expect((screen.getByRole('button', { name: `Update the reward of ${ref}` }) as HTMLButtonElement).disabled).toBe(
        true,
      );
    await userEvent.click(screen.getByRole('button', { name: 'Update the reward of order-10042' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Update this reward?' });
    expect(dialog.textContent).toContain('100000001');
    // cancel sends nothing
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(callsTo(fetch, '/api/payin-rewards').some((b) => (b as { id?: number }).id)).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Update the reward of order-10042' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Update reward' }),
    );
    expect(await screen.findByText(REWARD_MSG.updated)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(callsTo(fetch, '/api/payin-rewards').filter((b) => (b as { id?: number }).id === 1)).toHaveLength(1);
    // a receipt: the reward's amount, from the pay-in account to the payer's wallet, and its list
    const receipt = screen.getByRole('region', { name: 'Receipt: Reward paid' });
    expect(receipt.textContent).toContain('€2.50');
    expect(receipt.textContent).toContain('Obol wallet 100000001');
    expect(receipt.textContent).toContain('order-10042');
    expect(within(receipt).getByText('Pending')).toBeTruthy();
    expect(within(receipt).getByRole('link', { name: 'See it in Payin Rewards' }).getAttribute('href')).toBe(
      '/payin-rewards?q=order-10042',
    );
    await waitFor(() =>
      expect(
        (screen.getByRole('button', { name: 'Update the reward of order-10042' }) as HTMLButtonElement).disabled,
      ).toBe(true),
    );

    await userEvent.click(screen.getByRole('button', { name: 'Update the reward of order-3' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Update reward' }),
    );
    expect(await screen.findByText(REWARD_MSG.alreadyRewarded)).toBeTruthy();
  }, 60_000);
});
