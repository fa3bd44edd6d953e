import { ALL_PERMISSIONS, MSG, type RoleUser } from '@obol/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { callsTo, mockApi, renderApp, signInAs } from '../../test-utils.tsx';

vi.setConfig({ testTimeout: 20_000 });

const user = (i: number): RoleUser => ({
  id: 100 + i,
  name: `Person ${i}`,
  email: `person${i}@obol.example`,
  merchant_name: 'Acme Payouts',
});

function server(total: number) {
  let people = Array.from({ length: total }, (_, i) => user(i + 1));
  return mockApi({
    '/api/user-roles': (b) => {
      const { role, page, per_page } = b as { role: string; page: number; per_page: number };
      return {
        body: {
          total: people.length,
          data: [{ name: role, users: people.slice((page - 1) * per_page, page * per_page) }],
        },
      };
    },
    '/api/delete-user': (b) => {
      people = people.filter((p) => p.id !== (b as { id: number }).id);
      return { body: { message: [MSG.userDeleted] } };
    },
  });
}

describe('users by role', () => {
  it('lists the users of a role 10 a page, with their merchant', async () => {
    const fetch = server(12);
    signInAs(ALL_PERMISSIONS);
    renderApp('/roles-permissions/Finance');
    expect(await screen.findByRole('heading', { name: 'Users with Finance role', level: 1 })).toBeTruthy();
    await screen.findByText('Person 1');
    expect(callsTo(fetch, '/api/user-roles')[0]).toEqual({ role: 'Finance', page: 1, per_page: 10 });
    const table = screen.getByRole('table', { name: 'Users with Finance role' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Email', 'Merchant Name', 'Action']);
    expect(within(table).getAllByRole('row')).toHaveLength(11);
    await userEvent.click(screen.getByRole('button', { name: 'Go to page 2' }));
    await screen.findByText('Person 11');
    expect(callsTo(fetch, '/api/user-roles').at(-1)).toEqual({ role: 'Finance', page: 2, per_page: 10 });
  });

  it('shows no merchant name for Manager', async () => {
    server(1);
    signInAs(ALL_PERMISSIONS);
    renderApp('/roles-permissions/Manager');
    await screen.findByText('Person 1');
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Email', 'Action']);
  });

  it('deletes a user after confirmation', async () => {
    const fetch = server(2);
    signInAs(ALL_PERMISSIONS);
    renderApp('/roles-permissions/Finance');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Person 2' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete user?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(callsTo(fetch, '/api/delete-user')).toHaveLength(0);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Person 2' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog', { name: 'Delete user?' })).getByRole('button', { name: 'Delete' }),
    );
    await screen.findByText(MSG.userDeleted);
    expect(callsTo(fetch, '/api/delete-user')).toEqual([{ id: 102 }]);
    await waitFor(() => expect(screen.queryByText('Person 2')).toBeNull());
  });

  it('offers no delete without the permission to update users', async () => {
    server(1);
    signInAs(ALL_PERMISSIONS.filter((p) => p !== 'User can update user details'));
    renderApp('/roles-permissions/Finance');
    await screen.findByText('Person 1');
    expect(screen.queryByRole('button', { name: 'Delete Person 1' })).toBeNull();
  });

  it('says when the role does not exist', async () => {
    server(0);
    signInAs(ALL_PERMISSIONS);
    renderApp('/roles-permissions/Emperor');
    expect(await screen.findByText('There is no role named Emperor.')).toBeTruthy();
  });
});
