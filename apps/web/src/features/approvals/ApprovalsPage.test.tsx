import { APPROVAL_MSG, type ApprovalRow } from '@obol/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, mockApi, renderApp, signInAs } from '../../test-utils.tsx';

afterEach(() => vi.restoreAllMocks());

const row = (over: Partial<ApprovalRow> = {}): ApprovalRow => ({
  id: 7,
  kind: 'payout',
  object_id: '41',
  holder_name: 'Acme Payouts',
  amount: 150_000,
  currency: 'EUR',
  description: 'Ana Novak, wallet 100000001, Invoice 9',
  status: 'Pending',
  made_by: 'Acme Payouts',
  made_at: '2026-11-29T04:00:00.000Z',
  own: false,
  decided_by: null,
  decided_at: null,
  reason: null,
  ...over,
});
const PERMS = ['User can approve payouts', 'User can view profile'] as const;

describe('Approvals', () => {
  it('lists what waits with a count in the navigation, and approves with the approver’s own code', async () => {
    let pending = [row(), row({ id: 8, object_id: 'BX1', kind: 'batch', own: true, made_by: 'Demo Admin' })];
    const fetch = mockApi({
      '/api/approvals': (b) => {
        const input = b as { per_page?: number };
        return { body: { data: input.per_page === 1 ? [] : pending, total: pending.length, pending: 1 } };
      },
      '/api/request-approval-code': () => ({ body: { message: ['A verification code has been sent to your e-mail'] } }),
      '/api/approve': (b) =>
        (b as { code: string }).code === '123456'
          ? (() => {
              pending = pending.slice(1);
              return { body: { message: [APPROVAL_MSG.approved], approval: row({ status: 'Approved' }) } };
            })()
          : { status: 422, body: { error: ['Invalid code'], fields: { code: ['Invalid code'] } } },
    });
    signInAs(PERMS);
    renderApp('/approvals');
    const table = await screen.findByRole('table', { name: 'Approvals' });
    await within(table).findByText('Manual payout 41');
    // the count beside the menu item says how many wait for this user (not their own)
    const nav = screen.getByRole('link', { name: /^Approvals/ });
    await waitFor(() => expect(nav.textContent).toContain('1 waiting'));
    // one's own cannot be decided here
    expect(within(table).getByRole('button', { name: 'Your own' })).toHaveProperty('disabled', true);

    await userEvent.click(
      within(table).getByRole('button', { name: 'Approve Manual payout of €1,500.00 for Acme Payouts' }),
    );
    expect(callsTo(fetch, '/api/request-approval-code')).toEqual([{ id: 7 }]);
    const dialog = await screen.findByRole('dialog', { name: 'Enter the verification code' });
    await userEvent.type(within(dialog).getByLabelText('Verification code'), '000000');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText('Invalid code')).toBeTruthy();
    await userEvent.clear(within(dialog).getByLabelText('Verification code'));
    await userEvent.type(within(dialog).getByLabelText('Verification code'), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(fetch, '/api/approve').at(-1)).toEqual({ id: 7, code: '123456' });
    await waitFor(() => expect(within(table).queryByText('Manual payout 41')).toBeNull());
  }, 60_000);

  it('rejects with a reason, and asks for one first', async () => {
    const fetch = mockApi({
      '/api/approvals': () => ({ body: { data: [row({ kind: 'transfer', object_id: '3' })], total: 1, pending: 1 } }),
      '/api/reject': () => ({ body: { message: [APPROVAL_MSG.rejected], approval: row({ status: 'Rejected' }) } }),
    });
    signInAs(PERMS);
    renderApp('/approvals');
    const table = await screen.findByRole('table', { name: 'Approvals' });
    await userEvent.click(await within(table).findByRole('button', { name: /^Reject Transfer of €1,500.00/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject and return the money' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText('Enter a reason')).toBeTruthy();
    expect(callsTo(fetch, '/api/reject')).toEqual([]);
    await userEvent.type(within(dialog).getByLabelText(/Reason/), 'Wrong IBAN');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(fetch, '/api/reject')).toEqual([{ id: 7, reason: 'Wrong IBAN' }]);
  }, 60_000);

  it('is absent from the navigation without the permission', async () => {
    mockApi({});
    signInAs(['User can view profile']);
    renderApp('/user-profile');
    await screen.findByRole('heading', { name: 'User Profile' });
    expect(screen.queryByRole('link', { name: /^Approvals/ })).toBeNull();
  }, 60_000);
});
