import { ALL_PERMISSIONS, DEFAULT_ROLE_PERMISSIONS } from '@obol/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, mockApi, renderApp, signInAs, type Handler } from '../../test-utils.tsx';
import { typedBps } from './FeeDialogs.tsx';

afterEach(() => vi.restoreAllMocks());

const row = {
  id: 5,
  name: 'Acme Payouts',
  email: 'merchant@x.test',
  role: 'Merchant',
  parent: null,
  fee: 1.5,
  changed_at: null,
};
const api = (over: Record<string, Handler> = {}) =>
  mockApi({
    '/api/fee-list': () => ({ body: { data: [row], total: 1 } }),
    '/api/fee-income': () => ({
      body: {
        start_date: '2026-10-26',
        end_date: '2026-11-24',
        data: [
          { period: '2026-11-20', amount: 1250 },
          { period: '2026-11-21', amount: 300 },
        ],
        total: 1550,
      },
    }),
    ...over,
  });

describe('typedBps', () => {
  it('reads a percentage with at most two decimals above 0 up to 100 as whole basis points', () => {
    expect(typedBps('1.25')).toBe(125);
    expect(typedBps('100')).toBe(10_000);
    expect(typedBps('0.01')).toBe(1);
    expect(typedBps('2.5')).toBe(250);
    for (const bad of ['0', '100.01', '1.234', '-1', 'abc', '', '1e2']) expect(typedBps(bad), bad).toBeNull();
  });
});

describe('the Fee Module', () => {
  it('lists the fees and the income, and changes a fee with a reason, Save only after a valid change', async () => {
    const fetch = api({
      '/api/update-fee': () => ({ body: { message: ['Fee updated successfully.'], fee: 2.25 } }),
    });
    signInAs(ALL_PERMISSIONS);
    renderApp('/fee-module');
    expect(await screen.findByRole('heading', { name: 'Fee Module', level: 1 })).toBeTruthy();
    expect((await screen.findAllByText('1.5%')).length).toBeGreaterThan(0);
    expect(await screen.findByText('€15.50')).toBeTruthy();
    expect(screen.getByText('2026-11-20')).toBeTruthy();
    // every posting to the Fee Account, money moved out too: named for what it is, not 'income'
    expect(screen.getByRole('heading', { name: 'Fee income (net of fees returned)', level: 2 })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Net change' })).toBeTruthy();

    await userEvent.click(screen.getAllByRole('button', { name: 'Edit the fee of Acme Payouts' })[0]);
    const dialog = await screen.findByRole('dialog', { name: 'Edit fee of Acme Payouts' });
    const save = within(dialog).getByRole('button', { name: 'Save' });
    expect(save.hasAttribute('disabled')).toBe(true);
    const fee = within(dialog).getByLabelText('Fee');
    await userEvent.clear(fee);
    await userEvent.type(fee, '100.5');
    expect(within(dialog).getByText('Amount must be from 0 to 100')).toBeTruthy();
    await userEvent.clear(fee);
    await userEvent.type(fee, '2.25');
    expect(save.hasAttribute('disabled')).toBe(true);
    await userEvent.type(within(dialog).getByLabelText('Reason'), 'New contract');
    expect(save.hasAttribute('disabled')).toBe(false);
    await userEvent.click(save);
    expect(await screen.findByText('Fee updated successfully.')).toBeTruthy();
    expect(callsTo(fetch, '/api/update-fee')).toEqual([{ id: 5, fee: '2.25', reason: 'New contract' }]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit fee of Acme Payouts' })).toBeNull());
  });

  it('shows the server refusal under its field, and the history of changes', async () => {
    api({
      '/api/update-fee': () => ({
        status: 422,
        body: {
          error: ['The fee is already this percentage'],
          fields: { fee: ['The fee is already this percentage'] },
        },
      }),
      '/api/fee-history': () => ({
        body: {
          data: [
            {
              id: 1,
              old_fee: 1,
              new_fee: 1.5,
              reason: 'Volume tier',
              changed_by: 'Ada Admin',
              changed_at: '2026-11-01T10:00:00Z',
            },
          ],
        },
      }),
    });
    signInAs(DEFAULT_ROLE_PERMISSIONS.Accountant, { role: 'Accountant' });
    renderApp('/fee-module');
    await userEvent.click((await screen.findAllByRole('button', { name: 'Fee history of Acme Payouts' }))[0]);
    const history = await screen.findByRole('dialog', { name: 'Fee history of Acme Payouts' });
    expect(await within(history).findByText('1% → 1.5%: Volume tier')).toBeTruthy();
    await userEvent.click(within(history).getByRole('button', { name: 'Close' }));

    await userEvent.click(screen.getAllByRole('button', { name: 'Edit the fee of Acme Payouts' })[0]);
    const dialog = await screen.findByRole('dialog', { name: 'Edit fee of Acme Payouts' });
    await userEvent.clear(within(dialog).getByLabelText('Fee'));
    await userEvent.type(within(dialog).getByLabelText('Fee'), '3');
    await userEvent.type(within(dialog).getByLabelText('Reason'), 'Try again');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('The fee is already this percentage')).toBeTruthy();
  });

  it('is not offered without the permission', async () => {
    mockApi();
    signInAs(DEFAULT_ROLE_PERMISSIONS.Merchant, { role: 'Merchant' });
    renderApp('/fee-module');
    expect(await screen.findByRole('heading', { name: 'No access' })).toBeTruthy();
  });
});
