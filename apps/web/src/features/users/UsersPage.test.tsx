import { ALL_PERMISSIONS, type UserRow, type UsersListResponse } from '@obol/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { callsTo, mockApi, renderApp, signInAs } from '../../test-utils.tsx';
import { userStatus } from './UsersPage.tsx';

// whole journeys through MUI selects and tables in jsdom take a few seconds
vi.setConfig({ testTimeout: 20_000 });

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

function usersServer(total: number) {
  return mockApi({
    '/api/users': (b) => {
      const { page, per_page, search } = b as { page: number; per_page: number; search: string };
      const all = Array.from({ length: total }, (_, i) =>
        row(i + 1, i === 1 ? { is_active: '0', parent: null, roles: [{ name: 'Manager' }] } : {}),
      ).filter((u) => !search || u.name.includes(search));
      const body: UsersListResponse = {
        users: { data: all.slice((page - 1) * per_page, page * per_page), total: all.length },
        count: total,
        active: total - 1,
        inactive: 1,
      };
      return { body };
    },
  });
}

describe('users list', () => {
  it('shows counters, rows and server pages of 10', async () => {
    const fetch = usersServer(23);
    signInAs(ALL_PERMISSIONS);
    renderApp('/users');
    expect(screen.getByRole('heading', { name: 'Users' })).toBeTruthy();
    await screen.findByText('User 1');
    expect(callsTo(fetch, '/api/users')[0]).toEqual({ per_page: 10, page: 1, search: '', roles: '' });
    expect(screen.getByText('23')).toBeTruthy();
    expect(screen.getByText('22')).toBeTruthy();
    const table = screen.getByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(11);
    const second = within(table).getByText('User 2').closest('tr')!;
    expect(within(second).getByText('Inactive')).toBeTruthy();
    // user of: no parent (last login is one click away in Columns, to keep the table within 1366 px)
    expect(within(second).getAllByRole('cell')[2].textContent).toBe('-');
    expect(within(table).queryByRole('columnheader', { name: 'Last Login' })).toBeNull();
    expect(within(second).getByText('Manager')).toBeTruthy();
    const first = within(table).getByText('User 1').closest('tr')!;
    expect(within(first).getByText('Acme Merchant')).toBeTruthy();
    expect(within(first).getByText('Active')).toBeTruthy();
    // a user who has not set a password from the invitation yet is Invited, not Active
    expect(userStatus(row(1, { remember_token_status: 'Not verified' }))).toBe('Invited');
    expect(userStatus(row(1, { is_active: '0', remember_token_status: 'Not verified' }))).toBe('Inactive');

    await userEvent.click(screen.getByRole('button', { name: 'Go to page 3' }));
    await screen.findByText('User 21');
    expect(callsTo(fetch, '/api/users').at(-1)).toMatchObject({ page: 3, per_page: 10 });
  });

  it('filters by role and by a debounced search, and says when nothing matches', async () => {
    const fetch = usersServer(3);
    signInAs(ALL_PERMISSIONS);
    renderApp('/users');
    await screen.findByText('User 1');
    await userEvent.click(screen.getByRole('combobox', { name: 'Role' }));
    await userEvent.click(screen.getByRole('option', { name: 'Risk Ops' }));
    await waitFor(() => expect(callsTo(fetch, '/api/users').at(-1)).toMatchObject({ roles: 'Risk Ops' }));

    const before = callsTo(fetch, '/api/users').length;
    await userEvent.type(screen.getByLabelText('Search'), 'nobody');
    // nothing is sent while typing; one call a second after the last key
    expect(callsTo(fetch, '/api/users')).toHaveLength(before);
    await waitFor(() => expect(callsTo(fetch, '/api/users').at(-1)).toMatchObject({ search: 'nobody', page: 1 }), {
      timeout: 2500,
    });
    expect(callsTo(fetch, '/api/users')).toHaveLength(before + 1);
    expect(await screen.findByText('No Record Found')).toBeTruthy();

    // the empty list's next step: clearing the search and the role in one go, back to every user
    const table = screen.getByRole('table', { name: 'Users' });
    expect(within(table).queryByRole('button', { name: 'Invite user' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(callsTo(fetch, '/api/users').at(-1)).toMatchObject({ search: '', roles: '', page: 1 }));
    expect(await screen.findByText('User 1')).toBeTruthy();
    expect((screen.getByLabelText('Search') as HTMLInputElement).value).toBe('');
  });

  it('offers Invite user on an empty list to a user who may invite', async () => {
    usersServer(0);
    signInAs();
    renderApp('/users');
    const table = await screen.findByRole('table', { name: 'Users' });
    await within(table).findByText('No Record Found');
    await userEvent.click(within(table).getByRole('button', { name: 'Invite user' }));
    expect(await screen.findByRole('dialog')).toBeTruthy();
  });

  it('offers no invitation on an empty list without the permission to invite', async () => {
    usersServer(0);
    signInAs(ALL_PERMISSIONS.filter((p) => p !== 'User can update user details'));
    renderApp('/users');
    const table = await screen.findByRole('table', { name: 'Users' });
    await within(table).findByText('No Record Found');
    expect(within(table).queryByRole('button')).toBeNull();
  });
});
