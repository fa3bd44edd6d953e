import { USERS_MSG, type UserRow } from '@obol/contract';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import ResendIcon from '@mui/icons-material/ForwardToInboxOutlined';
import ManageIcon from '@mui/icons-material/ManageAccountsOutlined';
import { Switch } from '@mui/material';
import { useState } from 'react';
import { hasPermission, useSession } from '../../lib/session.ts';
import { DisabledWhy } from '../../ui/ActionButton.tsx';
import { RowActions } from '../../ui/RowActions.tsx';
import type { Column, RowAction } from '../../ui/ListTable.tsx';
import { resendInvitation, useConfirm } from '../../ui/ConfirmDialog.tsx';
import { useNotifiedRun } from '../../ui/notifications.tsx';
import { useChangeUserStatus } from './api/changeUserStatus.ts';
import { useDeleteUser } from './api/deleteUser.ts';
import { useResendInvitation } from './api/resendInvitation.ts';
import { ManageDialog } from './ManageDialog.tsx';

const CHANGEABLE_ROLES = ['Merchant', 'Brand'];
// the server refuses to switch a user who has not set a password yet
const NOT_SIGNED_UP = 'The user has not signed up yet';

/**
 * What the caller may do to the users of the list: the activate/deactivate switch (with 'User can activate or
 * deacativate a user') and Manage, Resend mail and Delete (with 'User can update user details'), each confirmed.
 * Nobody acts on themselves, and only an Admin on an Admin, as the server says.
 */
export function useUserActions() {
  const session = useSession();
  const me = session?.user;
  const canStatus = hasPermission(session, 'User can activate or deacativate a user');
  const canUpdate = hasPermission(session, 'User can update user details');
  const run = useNotifiedRun();
  const { ask, dialog } = useConfirm();
  const [managed, setManaged] = useState<UserRow | null>(null);
  const status = useChangeUserStatus();
  const resend = useResendInvitation();
  const remove = useDeleteUser();

  /** why nobody here may act on this user, if so: it is the caller, or an Admin and the caller is not */
  const untouchable = (u: UserRow): string | null =>
    u.id === me?.id
      ? 'You cannot change your own account here'
      : u.roles[0]?.name === 'Admin' && me?.role !== 'Admin'
        ? 'Only an Admin changes an Admin'
        : null;

  const toggle = (u: UserRow) => {
    const activate = u.is_active !== '1';
    ask({
      title: activate ? `Activate ${u.name}?` : `Deactivate ${u.name}?`,
      text: activate ? 'Sure you want to activate this user?' : USERS_MSG.deactivateWarning,
      confirmLabel: activate ? 'Activate' : 'Deactivate',
      // activating gives access back: not a destructive step
      tone: activate ? 'neutral' : 'danger',
      action: () =>
        run(
          () => status.mutateAsync({ id: u.id, status: activate ? 1 : 0, level_type: 'User' }),
          USERS_MSG.statusUpdated,
        ),
    });
  };

  const switchColumn: Column<UserRow> = {
    id: 'active_switch',
    label: 'Active',
    pinned: true,
    cell: (u) => (
      <DisabledWhy reason={u.remember_token_status !== 'Verified' ? NOT_SIGNED_UP : untouchable(u)}>
        {(describedBy) => (
          <Switch
            checked={u.is_active === '1'}
            onChange={() => toggle(u)}
            disabled={!!describedBy}
            slotProps={{ input: { 'aria-label': `Active: ${u.name}`, 'aria-describedby': describedBy } }}
          />
        )}
      </DisabledWhy>
    ),
  };

  const action: RowAction<UserRow> = {
    label: 'Action',
    // the labelled Actions menu
    width: 110,
    cell: (u) => {
      const off = untouchable(u);
      return (
        <RowActions
          name={u.name}
          items={[
            {
              text: 'Manage',
              label: `Manage ${u.name}`,
              icon: <ManageIcon fontSize="small" />,
              disabledReason:
                off ??
                (CHANGEABLE_ROLES.includes(u.roles[0]?.name ?? '') ? 'A merchant or brand keeps its role' : null),
              onClick: () => setManaged(u),
            },
            {
              text: 'Resend',
              label: `Resend mail to ${u.name}`,
              icon: <ResendIcon fontSize="small" />,
              disabledReason: off ?? (u.resend_mail !== 1 ? 'The user has already signed up' : null),
              onClick: () =>
                ask(
                  resendInvitation(u.email, () =>
                    run(() => resend.mutateAsync({ id: u.id }), USERS_MSG.invitationResent),
                  ),
                ),
            },
            {
              text: 'Delete',
              label: `Delete ${u.name}`,
              icon: <DeleteIcon fontSize="small" />,
              danger: true,
              disabledReason: off,
              onClick: () =>
                ask({
                  title: `Delete ${u.name}?`,
                  text: 'The user can no longer sign in and disappears from the lists.',
                  confirmLabel: 'Delete',
                  action: () => run(() => remove.mutateAsync({ id: u.id }), USERS_MSG.userDeleted),
                }),
            },
          ]}
        />
      );
    },
  };

  return {
    canStatus,
    canUpdate,
    switchColumn: canStatus ? switchColumn : null,
    action: canUpdate ? action : undefined,
    dialogs: (
      <>
        {dialog}
        <ManageDialog user={managed} onClose={() => setManaged(null)} />
      </>
    ),
  };
}
