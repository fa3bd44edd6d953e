import { ROLES, STAFF_ROLES, type RoleName, type UserRow } from '@obol/contract';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import { Button } from '@mui/material';
import { useState } from 'react';
import { localDate, localDateTime } from '../../lib/format.ts';
import { useSession } from '../../lib/session.ts';
import { FIRST_PAGE } from '../../lib/paging.ts';
import { useSearchedList } from '../../lib/useSearchedList.ts';
import { oneOf, useUrlParams } from '../../lib/urlState.ts';
import { ActiveCounters } from '../../ui/Counter.tsx';
import type { Column } from '../../ui/ListTable.tsx';
import { OptionSelect } from '../../ui/OptionSelect.tsx';
import { TitleBar } from '../../ui/ListHeader.tsx';
import { SearchedTable } from '../../ui/SearchedTable.tsx';
import { StatusChip } from '../../ui/StatusChip.tsx';
import { usersQuery } from './api/users.ts';
import { InviteDialog } from './InviteDialog.tsx';
import { useUserActions } from './useUserActions.tsx';
import { OneLine } from '../../ui/OneLine.tsx';

const PER_PAGE = 10;
const ALL_ROLES = 'All Roles';
const ROLE_CHOICES = [ALL_ROLES, ...ROLES].map((r) => ({ label: r, value: r }));

const COLUMNS: Column<UserRow>[] = [
  { id: 'name', label: 'Full Name', width: 170, pinned: true, card: 'title', cell: (u) => u.name },
  {
    id: 'email',
    label: 'Email',
    width: 235,
    pinned: true,
    cell: (u) => <OneLine text={u.email} />,
  },
  { id: 'user_of', label: 'User Of', width: 140, cell: (u) => u.parent?.name ?? '-' },
  {
    id: 'registered',
    label: 'Register Date',
    width: 130,
    hidden: true,
    nowrap: true,
    cell: (u) => localDate(u.created_at),
  },
  {
    id: 'last_login',
    label: 'Last Login',
    width: 180,
    hidden: true,
    nowrap: true,
    cell: (u) => localDateTime(u.last_login),
  },
  { id: 'role', label: 'User Role', width: 130, cell: (u) => u.roles[0]?.name },
  {
    id: 'status',
    label: 'Status',
    width: 90,
    pinned: true,
    card: 'status',
    cell: (u) => <StatusChip status={userStatus(u)} />,
  },
];

/** Active, Inactive, or Invited: active but has not set a password from the invitation mail yet. */
export const userStatus = (u: UserRow) =>
  u.is_active !== '1' ? 'Inactive' : u.remember_token_status === 'Verified' ? 'Active' : 'Invited';

/**
 * The users in scope: counters, a role filter and a search (name or email contains), 10 a page, all in the URL;
 * with the permissions, the activate/deactivate switch and the Manage, Resend mail and Delete actions, and Invite.
 */
export function UsersPage() {
  const session = useSession();
  const actions = useUserActions();
  const [inviting, setInviting] = useState(false);
  const columns = actions.switchColumn ? [...COLUMNS, actions.switchColumn] : COLUMNS;
  const url = useUrlParams();
  const role = oneOf<RoleName | ''>(url.params.get('role'), ROLES, '');
  const list = useSearchedList(
    url,
    PER_PAGE,
    'Name or email contains',
    (page, search) => usersQuery({ per_page: PER_PAGE, page, search, roles: role }),
    (a) => a.users,
  );
  const { q } = list;

  return (
    <>
      <TitleBar title="Users">
        {actions.canUpdate ? (
          <Button variant="contained" startIcon={<PersonAddIcon />} onClick={() => setInviting(true)}>
            Invite user
          </Button>
        ) : null}
      </TitleBar>
      <ActiveCounters noun="Users" counts={q.data} />
      <SearchedTable
        id="users"
        label="Users"
        columns={columns}
        action={actions.action}
        list={list}
        filters={
          <OptionSelect
            label="Role"
            value={role || ALL_ROLES}
            options={ROLE_CHOICES}
            onChange={(v) => url.update({ role: v === ALL_ROLES ? null : v, ...FIRST_PAGE })}
            minWidth={200}
          />
        }
        narrowedBy={['role']}
        create={actions.canUpdate ? [{ label: 'Invite user', onClick: () => setInviting(true) }] : []}
      />
      {actions.dialogs}
      {actions.canUpdate ? (
        <InviteDialog
          open={inviting}
          onClose={() => setInviting(false)}
          staff={!!session && STAFF_ROLES.includes(session.user.role)}
        />
      ) : null}
    </>
  );
}
