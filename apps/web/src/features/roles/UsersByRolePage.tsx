import { isRole, MSG, USERS_BY_ROLE_PER_PAGE, type RoleName, type RoleUser } from '@obol/contract';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import { Paper, Typography } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { errorMessage } from '../../lib/api.ts';
import { pageCount, useClampPage, usePaging } from '../../lib/paging.ts';
import { hasPermission, useSession } from '../../lib/session.ts';
import { ActionButton } from '../../ui/ActionButton.tsx';
import { useConfirm } from '../../ui/ConfirmDialog.tsx';
import { ListTable, type Column, type RowAction } from '../../ui/ListTable.tsx';
import { useNotify } from '../../ui/notifications.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { Pager } from '../../ui/Pager.tsx';
import { useDeleteUser } from './api/deleteUser.ts';
import { usersOfRoleQuery } from './api/userRoles.ts';
import { OneLine } from '../../ui/OneLine.tsx';

const NAME: Column<RoleUser> = {
  id: 'name',
  label: 'Name',
  width: 140,
  pinned: true,
  card: 'title',
  cell: (u) => u.name,
};
const EMAIL: Column<RoleUser> = {
  id: 'email',
  label: 'Email',
  width: 220,
  pinned: true,
  cell: (u) => <OneLine text={u.email} />,
};
const MERCHANT: Column<RoleUser> = {
  id: 'merchant',
  label: 'Merchant Name',
  width: 160,
  cell: (u) => u.merchant_name ?? '-',
};

/** The columns for a role: no merchant name for Manager (spec). */
export const columnsFor = (role: RoleName) => (role === 'Manager' ? [NAME, EMAIL] : [NAME, EMAIL, MERCHANT]);

function UsersOfRole({ role }: { role: RoleName }) {
  const session = useSession();
  const paging = usePaging(USERS_BY_ROLE_PER_PAGE, [USERS_BY_ROLE_PER_PAGE]);
  const q = useQuery({ ...usersOfRoleQuery(role, paging.page), placeholderData: keepPreviousData });
  useClampPage(paging, q.data?.total, !!q.data && !q.isPlaceholderData);
  const { ask, dialog } = useConfirm();
  const remove = useDeleteUser();
  const { notify } = useNotify();
  const canDelete = hasPermission(session, 'User can update user details');

  const action: RowAction<RoleUser> | undefined = canDelete
    ? {
        label: 'Action',
        cell: (u) => (
          <ActionButton
            text="Delete"
            label={`Delete ${u.name}`}
            icon={<DeleteOutlined fontSize="small" />}
            danger
            disabledReason={u.id === session?.user.id ? 'You cannot delete your own account' : null}
            onClick={() =>
              ask({
                title: 'Delete user?',
                text: `${u.name} (${u.email}) will be deleted and can no longer sign in.`,
                confirmLabel: 'Delete',
                action: async () => {
                  try {
                    await remove.mutateAsync(u.id);
                    notify('success', MSG.userDeleted);
                  } catch (err) {
                    notify('error', errorMessage(err));
                  }
                },
              })
            }
          />
        ),
      }
    : undefined;

  return (
    <>
      <PageTitle>{`Users with ${role} role`}</PageTitle>
      {q.isError ? <Typography color="error">{errorMessage(q.error)}</Typography> : null}
      <Paper>
        <ListTable
          id={`role-users-${role === 'Manager' ? 'manager' : 'any'}`}
          label={`Users with ${role} role`}
          columns={columnsFor(role)}
          rows={q.data?.data[0]?.users ?? []}
          rowKey={(u) => u.id}
          action={action}
          loading={q.isLoading}
        />
        <Pager page={paging.page} pages={pageCount(q.data?.total, USERS_BY_ROLE_PER_PAGE)} onPage={paging.setPage} />
      </Paper>
      {dialog}
    </>
  );
}

/** Users by role (/roles-permissions/{role}): name, email, merchant name, delete; 10 a page. */
export function UsersByRolePage() {
  const { role = '' } = useParams();
  if (!isRole(role))
    return (
      <>
        <PageTitle>Users by Role</PageTitle>
        <Typography>There is no role named {role}.</Typography>
      </>
    );
  return <UsersOfRole key={role} role={role} />;
}
