import { ALL_PERMISSIONS, USERS_MSG, type Permission, type UserRow, type UsersListResponse } from '@obol/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  callsTo,
  closeMenu,
  description,
  mockApi,
  renderApp,
  rowMenuItem,
  signInAs,
  type Handler,
} from '../../test-utils.tsx';

vi.setConfig({ testTimeout: 45_000 });

const row = (i: number, over: Partial<UserRow> = {}): UserRow => ({
  id: i,
  name: `User ${i}`,
  email: `user${i}@obol.example`,
  roles: [{ name: 'Risk Ops' }],
  is_active: '1',
  created_at: '2026-01-02T10:00:00Z',
  last_login: null,
  parent: { id: 99, name: 'Acme Merchant' },
  remember_token_status: 'Verified',
  resend_mail: 0,
  two_fa_as_otp: true,
  ...over,
});

const ROWS = [
  row(2),
  row(3, { name: 'Newbie', remember_token_status: 'Not verified', resend_mail: 1, roles: [{ name: 'Accountant' }] }),
  row(1, { name: 'Ada Admin', roles: [{ name: 'Admin' }], parent: null }),
  row(4, { name: 'Other Admin', roles: [{ name: 'Admin' }], parent: null }),
];

function server(extra: Record<string, Handler> = {}) {
  return mockApi({
    '/api/users': () => {
      const body: UsersListResponse = { users: { data: ROWS, total: ROWS.length }, count: 3, active: 3, inactive: 0 };
      return { body };
    },
    '/api/all-user-roles': () => ({ body: { roles: ['Manager', 'Accountant', 'Risk Ops', 'Reviewer'] } }),
    '/api/all-merchants': () => ({ body: { data: [{ id: 99, name: 'Acme Merchant' }] } }),
    ...extra,
  });
}

describe('users administration on the Users screen', () => {
  it('shows no switch, no action column and no Invite without the permissions', async () => {
    server();
    signInAs(['User can view users'] as Permission[]);
    renderApp('/users');
    await screen.findByText('User 2');
    expect(screen.queryByRole('button', { name: 'Invite user' })).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Active' })).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Action' })).toBeNull();
    expect(screen.queryByRole('switch', { name: 'Active: User 2' })).toBeNull();
  });

  it('invites a user: required fields first, then the merchant for a merchant-side role, and the toast', async () => {
    const fetch = server({
      '/api/invite-user': () => ({ status: 201, body: { message: [USERS_MSG.invited], id: 7 } }),
    });
    signInAs(ALL_PERMISSIONS);
    renderApp('/users');
    await screen.findByText('User 2');
    await userEvent.click(screen.getByRole('button', { name: 'Invite user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite user' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Invite' }));
    expect(within(dialog).getAllByText('This field is required')).toHaveLength(3);
    expect(callsTo(fetch, '/api/invite-user')).toHaveLength(0);

    await userEvent.type(within(dialog).getByLabelText(/Name/), 'Rita Reviewer');
    await userEvent.type(within(dialog).getByLabelText(/Email/), 'rita@');
    await userEvent.click(within(dialog).getByRole('combobox', { name: /Role/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'Reviewer' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Invite' }));
    expect(within(dialog).getByText('E-mail must be valid')).toBeTruthy();
    expect(within(dialog).getByText('This field is required')).toBeTruthy(); // the merchant
    await userEvent.type(within(dialog).getByLabelText(/Email/), 'obol.example');
    await userEvent.click(within(dialog).getByRole('combobox', { name: /Merchant/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'Acme Merchant' }));
    const before = callsTo(fetch, '/api/users').length;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Invite' }));
    await waitFor(() =>
      expect(callsTo(fetch, '/api/invite-user')).toEqual([
        { name: 'Rita Reviewer', email: 'rita@obol.example', rolename: 'Reviewer', parent_id: 99 },
      ]),
    );
    expect(await screen.findByText(USERS_MSG.invited)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Invite user' })).toBeNull());
    await waitFor(() => expect(callsTo(fetch, '/api/users').length).toBeGreaterThan(before));
  });

  it("shows the server's refusal of the e-mail under the field and keeps the dialog open", async () => {
    server({
      '/api/invite-user': () => ({
        status: 409,
        body: { error: [USERS_MSG.emailTaken], fields: { email: [USERS_MSG.emailTaken] } },
      }),
    });
    signInAs(ALL_PERMISSIONS);
    renderApp('/users');
    await screen.findByText('User 2');
    await userEvent.click(screen.getByRole('button', { name: 'Invite user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite user' });
    await userEvent.type(within(dialog).getByLabelText(/Name/), 'Twin');
    await userEvent.type(within(dialog).getByLabelText(/Email/), 'user2@obol.example');
    await userEvent.click(within(dialog).getByRole('combobox', { name: /Role/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'Manager' }));
    expect(within(dialog).queryByRole('combobox', { name: /Merchant/ })).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Invite' }));
    expect(await within(dialog).findByText(USERS_MSG.emailTaken)).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Invite user' })).toBeTruthy();
  });

  it('deactivates after the warning, and keeps the switch off for the unverified, oneself and (for others) an Admin', async () => {
    const fetch = server({ '/api/change-user-status': () => ({ body: { message: [USERS_MSG.statusUpdated] } }) });
    signInAs(ALL_PERMISSIONS, { role: 'Manager', name: 'Max Manager' });
    renderApp('/users');
    await screen.findByText('User 2');
    expect(screen.getByRole('switch', { name: 'Active: Newbie' })).toHaveProperty('disabled', true);
    // not Active until the invitation's password is set
    expect(within(screen.getByText('Newbie').closest('tr')!).getByText('Invited')).toBeTruthy();
    expect(screen.getByRole('switch', { name: 'Active: Ada Admin' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('switch', { name: 'Active: Other Admin' })).toHaveProperty('disabled', true);
    // each says why
    expect(description(screen.getByRole('switch', { name: 'Active: Newbie' }))).toBe('The user has not signed up yet');
    expect(description(screen.getByRole('switch', { name: 'Active: Other Admin' }))).toBe(
      'Only an Admin changes an Admin',
    );
    const del = await rowMenuItem('Other Admin', /^Delete/);
    expect(del.getAttribute('aria-disabled')).toBe('true');
    expect(del.textContent).toBe('DeleteOnly an Admin changes an Admin');
    await closeMenu();
    expect(description(screen.getByRole('switch', { name: 'Active: User 2' }))).toBeNull();
    await userEvent.click(screen.getByRole('switch', { name: 'Active: User 2' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Deactivate User 2?' });
    expect(within(confirm).getByText(USERS_MSG.deactivateWarning)).toBeTruthy();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() =>
      expect(callsTo(fetch, '/api/change-user-status')).toEqual([{ id: 2, status: 0, level_type: 'User' }]),
    );
    expect(await screen.findByText(USERS_MSG.statusUpdated)).toBeTruthy();
  });

  it('resends only to the unverified and deletes after a confirmation', async () => {
    const fetch = server({
      '/api/resend-invitation': () => ({ body: { message: [USERS_MSG.invitationResent] } }),
      '/api/delete-user': () => ({ body: { message: [USERS_MSG.userDeleted] } }),
    });
    signInAs(ALL_PERMISSIONS);
    renderApp('/users');
    await screen.findByText('User 2');
    // three actions: a labelled Actions menu per row; a disabled action stays in it and says why
    const resendDone = await rowMenuItem('User 2', /^Resend/);
    expect(resendDone.getAttribute('aria-disabled')).toBe('true');
    expect(resendDone.textContent).toBe('ResendThe user has already signed up');
    await closeMenu();
    expect((await rowMenuItem('User 2', 'Manage')).getAttribute('aria-disabled')).toBeNull();
    await closeMenu();
    // oneself: nothing to do, and it says so; another Admin, for an Admin: yes
    const deleteSelf = await rowMenuItem('Ada Admin', /^Delete/);
    expect(deleteSelf.getAttribute('aria-disabled')).toBe('true');
    expect(deleteSelf.textContent).toBe('DeleteYou cannot change your own account here');
    await closeMenu();
    expect((await rowMenuItem('Other Admin', 'Delete')).getAttribute('aria-disabled')).toBeNull();
    await closeMenu();
    await userEvent.click(await rowMenuItem('Newbie', 'Resend'));
    const resend = await screen.findByRole('alertdialog', { name: 'Resend invitation mail?' });
    // an ordinary step: not confirmed in red, unlike Delete below
    expect(within(resend).getByRole('button', { name: 'Resend mail' }).className).toContain('MuiButton-colorPrimary');
    await userEvent.click(within(resend).getByRole('button', { name: 'Resend mail' }));
    await waitFor(() => expect(callsTo(fetch, '/api/resend-invitation')).toEqual([{ id: 3 }]));
    expect(await screen.findByText(USERS_MSG.invitationResent)).toBeTruthy();

    await userEvent.click(await rowMenuItem('User 2', 'Delete'));
    const del = await screen.findByRole('alertdialog', { name: 'Delete User 2?' });
    expect(within(del).getByRole('button', { name: 'Delete' }).className).toContain('MuiButton-colorError');
    await userEvent.click(within(del).getByRole('button', { name: 'Cancel' }));
    expect(callsTo(fetch, '/api/delete-user')).toHaveLength(0);
    await userEvent.click(await rowMenuItem('User 2', 'Delete'));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(callsTo(fetch, '/api/delete-user')).toEqual([{ id: 2 }]));
    expect(await screen.findByText(USERS_MSG.userDeleted)).toBeTruthy();
  });

  it("manages a role within the user's set, Save enabled once it changed", async () => {
    const fetch = server({ '/api/update-role': () => ({ body: { message: [USERS_MSG.userUpdated] } }) });
    signInAs(ALL_PERMISSIONS);
    renderApp('/users');
    await screen.findByText('User 2');
    await userEvent.click(await rowMenuItem('User 2', 'Manage'));
    const dialog = await screen.findByRole('dialog', { name: 'Manage user' });
    const save = within(dialog).getByRole('button', { name: 'Save' });
    expect(save).toHaveProperty('disabled', true);
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Role' }));
    const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(options).toEqual(['Risk Ops', 'Payment Ops', 'Finance', 'Reviewer']);
    await userEvent.click(screen.getByRole('option', { name: 'Finance' }));
    expect(save).toHaveProperty('disabled', false);
    await userEvent.click(save);
    await waitFor(() => expect(callsTo(fetch, '/api/update-role')).toEqual([{ id: 2, role_name: 'Finance' }]));
    expect(await screen.findByText(USERS_MSG.userUpdated)).toBeTruthy();
    // a staff user gets the staff set
    await userEvent.click(await rowMenuItem('Newbie', 'Manage'));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Manage user' })).getByRole('combobox', { name: 'Role' }),
    );
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'Manager',
      'Supervisor A',
      'Supervisor B',
      'Accountant',
      '2D Admin',
    ]);
  });
});
