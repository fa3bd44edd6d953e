import { USERS_MSG, manageableRoles, type RoleName, type UserRow } from '@obol/contract';
import { Dialog, DialogContent, DialogTitle, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useId, useState } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { useNotify } from '../../ui/notifications.tsx';
import { useUpdateRole } from './api/updateRole.ts';
import { FormActions } from '../../ui/FormActions.tsx';

/**
 * Manage user: a new role from the user's own set (section 6: the merchant-side roles when the user holds one,
 * otherwise the staff roles). Save is enabled once the role changed.
 */
export function ManageDialog({ user, onClose }: { user: UserRow | null; onClose: () => void }) {
  const id = useId();
  const { notify } = useNotify();
  const update = useUpdateRole();
  const current = user?.roles[0]?.name;
  const [chosen, setChosen] = useState<{ userId: number; role: RoleName } | null>(null);
  const role = chosen && user && chosen.userId === user.id ? chosen.role : current;
  const choices = current ? manageableRoles(current) : [];

  const close = () => {
    setChosen(null);
    update.reset();
    onClose();
  };
  const save = async (ev: React.FormEvent) => {
    ev.preventDefault();
    if (!user || !role || role === current) return;
    try {
      await update.mutateAsync({ id: user.id, role_name: role });
      notify('success', USERS_MSG.userUpdated);
      close();
    } catch (err) {
      notify('error', errorMessage(err));
    }
  };

  return (
    <Dialog
      open={!!user}
      onClose={update.isPending ? undefined : close}
      fullWidth
      maxWidth="xs"
      aria-labelledby={`${id}-title`}
    >
      <form onSubmit={save} noValidate>
        <DialogTitle id={`${id}-title`}>Manage user</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <div>
              <Typography>{user?.name}</Typography>
              <Typography variant="body2" color="textSecondary" sx={{ wordBreak: 'break-all' }}>
                {user?.email}
              </Typography>
            </div>
            <TextField
              select
              label="Role"
              value={role && choices.includes(role) ? role : ''}
              onChange={(e) => user && setChosen({ userId: user.id, role: e.target.value as RoleName })}
            >
              {choices.map((r) => (
                <MenuItem key={r} value={r}>
                  {r}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
        </DialogContent>
        <FormActions onCancel={close} busy={update.isPending} submit="Save" disabled={!role || role === current} />
      </form>
    </Dialog>
  );
}
