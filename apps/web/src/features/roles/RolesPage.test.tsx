import {
  ALL_PERMISSIONS,
  DEFAULT_ROLE_PERMISSIONS,
  MSG,
  permissionLabel,
  ROLES,
  roleScreens,
  type Permission,
  type RoleName,
} from '@obol/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { callsTo, description, mockApi, pathname, renderApp, signInAs } from '../../test-utils.tsx';

vi.setConfig({ testTimeout: 20_000 });

const COUNTS: Partial<Record<RoleName, number>> = { Admin: 1, Finance: 2, Brand: 0 };

function rolesServer(held: Partial<Record<RoleName, Permission[]>> = {}) {
  const state = { ...DEFAULT_ROLE_PERMISSIONS, ...held } as Record<RoleName, readonly Permission[]>;
  return mockApi({
    '/api/user-with-count': () => ({ body: { data: ROLES.map((name) => ({ name, count: COUNTS[name] ?? 1 })) } }),
    '/api/role-against-users': (b) => {
      const role = (b as { role: RoleName }).role;
      return { body: { name: role, data: roleScreens(state[role]) } };
    },
    '/api/update-permission': (b) => {
      const { role_name, permission_name } = b as { role_name: RoleName; permission_name: Permission[] };
      state[role_name] = permission_name;
      return { body: { message: [MSG.roleUpdated], name: role_name, data: roleScreens(permission_name) } };
    },
  });
}

const card = async (role: string) =>
  (await screen.findByRole('heading', { name: role, level: 2 })).closest('li') as HTMLElement;
// by label: role queries over a hundred checkboxes are slow in jsdom; the label is the permission's plain one
const box = (p: Permission) =>
  screen.getByLabelText(permissionLabel(p), { selector: 'input[type=checkbox]' }) as HTMLInputElement;

async function openEditor(role: string) {
  await userEvent.click(within(await card(role)).getByRole('button', { name: `Edit ${role}` }));
  return screen.findByRole('dialog', { name: `Edit ${role} permissions` });
}

describe('roles and permissions', () => {
  it('shows a card per role with its count; the users link is disabled when nobody holds the role', async () => {
    rolesServer();
    signInAs(ALL_PERMISSIONS);
    renderApp('/roles-permissions');
    expect(screen.getByRole('heading', { name: 'Roles & Permissions', level: 1 })).toBeTruthy();
    for (const role of ROLES) expect(await card(role)).toBeTruthy();
    expect(within(await card('Finance')).getByText('2 users')).toBeTruthy();
    expect(within(await card('Admin')).getByText('1 user')).toBeTruthy();
    const brand = within(await card('Brand'));
    expect(brand.getByText('0 users')).toBeTruthy();
    expect(brand.getByRole('button', { name: 'View users against role Brand' }).hasAttribute('disabled')).toBe(true);
    await userEvent.click(within(await card('Finance')).getByRole('link', { name: 'View users against role Finance' }));
    await waitFor(() => expect(pathname()).toBe('/roles-permissions/Finance'));
  });

  it('unticking a view clears and disables its screen; Update only after a change, confirmed', async () => {
    const fetch = rolesServer();
    signInAs(ALL_PERMISSIONS);
    renderApp('/roles-permissions');
    const dialog = await openEditor('Finance');
    await within(dialog).findByLabelText('View transactions');
    const update = within(dialog).getByRole('button', { name: 'Update' });
    expect(update.hasAttribute('disabled')).toBe(true);
    expect(box('User can search').checked).toBe(true);
    expect(box('User can view users').checked).toBe(false);
    // a screen without its view: the others are disabled
    expect(box('User can update user details').disabled).toBe(true);

    await userEvent.click(box('User can view transactions'));
    expect(box('User can view transactions').checked).toBe(false);
    for (const p of ['User can search', 'User can export transactions'] as const) {
      expect(box(p).checked, p).toBe(false);
      expect(box(p).disabled, p).toBe(true);
    }
    expect(update.hasAttribute('disabled')).toBe(false);

    // back where it started: nothing to update
    await userEvent.click(box('User can view transactions'));
    expect(box('User can search').disabled).toBe(false);
    expect(box('User can search').checked).toBe(false);
    await userEvent.click(box('User can search'));
    await userEvent.click(box('User can export transactions'));
    expect(update.hasAttribute('disabled')).toBe(true);

    await userEvent.click(box('User can view transactions'));
    await userEvent.click(box('User can view users'));
    await userEvent.click(update);
    const confirm = await screen.findByRole('alertdialog', { name: 'Update the Finance role?' });
    // the change in plain words, confirmed by an ordinary (not a destructive, red) button
    expect(confirm.textContent).toContain('Adds: View users.');
    expect(confirm.textContent).toContain('Removes: View transactions, Search and filter lists, Export transactions.');
    expect(confirm.textContent).not.toContain('User can');
    const confirmButton = within(confirm).getByRole('button', { name: 'Update' });
    expect(confirmButton.className).toContain('MuiButton-colorPrimary');
    expect(confirmButton.className).not.toContain('MuiButton-colorError');
    // cancelling sends nothing
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(callsTo(fetch, '/api/update-permission')).toHaveLength(0);
    await userEvent.click(update);
    await userEvent.click(
      within(await screen.findByRole('alertdialog', { name: 'Update the Finance role?' })).getByRole('button', {
        name: 'Update',
      }),
    );
    await screen.findByText(MSG.roleUpdated);
    expect(callsTo(fetch, '/api/update-permission')).toEqual([
      {
        role_name: 'Finance',
        // in the editor's order
        permission_name: ALL_PERMISSIONS.filter(
          (p) =>
            p === 'User can view users' ||
            (DEFAULT_ROLE_PERMISSIONS.Finance.includes(p) &&
              !['User can view transactions', 'User can search', 'User can export transactions'].includes(p)),
        ),
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Finance permissions' })).toBeNull());
  });

  it('labels each permission in plain words, the spec string on hover and sent to the server', async () => {
    rolesServer();
    signInAs(ALL_PERMISSIONS);
    renderApp('/roles-permissions');
    const dialog = await openEditor('Finance');
    await within(dialog).findByLabelText('Activate or deactivate users');
    // the spec's typos are not shown as labels, only kept as the hover text
    expect(within(dialog).queryByText('User can activate or deacativate a user')).toBeNull();
    expect(within(dialog).getByText('Activate or deactivate users').getAttribute('title')).toBe(
      'User can activate or deacativate a user',
    );
    expect(within(dialog).getByText('View and edit roles').getAttribute('title')).toBe(
      'User can view role&permissions',
    );
    expect(within(dialog).queryAllByText(/^User can/)).toHaveLength(0);
  });

  it("keeps the Admin's role editor permission and a Brand's barred ones locked", async () => {
    rolesServer();
    signInAs(ALL_PERMISSIONS);
    renderApp('/roles-permissions');
    let dialog = await openEditor('Admin');
    await within(dialog).findByLabelText('View and edit roles');
    expect(box('User can view role&permissions').checked).toBe(true);
    expect(box('User can view role&permissions').disabled).toBe(true);
    // and says why, beside it and as the box's description
    expect(description(box('User can view role&permissions'))).toBe('The Admin role keeps this permission');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    dialog = await openEditor('Brand');
    await within(dialog).findByLabelText('View users');
    expect(box('User can view users').disabled).toBe(true);
    expect(box('User can view api&keys').disabled).toBe(true);
    expect(description(box('User can view api&keys'))).toBe('A Brand never holds this permission');
    expect(box('User can view payments').disabled).toBe(false);
  });

  it('shows the server’s refusal and keeps the editor open', async () => {
    mockApi({
      '/api/user-with-count': () => ({ body: { data: ROLES.map((name) => ({ name, count: 1 })) } }),
      '/api/role-against-users': (b) => ({
        body: { name: (b as { role: RoleName }).role, data: roleScreens(DEFAULT_ROLE_PERMISSIONS.Manager) },
      }),
      '/api/update-permission': () => ({
        status: 422,
        body: { error: ['This change would leave nobody able to edit roles'] },
      }),
    });
    signInAs(ALL_PERMISSIONS);
    renderApp('/roles-permissions');
    const dialog = await openEditor('Manager');
    await within(dialog).findByLabelText('View and edit roles');
    await userEvent.click(box('User can view role&permissions'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Update' }));
    await screen.findByText('This change would leave nobody able to edit roles');
    await waitFor(() => expect(screen.getByRole('dialog', { name: 'Edit Manager permissions' })).toBeTruthy());
    expect(box('User can view role&permissions').checked).toBe(false);
  });

  it('reads the role afresh each time the editor opens', async () => {
    let finance: Permission[] = [...DEFAULT_ROLE_PERMISSIONS.Finance];
    mockApi({
      '/api/user-with-count': () => ({ body: { data: ROLES.map((name) => ({ name, count: 1 })) } }),
      '/api/role-against-users': (b) => ({
        body: { name: (b as { role: RoleName }).role, data: roleScreens(finance) },
      }),
    });
    signInAs(ALL_PERMISSIONS);
    renderApp('/roles-permissions');
    let dialog = await openEditor('Finance');
    await within(dialog).findByLabelText('View transactions');
    expect(box('User can view transactions').checked).toBe(true);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // another administrator changes the role meanwhile
    finance = ['User can view profile'];
    dialog = await openEditor('Finance');
    await waitFor(() => expect(box('User can view transactions').checked).toBe(false));
    expect(box('User can view profile').checked).toBe(true);
  });

  it('offers no Edit to a merchant-side holder of the permission (roles are shared by every merchant)', async () => {
    rolesServer();
    signInAs(ALL_PERMISSIONS, { role: 'Merchant', name: 'Acme' });
    renderApp('/roles-permissions');
    expect(await card('Finance')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Edit / })).toBeNull();
  });

  it('is not in the menu, nor open, without the permission', async () => {
    rolesServer();
    const perms = ALL_PERMISSIONS.filter((p) => p !== 'User can view role&permissions');
    signInAs(perms);
    renderApp('/roles-permissions');
    expect(await screen.findByRole('heading', { name: 'No access' })).toBeTruthy();
    expect(screen.queryAllByRole('link', { name: 'Roles & Permissions' })).toHaveLength(0);
  });
});
